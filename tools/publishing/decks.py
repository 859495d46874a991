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
makes it fit: code wraps, tables are shown whole and unwrapped, figures are
scaled to the slide as the live slideshow shows them, a slider's figure is shown
at its pixel size.
The slides are the lecture version's (tools/publishing/lecture.py fits them), plus a
sub-slide wherever a cell's outputs together are taller than a slide
(:func:`split_tall_outputs`). The speaker view (S, reveal.js's notes plugin)
gets the course's layout (tools/publishing/deck/speaker.css): the upcoming slide as
large as the current one, the notes at 24 px.

Sliders work in the decks with no kernel: a notebook is executed again
(nbclient, in memory; tools/publishing/frames.py, the frame renderer the website
shares, which keeps the run in build/frames/) with ``COURSE_DECK=1`` and
``COURSE_PROJECTOR=1`` in its kernel's environment, up to its last explorer or
figure. Its static figures are drawn there for the projector, as the lecture
JupyterLab draws them (:func:`projector_figures` puts them in the deck, each
``<img>`` with its smallest text as drawn, which tests/test_browser_decks.py
measures as projected), and each explorer displays ``helpers.widgets.deck_view``:
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
import re
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path, PurePosixPath

import nbformat
from nbconvert import SlidesExporter
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/: links
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/publishing/: lecture
import frames  # noqa: E402  (tools/publishing/frames.py: the frame renderer the site shares)
from frames import (MODEL_REFERENCE, WIDGET_STATE, WIDGET_VIEW, ShownModels, deck_notebook,  # noqa: E402, F401
                    has_explorer, last_explorer, shown_models)
import lecture  # noqa: E402
import links  # noqa: E402  (tools/links.py: what the notebooks link to)
from lecture import HEIGHT, NOTEBOOKS, WIDTH, lecture_version, write_lecture  # noqa: E402
from lecture import OUT as LECTURE_OUT  # noqa: E402

from helpers.figures import image_html  # noqa: E402  (a figure's <img> with its alt)
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


def published_link(url: str, notebook_suffix: str, keep: tuple[str, ...] = ()) -> str:
    """Where a notebook's relative link points in a published version of the course (the decks, the website):
    ``01_metrics.ipynb#x`` -> ``01_metrics{notebook_suffix}#x``, ``glossary.md`` -> ``glossary.html``; links
    under the folders of ``keep`` (the site's downloads: the files themselves) and other links unchanged."""
    if not links.is_relative(url) or url.startswith(keep):
        return url
    path, hash_, fragment = url.partition("#")
    path, mark, query = path.partition("?")  # a query names no file: lite/lab/index.html?path=01_metrics.ipynb
    suffix = PurePosixPath(path).suffix
    if suffix == ".ipynb":
        path = path[: -len(suffix)] + notebook_suffix
    elif suffix == ".md":
        path = path[: -len(suffix)] + ".html"
    return path + mark + query + hash_ + fragment


def deck_link(url: str) -> str:
    """Where a notebook's relative link points among the decks: ``01_metrics.ipynb#x`` ->
    ``01_metrics.slides.html#x``, ``glossary.md`` -> ``glossary.html``; other links unchanged."""
    return published_link(url, ".slides.html")


def retarget(page: str, link=deck_link) -> str:
    """An HTML page with its links (``<a href>``) pointing among the decks (or where ``link`` says)."""
    return HREF.sub(lambda m: m["before"] + m["quote"] + html.escape(link(html.unescape(m["url"])))
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


def text_pieces(output) -> list:
    """A text output taller than a slide, as shown whole (:func:`lecture.live_height`), cut at line ends into
    consecutive text outputs that each fit one (a table's rows stay whole; a deck runs no code); any other output
    as it is."""
    if output.get("output_type") != "stream" or lecture.live_height(output) <= lecture.BUDGET:
        return [output]
    pieces: list[list[str]] = [[]]
    for line in output["text"].splitlines(keepends=True):
        piece = nbformat.v4.new_output("stream", name=output["name"], text="".join(pieces[-1] + [line]))
        if pieces[-1] and lecture.live_height(piece) > lecture.BUDGET:
            pieces.append([])
        pieces[-1].append(line)
    return [nbformat.v4.new_output("stream", name=output["name"], text="".join(lines)) for lines in pieces]


def output_groups(outputs) -> list[list]:
    """A cell's outputs in consecutive groups that each fit a slide (:data:`lecture.BUDGET`, by
    :func:`lecture.live_height`: a text output whole), a figure's long description ("Figure details") kept with its figure; an
    output taller than a slide is a group of its own."""
    groups: list[list] = []
    used = 0
    for output in outputs:
        height = lecture.live_height(output)
        if groups and (lecture.is_details(output) or used + height <= lecture.BUDGET):
            groups[-1].append(output)
            used += height
        else:
            groups.append([output])
            used = height
    return groups


def split_tall_outputs(notebook) -> int:
    """Deck only: an outputs-only sub-slide of the lecture version (tools/publishing/lecture.py ``split_outputs``) whose
    outputs together are taller than a slide becomes several, each with the outputs that fit (:func:`output_groups`;
    a text taller than a slide cut between its lines, :func:`text_pieces`), so that a deck shows every output whole,
    never in a scroll box. The live slideshow runs the code, so it cuts it instead (lecture.split_live_outputs); a deck
    runs no code. Return how many sub-slides were added."""
    cells, added = [], 0
    for cell in notebook.cells:
        if cell.cell_type != "code" or lecture.OUTPUT_TAG not in cell.metadata.get("tags", []):
            cells.append(cell)
            continue
        for index, group in enumerate(output_groups([piece for output in cell.outputs
                                                     for piece in text_pieces(output)])):
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


def notes_on_every_slide(notebook) -> int:
    """Deck only: every slide and sub-slide of a section carries its section's speaker notes (review L5: the speaker
    view showed them on a section's first slide only, so a lecturer twelve minutes into a section saw none); a
    copy, at the end of the slide, says "(continued)". reveal.js shows the notes of the slide whose cells include
    the notes cell. Return how many copies were added."""
    cells, notes, slide_has_notes, added = [], None, True, 0

    def close_slide() -> None:
        nonlocal added
        if notes is not None and not slide_has_notes:
            copied = copy.deepcopy(notes)
            copied.id = f"{notes.id}-continued-{added}"
            copied.source = re.sub(r"^(\*\*Speaker notes: .*?\*\*)", r"\1 (continued)", notes.source, count=1)
            cells.append(copied)
            added += 1

    for cell in notebook.cells:
        kind = lecture.kind(cell)
        if kind in ("slide", "subslide"):
            close_slide()
            slide_has_notes = False
        elif kind == "notes" and lecture.NOTES_TAG in cell.metadata.get("tags", []):
            notes, slide_has_notes = cell, True
        cells.append(cell)
    close_slide()
    notebook.cells = cells
    return added


CONCEPT_CHECK_INTRO = re.compile(r"\*\*Concept check\*\*[^\n]*\Z")  # a cell that only says a concept check comes


def join_concept_checks(notebook) -> int:
    """Deck only: a slide that only announces a concept check ("**Concept check** (ungraded): pick an answer...")
    and the concept check's slide after it become one slide (review L8: each concept check took two stops, the first
    near-empty). Return how many were joined."""
    joined = 0
    for cell, after in zip(notebook.cells, notebook.cells[1:]):
        if (cell.cell_type == "markdown" and lecture.kind(cell) in ("slide", "subslide")
                and CONCEPT_CHECK_INTRO.match(cell.source.strip())
                and after.cell_type == "code" and lecture.kind(after) == "subslide"
                and "concept_check(" in after.source):
            after.metadata["slideshow"] = {"slide_type": "-"}
            joined += 1
    return joined


# A static figure's <img> in a deck carries its smallest text as drawn, in px, and its first title (the deck run's
# record, frames.PROJECTOR_FIGURES): tests/test_browser_decks.py multiplies it by the scale the slide shows it at.
FIGURE_TEXT_PX, FIGURE_TITLE = "data-course-text-px", "data-course-figure"


def projector_figures(notebook) -> int:
    """Deck only: every static figure of ``notebook`` (run by :func:`deck_notebook`) as the run drew it for the
    projector (frames.PROJECTOR_FIGURES: its text enlarged as the lecture JupyterLab's kernels do, its PNG about the
    same size), its ``<img>`` tagged with its smallest text as drawn and its title (:data:`FIGURE_TEXT_PX`,
    :data:`FIGURE_TITLE`). Return how many figures were swapped."""
    drawn = notebook.metadata.pop(frames.PROJECTOR_FIGURES, {})
    swapped = 0
    for index, cell in enumerate(notebook.cells):
        outputs = frames.figure_outputs(cell) if cell.cell_type == "code" else []
        figures = drawn.get(cell.get("id"), [])
        if len(figures) != len(outputs):
            raise ValueError(f"cell {index} ({cell.get('id')}) shows {len(outputs)} figure(s), the deck run drew "
                             f"{len(figures)} for the projector")
        for output, figure in zip(outputs, figures):
            png = "".join(figure["image/png"])
            alt = output.get("metadata", {}).get("image/png", {}).get("alt", "")
            shown = "".join(figure["text/html"] or image_html(png, alt))
            attributes = f'<img {FIGURE_TITLE}="{html.escape(figure["title"])}"'
            if figure["text_px"] is not None:
                attributes += f' {FIGURE_TEXT_PX}="{figure["text_px"]}"'
            output["data"]["image/png"], output["data"]["text/html"] = png, shown.replace("<img", attributes, 1)
            swapped += 1
    return swapped


def deck_version(path: Path, notebook) -> nbformat.NotebookNode:
    """The deck of the instructor notebook ``path`` (``notebook``: it, run by :func:`deck_notebook`): its lecture
    version (tools/publishing/lecture.py: slides fitted to 1280 x 720, speaker notes) with its figures drawn for the
    projector (:func:`projector_figures`), each concept check on one slide with its announcement
    (:func:`join_concept_checks`), the outputs too tall for one sub-slide spread over several
    (:func:`split_tall_outputs`), the speaker notes on every slide (:func:`notes_on_every_slide`)."""
    notebook = copy.copy(notebook)  # its cells and metadata changed, the widget state shared
    notebook.cells, notebook.metadata = copy.deepcopy(notebook.cells), copy.copy(notebook.metadata)
    projector_figures(notebook)
    version = lecture_version(notebook, lecture.speaker_notes(path), path.name)
    join_concept_checks(version)
    split_tall_outputs(version)
    notes_on_every_slide(version)
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
    # the notebooks run again (those with a slider or a figure) start first, the largest first: the two workers
    # finish together
    order = sorted(paths, key=lambda p: (frames.run_end(nbformat.read(p, as_version=4)) is None, -p.stat().st_size))
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


__all__ = ["EMPTY_HEADER", "published_link", "DECK_ENV", "MODEL_REFERENCE", "WIDGET_STATE", "WIDGET_VIEW", "ShownModels", "build", "deck", "deck_link", "deck_notebook", "deck_version", "exporter",
           "has_explorer", "join_concept_checks", "last_explorer", "lecture_version", "output_groups", "projector_figures", "retarget", "shown_models",
           "split_tall_outputs", "write_companions", "write_deck"]

if __name__ == "__main__":
    main(sys.argv[1:])
