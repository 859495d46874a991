"""The course website: every notebook read and explored in a browser, with nothing installed.

    .venv/bin/python tools/publishing/website.py      # `make site` -> build/site/index.html

A static site that opens from the file system (``file://``) and from any
static host, and asks nothing of the network: its style, script, MathJax and
frames are files beside its pages.

- ``index.html``: what the course is, for whom, what it needs, the six
  notebooks with their times (notebooks/schedule.toml), how to run them, the
  licences and how to cite.
- ``NN_name.html``: each notebook as a student gets it (no solution, no
  hidden test: nbgrader's ClearSolutions and ClearHiddenTests, as the hand-out
  and the lecture versions) with its committed outputs; every figure as a file
  with its text alternative and its "Figure details"; formulas by the vendored
  MathJax; concept checks as in the decks (plain HTML, no script); a table of
  contents, the previous and next notebook, "Download this notebook".
- Every slider explorer of 01-05 becomes a native ``<input type="range">`` per
  slider over the same grid as the decks (tools/publishing/frames.py renders
  both from the explorer's own state function and figure): its frames are
  lossless WebP files fetched when reached, their neighbours prefetched, and
  their text alternatives and number panels are in the page (player.js).
- ``glossary.html`` (its "taught in" links land on the section, as in JupyterLab),
  ``accessibility.html``, and ``downloads/``: each student notebook, the
  student hand-out (a zip that runs on a student's machine), the offline
  decks (a zip) and the helpers wheel.
- ``lite/``: the notebooks runnable in the browser (JupyterLite, tools/publishing/lite.py);
  ``binder/``, ``handout/`` and ``colab/``: what Binder and Colab open from the published
  branch (tools/publishing/elsewhere.py). Each notebook's page ends with the three links.
"""

from __future__ import annotations

import base64
import copy
import functools
import html
import io
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions
from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tools/: links, schedule
sys.path.insert(0, str(HERE))  # tools/publishing/: frames, lecture, decks
import decks  # noqa: E402  (the decks' exporter: links, empty table headers, the decks themselves)
import elsewhere  # noqa: E402  (Binder and Colab)
import frames  # noqa: E402
import lite  # noqa: E402  (JupyterLite: the notebooks run in the browser)
import lecture  # noqa: E402
import links  # noqa: E402
import schedule  # noqa: E402

ROOT = HERE.parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "build" / "site"
ASSETS = HERE / "site"  # the site's style sheet, slider player and the pages written by hand
VENDOR = ROOT / "build" / "slides" / "vendor" / "node_modules"  # `make slides`'s npm ci (tools/publishing/vendor)
# What the pages load of MathJax 2 (its TeX input and CommonHTML output, with their fonts): a small part of the package.
MATHJAX_PARTS = ("MathJax.js", "config/TeX-AMS_CHTML-full.js", "config/Safe.js", "extensions", "jax/input/TeX",
                 "jax/element", "jax/output/CommonHTML", "fonts/HTML-CSS/TeX/woff", "localization/en")
MATHJAX = "vendor/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"
WEBP = {"format": "webp", "lossless": True, "method": 4, "quality": 50}
IMG = re.compile(r'<img\s+src="data:image/(?P<kind>png|jpeg);base64,(?P<data>[A-Za-z0-9+/=\s]+)"(?P<rest>[^>]*)>')
# what a page would load from elsewhere (a link the reader follows is no load): src=, <link href=>, url() in CSS
REMOTE = re.compile(r"""(?:\bsrc\s*=\s*["']|<link\b[^>]*?\bhref\s*=\s*["']|url\(\s*["']?)(?:https?:)?//""", re.I)


# --------------------------------------------------------------------------- links

def site_link(url: str) -> str:
    """Where a notebook's relative link points on the site: ``01_metrics.ipynb#x`` -> ``01_metrics.html#x``,
    ``glossary.md`` -> ``glossary.html``; downloads (the files themselves) and other links unchanged."""
    return decks.published_link(url, ".html", keep=("downloads/",))


TABLE_OR_HEADING = re.compile(r"<table\b.*?</table>|<h[1-6]\b[^>]*>(?P<heading>.*?)</h[1-6]>", re.S)


def scroll_tables(body: str) -> str:
    """Each table in a box of its own that scrolls sideways when the table is wider than the page (reflow at
    320 px), reachable with Tab so the keyboard scrolls it, and named after the section it is in (and its
    number there when a section has several: a landmark's name is unique on the page)."""
    section, counts, named = "the page", {}, set()

    def box(match: re.Match) -> str:
        nonlocal section
        if match["heading"] is not None:
            section = html.unescape(re.sub(r"<a class=\"anchor-link\".*?</a>|<[^>]+>", "", match["heading"])).strip()
            return match[0]
        counts[section] = counts.get(section, 0) + 1
        name = f"Table {counts[section]} of {section}" if counts[section] > 1 else f"Table of {section}"
        while name in named:
            name += " (continued)"
        named.add(name)
        return f'<div class="table-scroll" role="region" tabindex="0" aria-label="{html.escape(name)}">{match[0]}</div>'
    return TABLE_OR_HEADING.sub(box, body)


HEADING = re.compile(r'<h(?P<level>[1-6]) id="(?P<id>[^"]*)">(?P<text>.*?)(?P<anchor><a class="anchor-link" href="#)'
                     r'(?P=id)(?P<end>">.*?</a>)?</h(?P=level)>', re.S)


def jupyterlab_ids(body: str) -> str:
    """Headings with the ids JupyterLab gives them (:func:`links.heading_id` of the heading's text), which the
    notebooks' links use, instead of nbconvert's percent-encoded ones (``02-%C2%B7-ROC...``)."""
    def rename(match: re.Match) -> str:
        ident = html.escape(links.heading_id(html.unescape(re.sub(r"<[^>]+>", "", match["text"])).strip()))
        return (f'<h{match["level"]} id="{ident}">{match["text"]}{match["anchor"]}{ident}{match["end"] or ""}'
                f'</h{match["level"]}>')
    return HEADING.sub(rename, body)


def retarget(page: str) -> str:
    """An HTML page with its links pointing among the site's pages (the decks' exporter, :func:`site_link`)."""
    return decks.retarget(page, site_link)


def section_ids(notebook) -> dict[str, str]:
    """A notebook's numbered sections: ``"4"`` -> the id of its heading ``## 4. Recall ...`` (as nbconvert and
    JupyterLab name it)."""
    found = {}
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                match = re.match(r"##\s+(\d+)\.\s", line)
                if match:
                    shown = re.sub(r"<a class=\"anchor-link\".*?</a>", "", links.markdown_html(line))
                    text = re.sub(r"<[^>]+>", "", shown).strip()
                    found[match[1]] = links.heading_id(html.unescape(text))
    return found


# --------------------------------------------------------------------------- a notebook's page

def student_page(notebook) -> nbformat.NotebookNode:
    """The notebook as a student reads it: solutions and hidden tests cleared (nbgrader), the outputs of the
    cells that ran the solutions dropped, each visible test shown as code to run in one's own copy."""
    notebook = copy.deepcopy(notebook)
    resources: dict = {}
    notebook, resources = ClearSolutions(enforce_metadata=True).preprocess(notebook, resources)
    notebook, resources = ClearHiddenTests(enforce_metadata=True).preprocess(notebook, resources)
    for index, cell in enumerate(notebook.cells):
        grader = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and (grader.get("solution") or grader.get("grade")):
            cell.outputs = []
            cell.execution_count = None
        if lecture.is_visible_test(cell):
            shown = nbformat.v4.new_markdown_cell(
                "*The visible tests of this exercise: run them in your own copy of the notebook (download it "
                "below, or `make study`); `make check` also runs the hidden ones.*\n\n" + lecture.fenced(cell.source))
            shown.id = cell.id
            notebook.cells[index] = shown
    return notebook


class Assets:
    """Where a page's files go: figures and frames under ``out/media/NN_name/``."""

    def __init__(self, out: Path, name: str):
        self.out, self.name = out, name
        self.folder = out / "media" / name
        self.count = 0

    def image(self, data: bytes, kind: str) -> tuple[str, int, int]:
        """Write a figure; return its relative address and pixel size."""
        self.count += 1
        picture = Image.open(io.BytesIO(data))
        relative = f"media/{self.name}/figure-{self.count:02d}.{'png' if kind == 'png' else 'jpg'}"
        (self.out / relative).parent.mkdir(parents=True, exist_ok=True)
        (self.out / relative).write_bytes(data)
        return relative, picture.width, picture.height


def figure_files(value: str, assets: Assets) -> str:
    """An output's HTML with each inline (base64) image written to a file, loaded lazily, with its size."""
    def write(match: re.Match) -> str:
        relative, width, height = assets.image(base64.b64decode(match["data"]), match["kind"])
        rest = match["rest"]
        sizes = "" if "width=" in rest else f' width="{width}" height="{height}"'
        return f'<img src="{relative}"{rest.rstrip("/").rstrip()}{sizes} loading="lazy" decoding="async">'
    return IMG.sub(write, value)


def write_frame(job: tuple[bytes, str]) -> int:
    png, target = job
    buffer = io.BytesIO()
    Image.open(io.BytesIO(png)).save(buffer, **WEBP)
    Path(target).write_bytes(buffer.getvalue())
    return len(buffer.getvalue())


def frame_name(key: tuple[int, ...]) -> str:
    return "-".join(f"{i:03d}" for i in key) + ".webp"


def player(explorer: frames.Explorer, number: int, name: str, out: Path) -> tuple[str, list[tuple[bytes, str]]]:
    """The HTML of one explorer on the site and the frames to write (PNG bytes, target path). The page shows the
    notebook's own frame; with JavaScript the sliders move over every frame (player.js)."""
    ident = f"explorer-{number}"
    folder = f"media/{name}/{ident}"
    (out / folder).mkdir(parents=True, exist_ok=True)
    keys = explorer.keys()
    jobs = [(explorer.frames[key].png, str(out / folder / frame_name(key))) for key in keys]
    start = explorer.frames[explorer.start]
    width, height = Image.open(io.BytesIO(start.png)).size
    manifest = {"folder": folder, "sliders": [s.values for s in explorer.sliders],
                "alts": [explorer.frames[k].alt for k in keys], "panels": [explorer.frames[k].panel for k in keys]}
    rows = []
    for s, slider in enumerate(explorer.sliders):
        value = slider.values[slider.start]
        rows.append(
            f'<div class="explorer-slider"><label for="{ident}-{s}">{html.escape(slider.label)}</label>'
            f'<input type="range" id="{ident}-{s}" min="0" max="{len(slider.values) - 1}" step="1" '
            f'value="{slider.start}" aria-valuetext="{html.escape(value)}" disabled>'
            f'<output for="{ident}-{s}" aria-hidden="true">{html.escape(value)}</output></div>')
    fixed = ""
    if explorer.fixed:
        sentence = explorer.fixed.replace("Change them live in JupyterLab.", "").replace(
            "Fixed in this deck", "Fixed on this page").strip()
        fixed = (f'<p class="explorer-fixed">{html.escape(sentence)} To change them, '
                 f'<a href="#run-this-notebook">run the notebook</a>.</p>')
    labels = " and ".join(s.label for s in explorer.sliders)
    data = json.dumps(manifest).replace("</", "<\\/")
    at = ", ".join(f"{s.label} {s.values[s.start]}" for s in explorer.sliders)
    markup = f"""<div class="explorer" id="{ident}" role="group" aria-label="Explorer: {html.escape(labels)}">
<p class="explorer-how">Move {'each slider' if len(explorer.sliders) > 1 else 'the slider'} with the arrow keys, Home, End, Page Up and Page Down (or drag it): the figure, its text alternative and the numbers follow. They were computed by the notebook's own code for every value, so no Python runs here.</p>
<div class="explorer-controls">{''.join(rows)}</div>
{fixed}
<p class="explorer-status" role="status"></p>
<div class="explorer-frame"><div class="explorer-figure" role="region" tabindex="0" aria-label="Figure of the explorer: {html.escape(labels)} (scrolls sideways on a narrow screen)"><img src="{folder}/{frame_name(explorer.start)}" alt="{html.escape(start.alt)}" width="{width}" height="{height}"></div>
<pre class="explorer-panel" aria-label="All the numbers" tabindex="0">{html.escape(start.panel)}</pre></div>
<noscript><p class="explorer-noscript">JavaScript is off: this is the notebook's own figure and numbers at {html.escape(at)}.</p></noscript>
<script type="application/json" class="explorer-manifest">{data}</script>
</div>"""
    return markup, jobs


def page_outputs(notebook, rendered, name: str, out: Path) -> list[tuple[bytes, str]]:
    """Replace each widget output of ``notebook`` (the student page of ``rendered``, cell for cell) by HTML
    that needs no kernel and no widget script: explorers by their player, concept checks by their HTML; write
    every figure to a file. Return the frames still to write."""
    explorers = frames.explorers(rendered)
    assets = Assets(out, name)
    jobs, number = [], 0
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        outputs = []
        for position, output in enumerate(cell.get("outputs", [])):
            data = output.get("data", {})
            if frames.WIDGET_VIEW in data:
                if (index, position) in explorers:
                    number += 1
                    markup, more = player(explorers[(index, position)], number, name, out)
                    jobs += more
                elif frames.progress_bar(rendered, output):
                    continue  # a cell's progress while it ran: nothing to read once it has
                else:
                    value = frames.html_widget(rendered, output)
                    if value is None:
                        raise ValueError(f"{name} cell {index}: a widget the site cannot show without a kernel")
                    markup = f'<div class="course-widget">{value}</div>'
                output = nbformat.v4.new_output("display_data", data={"text/html": markup})
            elif "text/html" in data:
                data["text/html"] = figure_files("".join(data["text/html"]), assets)
            elif "image/png" in data:
                relative, width, height = assets.image(base64.b64decode(data["image/png"]), "png")
                alt = output.get("metadata", {}).get("image/png", {}).get("alt") or "".join(data.get("text/plain", ""))
                output = nbformat.v4.new_output("display_data", data={"text/html": (
                    f'<img src="{relative}" alt="{html.escape(alt)}" width="{width}" height="{height}" '
                    f'loading="lazy" decoding="async">')})
            outputs.append(output)
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)
    return jobs


def exporter() -> HTMLExporter:
    exporter = HTMLExporter(template_name="basic")
    exporter.exclude_input_prompt = True
    exporter.exclude_output_prompt = True
    return exporter


def headings(body: str, level: int = 2) -> list[tuple[str, str]]:
    """The (id, text) of every ``<hN>`` heading of a page's body, in order."""
    found = []
    for match in re.finditer(rf'<h{level} id="(?P<id>[^"]+)">(?P<text>.*?)</h{level}>', body, re.S):
        text = re.sub(r'<a class="anchor-link".*?</a>', "", match["text"])
        found.append((html.unescape(match["id"]), html.unescape(re.sub(r"<[^>]+>", "", text)).strip()))
    return found


def title_of(notebook) -> str:
    first = notebook.cells[0].source.splitlines()[0] if notebook.cells else ""
    return re.sub(r"^#\s*", "", first).strip() or "Notebook"


LAYOUT = ASSETS / "layout.html"


@functools.lru_cache(maxsize=None)
def layout_template() -> str:
    """The pages' frame (tools/publishing/site/layout.html), read once per build."""
    return LAYOUT.read_text(encoding="utf-8")
CURRENT = ' aria-current="page"'


def layout(title: str, body: str, *, toc: list[tuple[str, str]] = (), nav: str = "", math: bool = False,
           script: bool = False, current: str = "") -> str:
    """A page of the site: the header with the course's pages, a table of contents, the body, the footer."""
    pages = [("index.html", "Home")] + [(f"{n}.html", short_title(n)) for n in notebook_names()] \
        + [("glossary.html", "Glossary"), ("accessibility.html", "Accessibility")]
    menu = "".join(f'<li><a href="{href}"{CURRENT if href == current else ""}>{html.escape(text)}</a></li>'
                   for href, text in pages)
    contents = ""
    if toc:
        contents = ('<nav class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>'
                    + "".join(f'<li><a href="#{html.escape(i)}">{html.escape(t)}</a></li>' for i, t in toc)
                    + "</ul></nav>")
    head = ""
    if math:
        head += ('<script type="text/x-mathjax-config">MathJax.Hub.Config({tex2jax: {inlineMath: [["$", "$"], '
                 '["\\\\(", "\\\\)"]], displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]], processEscapes: true}, '
                 'CommonHTML: {linebreaks: {automatic: true}}, menuSettings: {assistiveMML: true, inTabOrder: false}, '
                 'showMathMenu: false, messageStyle: "none"});</script>\n'
                 f'<script src="{MATHJAX}"></script>\n')
    if script:
        head += '<script src="assets/player.js" defer></script>\n'
    return layout_template().format(title=html.escape(title), head=head, menu=menu,
                                                    contents=contents, body=body, nav=nav)


@functools.lru_cache(maxsize=None)
def short_title(name: str) -> str:
    """A notebook's number and title as its first heading gives them (``01 · Metrics for evaluation``)."""
    return title_of(nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4))


def notebook_names(notebooks: Path = NOTEBOOKS) -> list[str]:
    return [p.stem for p in sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))]


def notebook_page(path: Path, out: Path) -> dict:
    """Write the page of the instructor notebook ``path`` and its frames; return what was written."""
    start = time.perf_counter()
    name = path.stem
    rendered = frames.rendered(path)
    page = student_page(rendered)
    jobs = page_outputs(page, rendered, name, out)
    body, _ = exporter().from_notebook_node(page)
    body = jupyterlab_ids(scroll_tables(decks.EMPTY_HEADER.sub(r"<td\g<attributes>></td>", body)))
    body = body.replace('<a class="anchor-link" href="#', '<a class="anchor-link" aria-label="Link to this section" href="#')
    names = notebook_names()
    index = names.index(name)
    previous = (f'<a rel="prev" href="{names[index - 1]}.html">Previous: {html.escape(short_title(names[index - 1]))}</a>'
                if index else '<a rel="prev" href="index.html">Previous: the course</a>')
    following = (f'<a rel="next" href="{names[index + 1]}.html">Next: {html.escape(short_title(names[index + 1]))}</a>'
                 if index + 1 < len(names) else '<a rel="next" href="glossary.html">Next: the glossary</a>')
    run = run_section(name, repository())
    nav = f'<nav class="pager" aria-label="Notebooks">{previous}{following}</nav>'
    toc = headings(body) + [("run-this-notebook", "Run this notebook")]
    sizes = [write_frame(job) for job in jobs]  # in this worker: the two notebooks' workers share the cores
    page_html = retarget(layout(title_of(rendered), body + run, toc=toc, nav=nav, math=True, script=bool(jobs),
                                current=f"{name}.html"))
    target = out / f"{name}.html"
    target.write_text(page_html, encoding="utf-8")
    return {"page": target.name, "bytes": len(page_html.encode()), "frames": len(sizes),
            "frame_bytes": sum(sizes), "seconds": round(time.perf_counter() - start, 1)}


def run_section(name: str, repository: str) -> str:
    """The end of a notebook's page: where to run it (the browser, Binder, Colab) and how to download it."""
    binder, colab = elsewhere.binder_url(repository, name), elsewhere.colab_url(repository, name)
    return (
        '<section class="run" aria-labelledby="run-this-notebook"><h2 id="run-this-notebook">Run this notebook</h2>'
        '<p>With nothing installed, the student version (your exercises and their visible tests):</p><ul>'
        f'<li><a href="{html.escape(lite.notebook_url(name))}">Run it in your browser</a> (JupyterLite: Python runs in this tab, with '
        'the course\'s packages; the first start downloads Python\'s numerical packages from Pyodide\'s '
        'servers, so it needs the network). Your edits are kept in this browser\'s storage, on this computer '
        'only: <em>File › Download</em> saves a copy to keep or hand in. To get the published version back, '
        'delete the notebook in JupyterLite\'s file browser (right-click › <em>Delete</em>) and open it again.</li>'
        f'<li><a href="{html.escape(binder)}">Run it on Binder</a> (a free public service: JupyterLab with the '
        'course\'s exact versions; its capacity has shrunk, so a start can take minutes or fail at busy times; a '
        'session ends after some idle minutes and keeps nothing: download your notebook before you leave).</li>'
        f'<li><a href="{html.escape(colab)}">Open it in Colab</a> (needs a Google account; run its first cell, which '
        'installs the course\'s versions and restarts Colab\'s runtime once, then <em>Runtime › Run all</em>. The '
        'sliders need Colab\'s custom widget manager, which that cell turns on: it loads the widgets\' code from '
        'outside Google).</li></ul>'
        f'<p>Or on your own machine: <a href="downloads/{name}.ipynb" download>download this notebook</a> and '
        '<a href="downloads/model-evaluation-handout.zip" download>the hand-out</a> it needs (the course\'s '
        '<code>helpers</code> package, the data and the pinned requirements; its README says how to install it '
        'with Python 3.11), or clone the course and run <code>make study</code>: see '
        '<a href="index.html#Run-it-yourself">Run it yourself</a>.</p></section>')


# --------------------------------------------------------------------------- the other pages

def markdown_page(text: str, title: str, current: str) -> str:
    body = jupyterlab_ids(links.markdown_html(text))
    return retarget(layout(title, f'<div class="markdown">{scroll_tables(body)}</div>', toc=headings(body),
                           current=current))


def index_text(times: dict[str, schedule.Time], out: Path = OUT) -> str:
    """The home page's Markdown: the hand-written text (tools/publishing/site/index.md) with the table of
    notebooks from notebooks/schedule.toml, the repository's address and the downloads' sizes (in ``out``)."""
    sizes = {name: f"{(out / 'downloads' / file).stat().st_size / 1e6:.1f} MB" for name, file in
             (("{handout_size}", "model-evaluation-handout.zip"), ("{decks_size}", "model-evaluation-decks.zip"))}
    rows = ["| notebook | teaching | exercises |", "|---|---:|---:|"]
    rows += [f"| [{short_title(name)}]({name}.ipynb) | {t.teaching} min | {t.exercises} min |"
             for name, t in times.items()]
    rows.append(f"| all six | {schedule.hours(sum(t.teaching for t in times.values()))} | "
                f"{schedule.hours(sum(t.exercises for t in times.values()))} |")
    text = (ASSETS / "index.md").read_text(encoding="utf-8").replace("{notebooks}", "\n".join(rows))
    for placeholder, size in sizes.items():
        text = text.replace(placeholder, size)
    return text.replace("{repository}", repository())


def citation(field: str, why: str, path: Path = ROOT / "CITATION.cff") -> str:
    """A top-level ``field`` of CITATION.cff; a ``ValueError`` saying ``why`` the site needs it when absent."""
    match = re.search(rf"^{re.escape(field)}:\s*\"?(?P<value>[^\"\s]+)", path.read_text(encoding="utf-8"), re.M)
    if not match:
        raise ValueError(f"CITATION.cff has no {field}: {why}")
    return match["value"]


def repository(path: Path = ROOT / "CITATION.cff") -> str:
    """The course's public address, as CITATION.cff gives it (``repository-code``)."""
    return citation("repository-code", "the site cites the course by its address", path)


def site_url(path: Path = ROOT / "CITATION.cff") -> str:
    """The site's public address, as CITATION.cff gives it (``url``)."""
    return citation("url", "Colab's first cell installs the helpers from the site", path)


def copy_mathjax(out: Path) -> None:
    source = VENDOR / "mathjax"
    if not (source / "MathJax.js").is_file():
        raise SystemExit(f"missing {source}: run `make site` (it installs the vendored scripts with npm ci)")
    target = out / "vendor" / "mathjax"
    for part in MATHJAX_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, target / part, dirs_exist_ok=True)
        else:
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / part, target / part)


def downloads(out: Path) -> list[Path]:
    """The student notebooks and the hand-out (build/release, `make student`), zipped hand-out included."""
    release = student_release()
    folder = out / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(release.glob("[0-9][0-9]_*.ipynb")):
        shutil.copyfile(path, folder / path.name)
        written.append(folder / path.name)
    archive = folder / "model-evaluation-handout.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as handout:
        for path in sorted(release.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                handout.write(path, "model-evaluation/" + path.relative_to(release).as_posix())
    written.append(archive)
    wheel = lite.helpers_wheel(folder)  # the data inside: Colab's first cell and Binder's postBuild install it
    written.append(wheel)
    written += elsewhere.write(out, release, repository(), wheel.name, site_url())
    return written



# What a deck loads (tools/publishing/decks.py ASSETS) besides MathJax, under vendor/node_modules/.
DECK_VENDOR = ("reveal.js/dist", "reveal.js/plugin", "requirejs/require.js", "jquery/dist/jquery.min.js",
               "@jupyter-widgets/html-manager/dist")


def student_release() -> Path:
    """The student versions and the hand-out, as `make student` writes them (build/release/): always the
    self-study kind, with the course's helpers as they are (never `make student GRADED=1`'s)."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "grading"), "release", "--no-graded"], check=True,
                   stdout=subprocess.DEVNULL, cwd=ROOT)
    return ROOT / "build" / "release"


def decks_zip(paths: list[Path], out: Path, built: bool = False) -> Path:
    """The offline decks of ``paths`` (`make slides`, their frames rendered once with the site's; ``built``: they
    are in build/slides already) in one zip with the files they load, to open from a folder with no network."""
    if built:
        files = [decks.OUT / f"{path.stem}.slides.html" for path in paths]
        pages = [decks.OUT / relative.with_suffix(".html") for relative in links.companions(NOTEBOOKS)]
    else:
        written, pages = decks.build(paths)
        files = [deck for deck, _ in written]
    archive = out / "downloads" / "model-evaluation-decks.zip"
    archive.parent.mkdir(parents=True, exist_ok=True)
    top = "model-evaluation-decks/"
    parts = [f"mathjax/{part}" for part in MATHJAX_PARTS] + list(DECK_VENDOR)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as bundle:
        for deck in files:
            bundle.write(deck, top + deck.name)
        for page in pages:
            bundle.write(page, top + page.relative_to(decks.OUT).as_posix())
        for part in parts:
            source = VENDOR / part
            files = sorted(f for f in source.rglob("*") if f.is_file()) if source.is_dir() else [source]
            for file in files:
                if file.suffix != ".map":
                    bundle.write(file, top + "vendor/node_modules/" + file.relative_to(VENDOR).as_posix())
    return archive


def _page(path: str, out: str) -> dict:
    return notebook_page(Path(path), Path(out))


def build(out: Path = OUT, paths: list[Path] | None = None, decks_built: bool = False) -> list[dict]:
    """Write the whole site into ``out`` (``decks_built``: the decks of `make slides` are built already, zip them
    as they are); return a line of figures per notebook page."""
    paths = paths or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if out.exists():
        shutil.rmtree(out)
    (out / "assets").mkdir(parents=True)
    for asset in ("site.css", "player.js"):
        shutil.copyfile(ASSETS / asset, out / "assets" / asset)
    copy_mathjax(out)
    # the notebooks that re-run (those with a slider) first, the largest first: the two workers finish together
    order = sorted(paths, key=lambda p: -p.stat().st_size)
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = {path: pool.submit(_page, str(path), str(out)) for path in order}
        figures = [futures[path].result() for path in paths]
    glossary = (NOTEBOOKS / "glossary.md").read_text(encoding="utf-8")
    (out / "glossary.html").write_text(markdown_page(glossary, "Glossary", "glossary.html"), encoding="utf-8")
    (out / "accessibility.html").write_text(markdown_page(
        (ASSETS / "accessibility.md").read_text(encoding="utf-8"), "Accessibility", "accessibility.html"),
        encoding="utf-8")
    downloads(out)
    lite.build(out / "lite", students=sorted((out / "handout").glob("[0-9][0-9]_*.ipynb")))
    decks_zip(paths, out, decks_built)
    (out / "index.html").write_text(markdown_page(index_text(schedule.load(), out), "Model Evaluation", "index.html"),
                                    encoding="utf-8")
    for page in out.glob("*.html"):
        remote = REMOTE.findall(page.read_text(encoding="utf-8"))
        if remote:
            raise RuntimeError(f"{page.name} would load {len(remote)} file(s) from the network")
    return figures


def main(argv: list[str]) -> None:
    start = time.perf_counter()
    figures = build(paths=[Path(p) for p in argv] or None)
    for line in figures:
        print(json.dumps(line), flush=True)
    print(f"site: {OUT.relative_to(ROOT)}/index.html in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
