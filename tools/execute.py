"""Build notebooks/NN_name.ipynb from its py:percent twin and execute it.

    python tools/execute.py notebooks/py/01_metrics.py [...]

The twin (notebooks/py/*.py) is the source a contributor edits; the executed
.ipynb next to the notebooks folder is what students open and what nbval
checks. Execution runs in the notebooks/ folder with the current interpreter's
kernel, stores widget state and no timing metadata, so re-running in the
pinned environment reproduces the committed outputs.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
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


def execute(twin: Path) -> float:
    """Build, execute and save one notebook; return the seconds it took."""
    notebook = build(twin)
    start = time.perf_counter()
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
        record_timing=False,
        store_widget_state=True,
    )
    client.execute()
    seconds = time.perf_counter() - start
    nbformat.write(notebook, NOTEBOOKS / f"{twin.stem}.ipynb")
    return seconds


def main(paths: list[str]) -> None:
    twins = [Path(p) for p in paths] or sorted((NOTEBOOKS / "py").glob("*.py"))
    for twin in twins:
        print(f"{twin.stem}: executed in {execute(twin):.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
