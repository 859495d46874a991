"""Offline reveal.js decks of the lecture versions, for a 1280 x 720 projector.

    python tools/publishing/decks.py [notebooks/01_metrics.ipynb ...]   # -> build/slides/NN_name.slides.html

Each deck is exported from the lecture version (tools/publishing/lecture.py: solutions
and hidden tests removed, outputs kept) with nbconvert's reveal template, but
every script and style sheet it loads (reveal.js, require.js, jQuery, MathJax
2 and the widget renderer @jupyter-widgets/html-manager) comes from
build/slides/vendor/node_modules, which `make slides` installs from the npm
registry with the committed lock file (tools/publishing/vendor/package-lock.json). A
deck therefore opens from the file system with no network. It fills a 1280 x 720
screen (reveal.js's margin 0: shown at scale 1), and tools/publishing/deck/course.css
makes it fit: code wraps, long outputs and tables scroll inside their slide,
images are scaled to the slide, a slider's figure is shown at its pixel size.
The slides are the lecture version's (tools/publishing/lecture.py fits them), plus a
sub-slide wherever a cell's outputs together are taller than a slide
(:func:`split_tall_outputs`). The speaker view (S, reveal.js's notes plugin)
gets the course's layout (tools/publishing/deck/speaker.css): the upcoming slide as
large as the current one, the notes at 24 px.

Sliders work in the decks with no kernel: a notebook with an explorer is
executed again (nbclient, in memory) with ``COURSE_DECK=1`` in its kernel's
environment, up to its last explorer, and each explorer then displays ``helpers.widgets.deck_view``:
the same sliders over the same grids, every grid value's figure and number
panel pre-rendered by the explorer's own state function and figure code,
switched in the browser by ipywidgets' ``jsdlink`` from the slider to the
frames (stored in the deck's embedded widget state). Number boxes (the
threshold slider's costs) stay at the notebook's values, with a line saying
so. Decks are built two at a time (2 cores).

Links keep working between decks: a link to ``NN_name.ipynb`` becomes
``NN_name.slides.html``, and the markdown files the notebooks link to (the
glossary) are rendered next to the decks as ``glossary.html``, their links
rewritten the same way.
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
import shutil
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path, PurePosixPath
from typing import NamedTuple

import nbformat
from nbclient import NotebookClient
from nbconvert import SlidesExporter
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/: links
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/publishing/: lecture
import frames  # noqa: E402  (tools/publishing/frames.py: the frame renderer the site shares)
import lecture  # noqa: E402
import links  # noqa: E402  (tools/links.py: what the notebooks link to)
from lecture import HEIGHT, NOTEBOOKS, WIDTH, lecture_version, write_lecture  # noqa: E402
from lecture import OUT as LECTURE_OUT  # noqa: E402

from helpers.widgets import DECK_ENV  # noqa: E402  (explorers show their pre-rendered deck view)

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "deck"  # the decks' template and style sheets
OUT = ROOT / "build" / "slides"
VENDOR = "vendor/node_modules"  # relative to the decks
# What each deck loads, relative to the deck: file name in VENDOR -> the exporter option that points to it.
ASSETS = {
    "reveal_url_prefix": f"{VENDOR}/reveal.js",
    "require_js_url": f"{VENDOR}/requirejs/require.js",
    "jquery_url": f"{VENDOR}/jquery/dist/jquery.min.js",
    "mathjax_url": f"{VENDOR}/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "widget_renderer_url": f"{VENDOR}/@jupyter-widgets/html-manager/dist/embed-amd.js",
}
REMOTE = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""")
HREF = re.compile(r"""(?P<before><a\s[^>]*?href\s*=\s*)(?P<quote>["'])(?P<url>.*?)(?P=quote)""", re.I | re.S)


def deck_link(url: str) -> str:
    """Where a notebook's relative link points among the decks: ``01_metrics.ipynb#x`` ->
    ``01_metrics.slides.html#x``, ``glossary.md`` -> ``glossary.html``; other links unchanged."""
    if not links.is_relative(url):
        return url
    path, hash_, fragment = url.partition("#")
    suffix = PurePosixPath(path).suffix
    if suffix == ".ipynb":
        path = path[: -len(suffix)] + ".slides.html"
    elif suffix == ".md":
        path = path[: -len(suffix)] + ".html"
    return path + hash_ + fragment


def retarget(page: str) -> str:
    """An HTML page with its links (``<a href>``) pointing among the decks."""
    return HREF.sub(lambda m: m["before"] + m["quote"] + html.escape(deck_link(html.unescape(m["url"])))
                    + m["quote"], page)


def exporter() -> SlidesExporter:
    config = Config()
    config.SlidesExporter.update(ASSETS)
    config.SlidesExporter.reveal_width = str(WIDTH)
    config.SlidesExporter.reveal_height = str(HEIGHT)
    config.SlidesExporter.reveal_theme = "white"  # its font ships with reveal.js (others import Google Fonts)
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.reveal_number = "c/t"
    config.SlidesExporter.reveal_scroll = False  # course.css makes a tall slide scroll by itself
    config.SlidesExporter.extra_template_basedirs = [str(HERE / "templates")]
    config.SlidesExporter.template_name = "course_reveal"
    return SlidesExporter(config=config)


def missing_assets(out: Path = OUT) -> list[str]:
    return [path.split("?")[0] for path in ASSETS.values() if not (out / path.split("?")[0]).exists()]


def deck(notebook) -> str:
    """The HTML of one offline deck from a lecture notebook."""
    body, _ = exporter().from_notebook_node(
        notebook, resources={"course_css": (HERE / "course.css").read_text(),
                             "speaker_css": (HERE / "speaker.css").read_text(), "metadata": {"name": "deck"}})
    remote = REMOTE.findall(body)
    if remote:
        raise RuntimeError(f"the deck would load {len(remote)} file(s) from the network")
    return retarget(EMPTY_HEADER.sub(r"<td\g<attributes>></td>", body))


# A table's empty header cell (pandas' corner above the index) is announced as a header with no name: a plain
# cell instead (axe-core's empty-table-header).
EMPTY_HEADER = re.compile(r"<th(?P<attributes>(?:\s[^>]*)?)>(?:\s|&nbsp;|&#160;)*</th>")


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:"Source Sans Pro",Helvetica,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;
line-height:1.45}} table{{border-collapse:collapse;margin:1em 0}} th,td{{border:1px solid #ccc;padding:.3em .6em;
vertical-align:top;text-align:left}} code{{background:#f4f4f4;padding:0 .2em}} a.anchor-link{{display:none}}</style>
</head><body>
<main>
{body}
</main>
</body></html>
"""


def page(markdown: str, title: str) -> str:
    """A markdown file (the glossary) as a standalone HTML page beside the decks, its links retargeted."""
    return retarget(PAGE.format(title=html.escape(title), body=links.markdown_html(markdown)))


def write_companions(out: Path = OUT, notebooks: Path = NOTEBOOKS) -> list[Path]:
    """The files the notebooks link to, beside the decks: markdown rendered to HTML, others copied."""
    written = []
    for relative in links.companions(notebooks):
        source = notebooks / relative
        if relative.suffix == ".md":
            target = out / relative.with_suffix(".html")
            text = source.read_text(encoding="utf-8")
            title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")),
                         relative.stem)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(page(text, title), encoding="utf-8")
        else:
            target = out / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        written.append(target)
    return written


EXPLORER = re.compile(r"\b\w+_explorer\(")


def last_explorer(notebook) -> int | None:
    """The index of the last code cell of ``notebook`` that shows a slider explorer (``fbeta_explorer(...)`` and
    the like), or ``None`` when none does. A deck re-runs its notebook up to there."""
    explorers = [index for index, cell in enumerate(notebook.cells)
                 if cell.cell_type == "code" and EXPLORER.search(cell.source)]
    return explorers[-1] if explorers else None


def has_explorer(notebook) -> bool:
    """Whether a code cell of ``notebook`` shows a slider explorer."""
    return last_explorer(notebook) is not None


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_REFERENCE = re.compile(r"IPY_MODEL_([\w-]+)")


class ShownModels(NamedTuple):
    """The widget models some outputs show, with every model they reference (``found``), and the models shown
    or referenced that ``state`` lacks (``missing``: the widget would not render)."""

    found: set[str]
    missing: set[str]


def shown_models(outputs, state: dict) -> ShownModels:
    """The widget models ``outputs`` display and every model of ``state`` they reference (layouts, styles,
    children), transitively; and those of them that ``state`` does not hold."""
    todo = [output["data"][WIDGET_VIEW]["model_id"] for output in outputs
            if WIDGET_VIEW in output.get("data", {})]
    found: set[str] = set()
    missing: set[str] = set()
    while todo:
        model = todo.pop()
        if model in found or model in missing:
            continue
        if model not in state:
            missing.add(model)
            continue
        found.add(model)
        todo.extend(MODEL_REFERENCE.findall(json.dumps(state[model].get("state", {}))))
    return ShownModels(found, missing)


def deck_notebook(path: Path) -> nbformat.NotebookNode:
    """The executed instructor notebook ``path``, run again with ``COURSE_DECK=1`` up to its last slider
    explorer, so that its explorers store their pre-rendered frames in the widget state (nothing is written to
    disk). The cells after the last explorer keep their committed outputs (nbval checks that a run reproduces
    them), and the widgets they show (concept checks) their committed state; a widget whose committed state is
    incomplete is named in a warning (re-execute the notebook: `make execute`)."""
    notebook = nbformat.read(path, as_version=4)
    last = last_explorer(notebook)
    if last is None:
        return notebook
    committed = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    later = [output for cell in notebook.cells[last + 1:] if cell.cell_type == "code" for output in cell.outputs]
    shown = shown_models(later, committed)
    if shown.missing:
        warnings.warn(f"{path.name}: the committed widget state lacks {len(shown.missing)} model(s) that cells "
                      f"after the last explorer show ({', '.join(sorted(shown.missing)[:3])}...); those widgets "
                      f"will not render in the deck: re-execute the notebook (make execute)", stacklevel=2)
    kept = {model: committed[model] for model in shown.found}
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}, record_timing=False,
                            store_widget_state=True)
    with client.setup_kernel(env={**os.environ, DECK_ENV: "1"}):
        for index, cell in enumerate(notebook.cells[:last + 1]):
            client.execute_cell(cell, index)
        client.set_widgets_metadata()
    notebook.metadata.widgets[WIDGET_STATE]["state"].update(kept)
    return notebook


def output_groups(outputs) -> list[list]:
    """A cell's outputs in consecutive groups that each fit a slide (:data:`lecture.BUDGET`, by
    :func:`lecture.output_height`), a figure's long description ("Figure details") kept with its figure; an
    output taller than a slide is a group of its own."""
    groups: list[list] = []
    used = 0
    for output in outputs:
        height = lecture.output_height(output)
        if groups and (lecture.is_details(output) or used + height <= lecture.BUDGET):
            groups[-1].append(output)
            used += height
        else:
            groups.append([output])
            used = height
    return groups


def split_tall_outputs(notebook) -> int:
    """Deck only: an outputs-only sub-slide of the lecture version (tools/publishing/lecture.py ``split_outputs``) whose
    outputs together are taller than a slide becomes several, each with the outputs that fit (:func:`output_groups`).
    The live slideshow cannot do this (a cell's outputs stay in that cell, which Run All refills); a deck runs no
    code. Return how many sub-slides were added."""
    cells, added = [], 0
    for cell in notebook.cells:
        if cell.cell_type != "code" or lecture.OUTPUT_TAG not in cell.metadata.get("tags", []):
            cells.append(cell)
            continue
        for index, group in enumerate(output_groups(cell.outputs)):
            piece = cell
            if index:
                piece = copy.deepcopy(cell)
                piece.id = f"{cell.id}-outputs-{index}"
                piece.metadata["slideshow"] = {"slide_type": "subslide"}
                added += 1
            piece.outputs = group
            cells.append(piece)
    notebook.cells = cells
    return added


def deck_version(path: Path, notebook) -> nbformat.NotebookNode:
    """The deck of the instructor notebook ``path`` (``notebook``: it, run by :func:`deck_notebook`): its lecture
    version (tools/publishing/lecture.py: slides fitted to 1280 x 720, speaker notes), with the outputs too tall for one
    sub-slide spread over several (:func:`split_tall_outputs`)."""
    version = lecture_version(notebook, lecture.speaker_notes(path), path.name)
    split_tall_outputs(version)
    return version


def write_deck(path: Path, out: Path = OUT, lecture_out: Path = LECTURE_OUT) -> Path:
    """Write the lecture version of ``path`` and its deck, with working sliders; return the deck's path."""
    write_lecture(path, lecture_out)
    out.mkdir(parents=True, exist_ok=True)
    notebook = deck_version(path, frames.rendered(path))  # deck_notebook's run, kept for `make site` too
    target = out / f"{path.stem}.slides.html"
    target.write_text(deck(notebook), encoding="utf-8")
    return target


def _timed_deck(path: Path) -> tuple[Path, float]:
    start = time.perf_counter()
    return write_deck(path), time.perf_counter() - start


MAX_DECK_MB = 25  # the limit a deck must stay under (tests/test_browser_decks.py, bench/bench_browser.py)


def write_decks(paths: list[Path]) -> list[tuple[Path, float]]:
    """Write the decks of ``paths``, two at a time (2 cores); return each deck's path and seconds, in order."""
    # the notebooks run again (those with a slider) start first, the largest first: the two workers finish together
    order = sorted(paths, key=lambda p: (not has_explorer(nbformat.read(p, as_version=4)), -p.stat().st_size))
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = {path: pool.submit(_timed_deck, path) for path in order}
        return [futures[path].result() for path in paths]


def build(paths: list[Path]) -> tuple[list[tuple[Path, float]], list[Path]]:
    """What `make slides` writes: the decks of ``paths`` (with their lecture versions in build/lecture/), the
    pages they link to, and those pages beside the lecture versions too (they link to them as well); return
    each deck's path and seconds, and the linked pages. tests/conftest.py builds the decks it tests with this."""
    decks = write_decks(paths)
    pages = write_companions()
    lecture.write_companions(LECTURE_OUT)
    return decks, pages


def main(paths: list[str]) -> None:
    missing = missing_assets()
    if missing:
        sys.exit(f"missing in {OUT.relative_to(ROOT)}: {', '.join(missing)}; run `make slides` (npm ci)")
    notebooks = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    start = time.perf_counter()
    decks, pages = build(notebooks)
    for target, seconds in decks:
        size = target.stat().st_size / 1e6
        print(f"deck: {target.relative_to(ROOT)} ({size:.1f} MB, {seconds:.0f} s)", flush=True)
    print(f"decks and linked pages built in {time.perf_counter() - start:.0f} s", flush=True)
    for path in pages:
        print(f"linked page: {path.relative_to(ROOT)}", flush=True)


__all__ = ["DECK_ENV", "ShownModels", "build", "deck", "deck_link", "deck_notebook", "deck_version", "exporter",
           "has_explorer", "last_explorer", "lecture_version", "output_groups", "retarget", "shown_models",
           "split_tall_outputs", "write_companions", "write_deck"]

if __name__ == "__main__":
    main(sys.argv[1:])
