"""Offline reveal.js decks of the lecture versions, for a 1280 x 720 projector.

    python tools/slides.py [notebooks/01_metrics.ipynb ...]   # -> build/slides/NN_name.slides.html

Each deck is exported from the lecture version (tools/lecture.py: solutions
and hidden tests removed, outputs kept) with nbconvert's reveal template, but
every script and style sheet it loads (reveal.js, require.js, jQuery, MathJax
2 and the widget renderer @jupyter-widgets/html-manager) comes from
build/slides/vendor/node_modules, which `make slides` installs from the npm
registry with the committed lock file (tools/slides/package-lock.json). A
deck therefore opens from the file system with no network. tools/slides/course.css
makes it fit 1280 x 720: code wraps, long outputs and tables scroll inside
their slide, images are scaled to the slide.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from nbconvert import SlidesExporter
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lecture import HEIGHT, NOTEBOOKS, WIDTH, lecture_version, write_lecture  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tools" / "slides"
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
        notebook, resources={"course_css": (HERE / "course.css").read_text(), "metadata": {"name": "deck"}})
    remote = REMOTE.findall(body)
    if remote:
        raise RuntimeError(f"the deck would load {len(remote)} file(s) from the network")
    return body


def write_deck(path: Path, out: Path = OUT) -> Path:
    """Write the lecture version of ``path`` and its deck; return the deck's path."""
    lecture = write_lecture(path)
    notebook = nbformat.read(lecture, as_version=4)
    target = out / f"{path.stem}.slides.html"
    target.write_text(deck(notebook), encoding="utf-8")
    return target


def main(paths: list[str]) -> None:
    missing = missing_assets()
    if missing:
        sys.exit(f"missing in {OUT.relative_to(ROOT)}: {', '.join(missing)}; run `make slides` (npm ci)")
    notebooks = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        print(f"deck: {write_deck(path).relative_to(ROOT)}", flush=True)


__all__ = ["deck", "exporter", "lecture_version", "write_deck"]

if __name__ == "__main__":
    main(sys.argv[1:])
