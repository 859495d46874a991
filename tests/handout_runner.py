"""Run student notebooks up to their exercises; run by tests/test_handout.py with the hand-out's own Python.

    python handout_runner.py FOLDER NAME [NAME ...]

For each FOLDER/NAME.ipynb: the cells before its exercises (the first nbgrader solution cell or the
"## Practice" heading, whichever comes first), then a probe cell that reports the kernel's Python and where
``helpers`` was imported from, executed with nbclient in a fresh kernel of this interpreter's environment,
in FOLDER. Prints one JSON line per notebook: cells run, seconds, the probe's report, errors and stderr.
It imports nothing of the course: only what the hand-out's requirements installed.
"""

import json
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

PROBE = "import json, sys, helpers; print(json.dumps({'python': sys.executable, 'helpers': helpers.__file__}))"


def exercises_start(cells) -> int:
    for index, cell in enumerate(cells):
        if cell.metadata.get("nbgrader", {}).get("solution"):
            return index
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Practice"):
            return index
    return len(cells)


def run(folder: Path, name: str) -> dict:
    notebook = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    cut = exercises_start(notebook.cells)
    notebook.cells = notebook.cells[:cut] + [nbformat.v4.new_code_cell(PROBE)]
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except CellExecutionError as exc:
        error = str(exc)[-2000:]
    seconds = time.perf_counter() - start
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    stderr = [o.get("text", "") for o in outputs if o.get("name") == "stderr"]
    probe = [o.get("text", "") for o in notebook.cells[-1].get("outputs", []) if o.get("name") == "stdout"]
    code_cells = sum(1 for c in notebook.cells[:cut] if c.cell_type == "code")
    return {"name": name, "cut": cut, "code_cells": code_cells, "seconds": round(seconds, 1), "error": error,
            "stderr": stderr, "probe": json.loads(probe[0]) if probe else None}


if __name__ == "__main__":
    folder = Path(sys.argv[1]).resolve()
    for name in sys.argv[2:]:
        print(json.dumps(run(folder, name)), flush=True)
