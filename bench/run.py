"""Benchmarks: seconds per notebook, then every bench/bench_*.py script.

    python bench/run.py                          # everything
    python bench/run.py notebooks                # only the notebook timings
    python bench/run.py notebooks --repeat 5     # each notebook five times: min, median, max
    python bench/run.py notebooks --repeat 5 03  # only the notebooks whose name contains "03"
    python bench/run.py helpers                  # only the helper benchmarks

Each notebook runs in a fresh kernel, in memory (the committed file is not
rewritten), and the time includes starting that kernel. On a shared or
virtual machine one run can be seconds off, so compare medians of several
runs taken while the machine is otherwise idle. Figures are printed, not
asserted: targets live in the issues and the closing notes, not in timed
unit tests.
"""

from __future__ import annotations

import argparse
import runpy
import statistics
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def time_notebooks(repeat: int = 1, only: str = "") -> None:
    print(f"notebook execution (fresh kernel, seconds{'' if repeat == 1 else f', {repeat} runs'}):")
    if repeat > 1:
        print(f"  {'notebook':<28s} {'min':>6s} {'median':>6s} {'max':>6s}")
    for path in sorted(p for p in (ROOT / "notebooks").glob("*.ipynb") if only in p.stem):
        times = []
        for _ in range(repeat):
            notebook = nbformat.read(path, as_version=4)
            client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                                    resources={"metadata": {"path": str(path.parent)}})
            start = time.perf_counter()
            client.execute()
            times.append(time.perf_counter() - start)
        if repeat == 1:
            print(f"  {path.stem:<28s} {times[0]:6.1f} s", flush=True)
        else:
            print(f"  {path.stem:<28s} {min(times):6.1f} {statistics.median(times):6.1f} {max(times):6.1f}",
                  flush=True)


def run_helper_benchmarks() -> None:
    for script in sorted((ROOT / "bench").glob("bench_*.py")):
        print(f"\n{script.stem}:", flush=True)
        runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Seconds per notebook and the helpers' benchmarks.")
    parser.add_argument("what", nargs="?", choices=["all", "notebooks", "helpers"], default="all")
    parser.add_argument("only", nargs="?", default="", help="only the notebooks whose name contains this")
    parser.add_argument("--repeat", type=int, default=1, help="runs per notebook (min, median, max)")
    args = parser.parse_intermixed_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.what in ("all", "notebooks"):
        time_notebooks(args.repeat, args.only)
    if args.what in ("all", "helpers"):
        run_helper_benchmarks()
