"""Benchmarks: seconds per notebook, then every bench/bench_*.py script.

    python bench/run.py              # everything
    python bench/run.py notebooks    # only the notebook timings
    python bench/run.py helpers      # only the helper benchmarks

Each notebook runs in a fresh kernel, in memory (the committed file is not
rewritten). Figures are printed, not asserted: targets live in the issues and
the closing notes, not in timed unit tests.
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def time_notebooks() -> None:
    print("notebook execution (fresh kernel, seconds):")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        start = time.perf_counter()
        client.execute()
        print(f"  {path.stem:<28s} {time.perf_counter() - start:6.1f} s", flush=True)


def run_helper_benchmarks() -> None:
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        print(f"\n{script.stem}:", flush=True)
        runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    if what in ("all", "notebooks"):
        time_notebooks()
    if what in ("all", "helpers"):
        run_helper_benchmarks()
