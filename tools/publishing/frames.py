"""The frame renderer of the decks and the website: every slider value of every explorer, pre-rendered, and every
static figure drawn for the projector.

    python tools/publishing/frames.py [notebooks/02_roc_by_hand.ipynb ...]   # prints each explorer's frames

A notebook with a slider explorer or a figure is executed again (nbclient, in
memory) with ``COURSE_DECK=1`` and ``COURSE_PROJECTOR=1`` in its kernel's
environment, up to its last explorer or figure, whichever comes later
(:func:`rendered`, which tools/publishing/decks.py exports as a deck). Each
explorer then displays ``helpers.widgets.deck_view``: its sliders over their
grids, and for every combination of grid values the figure, number panel and
text alternative that the explorer's own state function and figure code give.
Each static figure (``helpers.figures.show``) is drawn for the projector, as the
lecture JupyterLab's kernels draw it (``helpers.figures.fit_for_projector``:
its text enlarged to 18.5 px as projected, its PNG about the same size); the run keeps
those figures aside (:data:`PROJECTOR_FIGURES`, with each one's smallest text as
drawn, for the decks' test), while the notebook's outputs keep the notebook's own
figures (the website shows those). That run is kept in ``build/frames/`` under a
key of everything it depends on (the notebook, helpers/, data/, the lock file),
so `make slides` and `make site` render each notebook once between them.

:func:`explorers` reads the frames back out of the run's widget state, as
plain data (:class:`Explorer`): the offline decks show them through
ipywidgets' own renderer, the website (tools/publishing/website.py) as files
behind a native ``<input type="range">``.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import html
import itertools
import json
import os
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from typing import NamedTuple

import nbformat
from nbclient import NotebookClient

from helpers.figures import PROJECTOR  # a kernel with COURSE_PROJECTOR=1 draws static figures for the projector
from helpers.widgets import DECK_ENV  # a kernel with COURSE_DECK=1 shows explorers pre-rendered

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "frames"
EXPLORER_CLASS = "course-deck-explorer"  # helpers.widgets.deck_view's outer box
FRAMES_CLASS = "course-deck-frames"
FRAME_CLASS = "course-deck-frame"
FIXED_CLASS = "course-deck-fixed"
# what a deck run depends on besides the notebook itself
DEPENDENCIES = ("helpers/*.py", "data/*", "requirements.lock", "tools/publishing/frames.py")


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


def figure_outputs(cell) -> list:
    """The outputs of a code cell that show a static figure (a PNG), in order."""
    return [output for output in cell.get("outputs", []) if "image/png" in output.get("data", {})]


def last_figure(notebook) -> int | None:
    """The index of the last code cell of ``notebook`` whose committed outputs show a static figure, or ``None``."""
    cells = [index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code" and figure_outputs(cell)]
    return cells[-1] if cells else None


def run_end(notebook) -> int | None:
    """The index of the last cell a deck run executes (its last explorer or static figure, whichever comes later),
    or ``None`` when the notebook shows neither: it is not run again."""
    ends = [index for index in (last_explorer(notebook), last_figure(notebook)) if index is not None]
    return max(ends) if ends else None


# The metadata key of a deck run's notebook that holds its static figures as projected: {cell id: [{"image/png",
# "text/html", "text_px", "title"}, ...]}, one entry per figure output of the cell, in order.
PROJECTOR_FIGURES = "course_projector_figures"
# Run first in a kernel (a deck run's; the live walk's lecture JupyterLab, tests/test_browser_slideshow.py, as an IPython
# startup file): every figure IPython's print_figure saves (helpers.figures.show's PNG) is recorded in display order,
# as [the SHA-256 of its PNG, its smallest text in px as drawn (helpers.widgets.smallest_text_px; None without text),
# its first title (its axes', else its x label)], in builtins' FIGURES_RECORDED.
FIGURES_RECORDED = "_course_figures"
FIGURE_RECORDER = f"""
import base64 as _course_base64, builtins as _course_builtins, hashlib as _course_hashlib
import IPython.core.pylabtools as _course_pylabtools

_course_builtins.{FIGURES_RECORDED} = []
_course_print_figure = _course_pylabtools.print_figure

def _course_recording_print_figure(fig, *args, **kwargs):
    from helpers.widgets import smallest_text_px
    if fig.stale:  # drawn, as it is saved: its tick labels are texts only then
        fig.draw_without_rendering()
    titles = [ax.get_title() or ax.get_xlabel() for ax in fig.axes]
    try:
        px = round(smallest_text_px(fig), 2)
    except ValueError:  # a figure with no text
        px = None
    saved = _course_print_figure(fig, *args, **kwargs)
    raw = _course_base64.b64decode(saved) if isinstance(saved, str) else saved
    _course_builtins.{FIGURES_RECORDED}.append([_course_hashlib.sha256(raw).hexdigest() if raw else None, px,
                                                 next((title for title in titles if title), "")])
    return saved

_course_pylabtools.print_figure = _course_recording_print_figure
"""
FIGURE_RECORD = f"print(__import__('json').dumps(__import__('builtins').{FIGURES_RECORDED}))"


def png_sha256(data) -> str:
    """The SHA-256 of a PNG output's bytes (``data``: its base64 text, in one piece or in lines)."""
    return hashlib.sha256(base64.b64decode("".join(data))).hexdigest()


def run_quietly(client: NotebookClient, source: str) -> str:
    """Run ``source`` in ``client``'s kernel outside the notebook (no execution count taken); return what it
    printed."""
    cell = nbformat.v4.new_code_cell(source)
    client.nb.cells.append(cell)  # nbclient stores the executed cell at its index
    try:
        client.execute_cell(cell, len(client.nb.cells) - 1, store_history=False)
    finally:
        client.nb.cells.pop()
    return "".join(output.get("text", "") for output in cell.outputs if output.get("name") == "stdout")


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
    """The executed instructor notebook ``path``, run again with ``COURSE_DECK=1`` and ``COURSE_PROJECTOR=1`` up to
    its last explorer or static figure (:func:`run_end`), so that its explorers store their pre-rendered frames in
    the widget state and its static figures are drawn for the projector (nothing is written to disk).

    The outputs of the cells up to the last explorer are the run's, with the notebook's own figures; the cells after
    it keep their committed outputs (nbval checks that a run reproduces them), and the widgets they show (concept
    checks) their committed state (a widget whose committed state is incomplete is named in a warning: re-execute
    the notebook, `make execute`). Every figure as the run drew it for the projector is in the metadata
    (:data:`PROJECTOR_FIGURES`, by cell id), with its smallest text as drawn, in px, and its first title."""
    notebook = nbformat.read(path, as_version=4)
    end = run_end(notebook)
    if end is None:
        return notebook
    committed = copy.deepcopy(notebook)
    last = last_explorer(notebook)
    kept = {}
    if last is not None:
        state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
        later = [output for cell in notebook.cells[last + 1:] if cell.cell_type == "code" for output in cell.outputs]
        shown = shown_models(later, state)
        if shown.missing:
            warnings.warn(f"{path.name}: the committed widget state lacks {len(shown.missing)} model(s) that cells "
                          f"after the last explorer show ({', '.join(sorted(shown.missing)[:3])}...); those widgets "
                          f"will not render in the deck: re-execute the notebook (make execute)", stacklevel=2)
        kept = {model: state[model] for model in shown.found}
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}, record_timing=False,
                            store_widget_state=True)
    with client.setup_kernel(env={**os.environ, DECK_ENV: "1", PROJECTOR: "1"}):
        run_quietly(client, FIGURE_RECORDER)
        for index, cell in enumerate(notebook.cells[:end + 1]):
            client.execute_cell(cell, index)
            if index == last:  # the widget state as the last explorer left it (later cells' widgets: committed)
                client.set_widgets_metadata()
        record = {sha: [px, title] for sha, px, title in json.loads(run_quietly(client, FIGURE_RECORD))}
    if last is not None:
        notebook.metadata.widgets[WIDGET_STATE]["state"].update(kept)
    projected = {}
    for index, (cell, own) in enumerate(zip(notebook.cells[:end + 1], committed.cells)):
        if cell.cell_type != "code":
            continue
        ran, figures = figure_outputs(cell), figure_outputs(own)
        if len(ran) != len(figures):
            raise ValueError(f"{path.name} cell {index}: the run showed {len(ran)} figure(s), the notebook "
                             f"{len(figures)}: re-execute the notebook (make execute)")
        entries = []
        for output in ran:
            drawn = record.get(png_sha256(output["data"]["image/png"]))
            if drawn is None:
                raise ValueError(f"{path.name} cell {index}: a figure not saved by IPython's print_figure "
                                 f"(helpers.figures.show draws every figure of the course)")
            entries.append({"image/png": output["data"]["image/png"], "text/html": output["data"].get("text/html"),
                            "text_px": drawn[0], "title": drawn[1]})
        if entries:
            projected[cell.id] = entries
        if last is None or index > last:
            cell.outputs, cell.execution_count = own.outputs, own.execution_count
        else:  # the run's outputs, the notebook's own figures
            for output, figure in zip(ran, figures):
                output["data"] = figure["data"]
    notebook.metadata[PROJECTOR_FIGURES] = projected
    return notebook


@dataclass
class Slider:
    """One slider of an explorer: its label (the notebook's ``description``), its grid's labels as the notebook
    shows them (``0.515``), and the index the notebook starts at."""

    label: str
    values: list[str]
    start: int


@dataclass
class Frame:
    """What an explorer shows for one combination of slider values: the figure (PNG bytes), the number panel
    (its text, verbatim) and the figure's text alternative."""

    png: bytes
    panel: str
    alt: str


@dataclass
class Explorer:
    """An explorer as pre-rendered: its sliders, the controls that stay fixed (``fixed``: the sentence that says
    so, or ``""``), and its frames by slider indices (one index per slider, in the sliders' order)."""

    sliders: list[Slider]
    fixed: str
    frames: dict[tuple[int, ...], Frame] = field(repr=False)

    @property
    def start(self) -> tuple[int, ...]:
        return tuple(slider.start for slider in self.sliders)

    def keys(self) -> list[tuple[int, ...]]:
        """Every combination of slider indices, the last slider varying fastest."""
        return list(itertools.product(*(range(len(slider.values)) for slider in self.sliders)))


def cache_key(path: Path) -> str:
    """A digest of the notebook ``path`` and of everything its deck run depends on (:data:`DEPENDENCIES`)."""
    digest = hashlib.sha256(Path(path).read_bytes())
    for pattern in DEPENDENCIES:
        for dependency in sorted(ROOT.glob(pattern)):
            if dependency.is_file():
                digest.update(dependency.relative_to(ROOT).as_posix().encode())
                digest.update(dependency.read_bytes())
    return digest.hexdigest()[:16]


def rendered(path: Path, cache: Path = CACHE) -> nbformat.NotebookNode:
    """The instructor notebook ``path`` run in deck mode (:func:`deck_notebook`), from
    ``cache`` when the same notebook, helpers, data and lock were rendered before."""
    path = Path(path)
    target = cache / f"{path.stem}-{cache_key(path)}.ipynb"
    if target.is_file():
        return nbformat.read(target, as_version=4)
    notebook = deck_notebook(path)
    cache.mkdir(parents=True, exist_ok=True)
    for old in cache.glob(f"{path.stem}-*.ipynb"):
        old.unlink()
    partial = target.with_suffix(".partial")
    nbformat.write(notebook, partial)
    os.replace(partial, target)
    return notebook


def widget_state(notebook) -> dict:
    return notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _children(state: dict, model: dict) -> list[dict]:
    return [state[ref.removeprefix("IPY_MODEL_")] for ref in model["state"].get("children", [])]


def _classes(model: dict) -> list[str]:
    return model["state"].get("_dom_classes", [])


PRE = re.compile(r"<pre\b[^>]*>(?P<text>.*?)</pre>", re.S)


def panel_text(value: str) -> str:
    """The text of a number panel's HTML (``helpers.widgets.panel``: one ``<pre>``), unescaped."""
    match = PRE.search(value)
    if not match:
        raise ValueError(f"a frame's number panel is not a <pre>: {value[:80]!r}")
    return html.unescape(match["text"])


def _frame(state: dict, model: dict) -> Frame:
    image, text = _children(state, model)
    if image["model_name"] != "ImageModel" or text["model_name"] != "HTMLModel":
        raise ValueError(f"a frame holds {image['model_name']} and {text['model_name']}, not an image and a panel")
    buffers = {tuple(b["path"]): b["data"] for b in image.get("buffers", [])}
    if ("value",) not in buffers:
        raise ValueError("a frame's image has no pixels in the widget state")
    return Frame(png=base64.b64decode(buffers[("value",)]), panel=panel_text(text["state"]["value"]),
                 alt=image["state"].get("tooltip") or "")


def _explorer(state: dict, model: dict) -> Explorer:
    rows = _children(state, model)
    controls = _children(state, rows[0])
    sliders = [Slider(label=c["state"]["description"], values=list(c["state"]["_options_labels"]),
                      start=c["state"]["index"])
               for c in controls if c["model_name"] == "SelectionSliderModel"]
    fixed = next((row["state"]["value"] for row in rows[1:] if FIXED_CLASS in str(row["state"].get("value", ""))),
                 "")
    frames: dict[tuple[int, ...], Frame] = {}

    def walk(node: dict, key: tuple[int, ...]) -> None:
        if FRAME_CLASS in _classes(node):
            frames[key] = _frame(state, node)
            return
        for index, child in enumerate(_children(state, node)):
            walk(child, key + (index,))

    tabs = next(row for row in rows if FRAMES_CLASS in _classes(row))
    walk(tabs, ())
    explorer = Explorer(sliders=sliders, fixed=html.unescape(re.sub(r"<[^>]+>", "", fixed)).strip(), frames=frames)
    missing = [key for key in explorer.keys() if key not in frames]
    if missing or len(frames) != len(explorer.keys()):
        raise ValueError(f"an explorer over {[len(s.values) for s in sliders]} values has {len(frames)} frames")
    return explorer


def explorers(notebook) -> dict[tuple[int, int], Explorer]:
    """The pre-rendered explorers of a notebook run by :func:`rendered`, by (cell index, output index)."""
    state = widget_state(notebook)
    found = {}
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        for number, output in enumerate(cell.get("outputs", [])):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view and EXPLORER_CLASS in _classes(state.get(view["model_id"], {"state": {}})):
                found[(index, number)] = _explorer(state, state[view["model_id"]])
    return found


def html_widget(notebook, output) -> str | None:
    """The HTML a plain ``HTML`` widget output shows (a concept check, whose markup works with no script), or
    ``None`` for any other output."""
    view = output.get("data", {}).get(WIDGET_VIEW)
    model = widget_state(notebook).get(view["model_id"]) if view else None
    if model and model["model_name"] == "HTMLModel":
        return model["state"].get("value", "")
    return None


def progress_bar(notebook, output) -> bool:
    """Whether a widget output is a progress bar (tqdm's: a box holding a ``FloatProgress``), which shows a cell
    at work and nothing once it has run."""
    view = output.get("data", {}).get(WIDGET_VIEW)
    state = widget_state(notebook)
    model = state.get(view["model_id"]) if view else None
    if not model:
        return False
    return any(state.get(ref.removeprefix("IPY_MODEL_"), {}).get("model_name") == "FloatProgressModel"
               for ref in model["state"].get("children", []))


def main(paths: list[str]) -> None:
    notebooks = [Path(p) for p in paths] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        for (cell, output), explorer in explorers(rendered(path)).items():
            sizes = sum(len(frame.png) for frame in explorer.frames.values())
            print(json.dumps({"notebook": path.name, "cell": cell, "sliders": [s.label for s in explorer.sliders],
                              "frames": len(explorer.frames), "png_mb": round(sizes / 1e6, 2)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
