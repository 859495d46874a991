"""Build notebooks/NN_name.ipynb from its py:percent twin and execute it; keep the two in sync.

    .venv/bin/python tools/execute.py [notebooks/py/01_metrics.py ...]          # make execute [NB=...]
    .venv/bin/python tools/execute.py --sync [--take notebook|twin] [...]       # make sync [NB=...]
    .venv/bin/python tools/execute.py --check [...]                             # make check-notebook NB=01

The twin (notebooks/py/*.py) is the source; the executed .ipynb next to the
notebooks folder is what students open and what nbval checks. Execution runs in
the notebooks/ folder with the current interpreter's kernel, stores widget
state and no timing metadata, so re-running in the pinned environment
reproduces the committed outputs.

**An edit in either file is kept.** Each executed notebook records, in its
metadata (``twin``), the SHA-256 of the twin it was built from and of its own
cells (type, source, nbgrader and tags metadata: what the twin holds). So when
the two disagree, the tool knows which one was edited since:

- the twin (the usual way): ``make execute`` rebuilds the notebook from it;
- the notebook (edited in JupyterLab): ``make execute`` refuses, as it would
  lose the edit, and ``make sync`` copies the notebook's cells into its twin
  (jupytext, the twin's py:percent format kept); then ``make execute``;
- both: both refuse and list the cells that differ; ``make sync TAKE=notebook``
  or ``TAKE=twin`` says which one wins (the other's edit is lost).

A notebook executed before the record existed is compared with git's HEAD
versions of both files instead.

**Committed notebooks diff cleanly.** ipywidgets gives every widget model a
random id, stored in the notebook's widget state and in each output that shows
a widget (``application/vnd.jupyter.widget-view+json``); they are rewritten to
ids derived from the notebook's name and the model's order, the same in both
places, so a re-run gives the same ids. A widget closed while the notebook ran
(a progress bar with ``leave=False``, which tqdm closes when its loop ends) is
gone from JupyterLab's page by then, so it is dropped from the saved notebook
too: its output and its models. What a cell prints is one output per stream
(stdout, stderr), as nbval compares it: the kernel flushes printed text at
moments that vary from run to run, and each flush would otherwise start a new
output. Nothing else is rewritten (an output is never kept from the committed
notebook: that would hide a real change): the notebooks print no measured times
(tests/test_execute.py checks the committed ones), so executing a notebook
twice gives the same file, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors import CoalesceStreamsPreprocessor

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
REPO = NOTEBOOKS.parent
STAMP = "twin"   # the notebook metadata recording what it was built from
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_IDS = uuid.UUID("5b0c8a5e-7d3f-4c59-9a52-3d1f6a2e8b10")   # namespace of the stable widget ids
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def build(twin: Path) -> nbformat.NotebookNode:
    """Read a py:percent twin into a notebook with the course's metadata."""
    notebook = jupytext.read(twin)
    notebook.metadata.pop("jupytext", None)
    notebook.metadata["kernelspec"] = KERNELSPEC
    notebook.metadata["language_info"] = {"name": "python"}
    for index, cell in enumerate(notebook.cells):
        cell.id = f"{twin.stem[:2]}-{index:03d}"
        cell.metadata.pop("lines_to_next_cell", None)
    set_slide_types(notebook.cells)
    return notebook


# A bold lead ending in "." or ":" opens an aside ("**Erratum.**", "**Trapezoids.**", "**Erratum**:").
ASIDE = re.compile(r"^\*\*[^*\n]+?(?:[.:]\*\*|\*\*[.:])")


def slide_type(cell, index: int, first_code: bool) -> str | None:
    """The RISE / reveal.js slide type of one cell (``None``: continue the current slide).

    The title cell and every section (``## ``) open a slide, and so does each
    exercise (its answer and test cells follow on the same slide); the set-up
    cell (imports, helper definitions) goes to a sub-slide of its own so the
    title slide holds only the title and its introduction; errata, asides and
    ``### `` sub-sections are sub-slides under their section.
    """
    source = cell.source.lstrip()
    if index == 0:
        return "slide"
    if cell.cell_type == "code":
        return "subslide" if first_code else None
    if source.startswith("## ") or source.startswith("**Exercise"):
        return "slide"
    if source.startswith("### ") or (ASIDE.match(source) and not source.startswith("**Next")):
        return "subslide"
    return None


def set_slide_types(cells) -> None:
    """Write each cell's ``metadata.slideshow`` (see :func:`slide_type`)."""
    seen_code = False
    for index, cell in enumerate(cells):
        kind = slide_type(cell, index, first_code=cell.cell_type == "code" and not seen_code)
        seen_code = seen_code or cell.cell_type == "code"
        cell.metadata.pop("slideshow", None)
        if kind:
            cell.metadata["slideshow"] = {"slide_type": kind}


# --------------------------------------------------------------------------- twin and notebook in sync

def cell_signature(cells) -> list:
    """What a twin holds of each cell: its type, source, and nbgrader and tags metadata."""
    return [[cell["cell_type"], "".join(cell["source"]), cell.get("metadata", {}).get("nbgrader"),
             cell.get("metadata", {}).get("tags")] for cell in cells]


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cells_sha256(cells) -> str:
    return sha256(json.dumps(cell_signature(cells), sort_keys=True))


def differing_cells(twin_cells, notebook_cells) -> list[int]:
    """Indices (in the notebook) of the cells that differ from the twin's; a cell added or removed shifts the
    rest, so everything from the first difference on is listed when the counts differ."""
    ours, theirs = cell_signature(twin_cells), cell_signature(notebook_cells)
    if len(ours) != len(theirs):
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        return list(range(first, max(len(ours), len(theirs))))
    return [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]


def git_head(path: Path) -> str | None:
    """The file as committed at git's HEAD, or None (not in a git checkout, or not committed)."""
    try:
        result = subprocess.run(["git", "-C", str(path.parent), "show", f"HEAD:./{path.name}"],
                                capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def notebook_of(twin: Path) -> Path:
    """The executed notebook of a twin: notebooks/py/NN_name.py -> notebooks/NN_name.ipynb."""
    return twin.resolve().parent.parent / f"{twin.stem}.ipynb"


def recorded(twin: Path, path: Path, notebook: dict) -> dict | None:
    """The hashes the notebook was built from: its own record, else those of git's HEAD versions."""
    stamp = notebook.get("metadata", {}).get(STAMP)
    if stamp:
        return stamp
    twin_text, notebook_text = git_head(twin), git_head(path)
    if twin_text is None or notebook_text is None:
        return None
    return {"py_sha256": sha256(twin_text), "cells_sha256": cells_sha256(json.loads(notebook_text)["cells"])}




def status(twin: Path, path: Path | None = None) -> tuple[str, list[int]]:
    """``(state, differing cells)`` of a twin and its notebook (``path``, default :func:`notebook_of`); state
    is "in sync", "new" (no notebook yet), "twin edited", "notebook edited" or "both edited"."""
    path = path or notebook_of(twin)
    if not path.is_file():
        return "new", []
    notebook = json.loads(path.read_text(encoding="utf-8"))
    differ = differing_cells(build(twin).cells, notebook["cells"])
    if not differ:
        return "in sync", []
    stamp = recorded(twin, path, notebook)
    if stamp is None:   # nothing recorded: the more recently modified file was edited
        newer = path.stat().st_mtime > twin.stat().st_mtime
        return ("notebook edited" if newer else "twin edited"), differ
    twin_edited = sha256(twin.read_text(encoding="utf-8")) != stamp["py_sha256"]
    notebook_edited = cells_sha256(notebook["cells"]) != stamp["cells_sha256"]
    if notebook_edited and twin_edited:
        return "both edited", differ
    return ("notebook edited" if notebook_edited else "twin edited"), differ


def describe(twin: Path, state: str, differ: list[int]) -> str:
    name, cells = twin.stem, ", ".join(map(str, differ[:12])) + (" ..." if len(differ) > 12 else "")
    if state == "notebook edited":
        return (f"{name}: notebooks/{name}.ipynb was edited (cells {cells}) after it was built from its twin "
                f"{twin.name}; `make sync NB={name}` copies the edit into the twin, then `make execute NB={name}`")
    if state == "both edited":
        return (f"{name}: both notebooks/{name}.ipynb and its twin {twin.name} were edited (cells {cells} differ); "
                f"merge them by hand, or `make sync NB={name} TAKE=notebook` (or TAKE=twin) to keep one side")
    return f"{name}: {state}"


def twin_from_notebook(twin: Path, notebook: dict) -> str:
    """The twin's text with the notebook's cells (sources, nbgrader and tags), in the twin's py:percent format;
    a cell keeps its spacing (edited in place, or moved unchanged)."""
    text = jupytext.read(twin)
    spacing = {cell.source: cell.metadata.get("lines_to_next_cell") for cell in text.cells}
    same_count = len(text.cells) == len(notebook["cells"])   # cells edited in place keep their own spacing
    cells = []
    for index, cell in enumerate(notebook["cells"]):
        source = "".join(cell["source"])
        new = (nbformat.v4.new_markdown_cell(source) if cell["cell_type"] == "markdown"
               else nbformat.v4.new_raw_cell(source) if cell["cell_type"] == "raw"
               else nbformat.v4.new_code_cell(source))
        new.pop("id", None)
        for key in ("nbgrader", "tags"):
            if cell.get("metadata", {}).get(key) is not None:
                new.metadata[key] = cell["metadata"][key]
        lines = (text.cells[index].metadata.get("lines_to_next_cell") if same_count
                 else spacing.get(source))
        if lines is not None:
            new.metadata["lines_to_next_cell"] = lines
        cells.append(new)
    text.cells = cells
    return jupytext.writes(text, fmt="py:percent")


def sync(twin: Path, take: str | None = None) -> str:
    """Bring a twin and its notebook together; return what was done. Only a notebook edit is copied (into the
    twin); a twin edit is left for ``make execute``."""
    state, differ = status(twin)
    if state == "both edited" and take is None:
        raise SystemExit(describe(twin, state, differ))
    if state == "notebook edited" or (state == "both edited" and take == "notebook") or (
            take == "notebook" and state == "twin edited"):
        notebook = json.loads(notebook_of(twin).read_text(encoding="utf-8"))
        twin.write_text(twin_from_notebook(twin, notebook), encoding="utf-8")
        return (f"{twin.stem}: cells {', '.join(map(str, differ))} of the notebook copied into {twin.name}; "
                f"review `git diff {twin.relative_to(REPO) if twin.is_relative_to(REPO) else twin}`, then "
                f"`make execute NB={twin.stem}`")
    if state == "both edited":  # take == "twin": the notebook's edit is given up, so the record says so
        path = notebook_of(twin)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        stamp = dict(recorded(twin, path, notebook), cells_sha256=cells_sha256(notebook["cells"]))
        notebook.setdefault("metadata", {})[STAMP] = stamp
        nbformat.write(nbformat.from_dict(notebook), path)
    if state in ("twin edited", "both edited", "new"):
        return f"{twin.stem}: the twin is newer; `make execute NB={twin.stem}` rebuilds the notebook from it"
    return f"{twin.stem}: in sync"


# --------------------------------------------------------------------------- clean diffs

def stable_widget_ids(notebook, name: str) -> dict[str, str]:
    """Rewrite ipywidgets' random model ids to ids derived from ``name`` and each model's order (first the
    models outputs show, in cell order, then the rest of the stored state in its order), in the widget state
    and the outputs alike; return the mapping."""
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    order = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            model = output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
            if model and model not in order:
                order.append(model)
    order += [model for model in state if model not in order]
    mapping = {old: uuid.uuid5(WIDGET_IDS, f"{name}/{index}").hex for index, old in enumerate(order)}
    if not mapping:
        return mapping
    pattern = re.compile("|".join(map(re.escape, mapping)))
    text = pattern.sub(lambda match: mapping[match.group(0)], json.dumps(notebook))
    rewritten = nbformat.from_dict(json.loads(text))
    notebook.cells, notebook.metadata = rewritten.cells, rewritten.metadata
    return mapping


def model_references(value) -> set[str]:
    """The widget models a model's state refers to (``"IPY_MODEL_<id>"``: children, layout, style, ...)."""
    return set(re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(value)))


def drop_closed_widgets(notebook, closed: set[str]) -> set[str]:
    """Remove what JupyterLab no longer shows once the widget models ``closed`` are closed: the outputs that
    display them and, from the stored state, those models and the ones only they refer to (a closed
    progress bar's bar, text, layouts and styles); return the models removed."""
    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [output for output in cell.outputs
                            if output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id") not in closed]
    gone, todo = set(), [model for model in closed if model in state]
    while todo:   # the closed models and everything they refer to ...
        model = todo.pop()
        if model in state and model not in gone:
            gone.add(model)
            todo += model_references(state[model])
    kept = [model for model in state if model not in gone]
    while kept:   # ... except what a model still shown refers to
        model = kept.pop()
        for child in model_references(state[model]) & (gone - closed):
            gone.discard(child)
            kept.append(child)
    for model in gone:
        del state[model]
    return gone


class Client(NotebookClient):
    """nbclient's client, noting which widget models were closed while the notebook ran."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.closed_widgets: set[str] = set()

    def handle_comm_msg(self, outs, msg, cell_index) -> None:
        if msg["msg_type"] == "comm_close":
            self.closed_widgets.add(msg["content"]["comm_id"])
        super().handle_comm_msg(outs, msg, cell_index)


# --------------------------------------------------------------------------- execute

def execute(twin: Path, out: Path | None = None) -> float:
    """Build, execute and save one notebook (to ``out``, default next to the notebooks folder); return the
    seconds it took. Refuses (SystemExit) when the notebook was edited after it was built from the twin."""
    target = out or notebook_of(twin)
    state, differ = status(twin, target)
    if state in ("notebook edited", "both edited"):
        raise SystemExit(describe(twin, state, differ))
    notebook = build(twin)
    start = time.perf_counter()
    client = Client(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
        record_timing=False,
        store_widget_state=True,
    )
    client.execute()
    seconds = time.perf_counter() - start
    drop_closed_widgets(notebook, client.closed_widgets)
    CoalesceStreamsPreprocessor().preprocess(notebook, {})   # one output per stream: the kernel's flushes vary
    stable_widget_ids(notebook, twin.stem)
    notebook.metadata[STAMP] = {"py_sha256": sha256(twin.read_text(encoding="utf-8")),
                                "cells_sha256": cells_sha256(notebook.cells)}
    nbformat.write(notebook, target)
    return seconds


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("twins", nargs="*", type=Path, help="notebooks/py/NN_name.py (default: all)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--sync", action="store_true", help="copy a notebook's edits into its twin")
    action.add_argument("--check", action="store_true", help="fail when a twin and its notebook differ")
    parser.add_argument("--take", choices=("notebook", "twin"), help="with --sync: which side wins when both "
                        "were edited")
    args = parser.parse_args(argv)
    twins = args.twins or sorted((NOTEBOOKS / "py").glob("*.py"))
    if args.sync:
        for twin in twins:
            print(sync(twin, args.take), flush=True)
        return 0
    states = {twin: status(twin) for twin in twins}
    if args.check:
        bad = [describe(twin, *state) if state[0] != "twin edited" else
               f"{twin.stem}: the twin {twin.name} was edited (cells {', '.join(map(str, state[1]))}): "
               f"`make execute NB={twin.stem}` rebuilds the notebook" for twin, state in states.items()
               if state[0] != "in sync"]
        for line in bad or [f"{twin.stem}: the notebook and its twin agree" for twin in twins]:
            print(line, flush=True)
        return 1 if bad else 0
    refused = [describe(twin, *state) for twin, state in states.items() if state[0] in ("notebook edited",
                                                                                           "both edited")]
    if refused:   # nothing is executed: each of these would lose an edit
        print("make execute refuses to overwrite an edited notebook:\n" + "\n".join(refused), file=sys.stderr)
        return 1
    for twin in twins:
        print(f"{twin.stem}: executed in {execute(twin):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
