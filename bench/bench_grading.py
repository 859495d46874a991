"""Grading speed: a batch of submissions of 01_metrics graded one at a time, then two at a time.

    python bench/bench_grading.py [--n 20] [--assignment 01_metrics]

Half the batch are honest submissions (the instructor's answers), half blank
student versions. Prints the wall-clock seconds of each run, the speed-up of
two submissions at a time over one, the seconds per honest submission when
graded alone, the wall-clock seconds of each phase of one grading (median over
the honest submissions graded alone) with the CPU seconds (user + system) of the
two sandboxed processes, and the machine's load average (the figures mean little
when other work keeps the cores busy: compare the CPU seconds, which load hardly
changes). Figures depend on the machine's load: they are printed, not asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/)

sys.path.pop(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--assignment", default="01_metrics")
    args, _ = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        build, submitted = Path(tmp) / "build", Path(tmp) / "submitted"
        course = grading.Course(build, ROOT / "notebooks")
        grading.release(course, [args.assignment])
        instructor = nbformat.read(ROOT / "notebooks" / f"{args.assignment}.ipynb", as_version=4)
        blank = nbformat.read(course.student_release(args.assignment), as_version=4)
        for i in range(args.n):
            folder = submitted / f"student{i:02d}" / args.assignment
            folder.mkdir(parents=True)
            nbformat.write(instructor if i % 2 == 0 else blank, folder / f"{args.assignment}.ipynb")
        settings = grading.Settings()
        seconds, per_student, phases, cpu = {}, {}, {}, {}
        load = os.getloadavg()[0]
        for jobs in (1, 2):
            start = time.perf_counter()
            results = grading.grade(course, args.assignment, submitted, settings, build / f"grades-{jobs}.csv",
                                    jobs=jobs)
            seconds[jobs] = time.perf_counter() - start
            per_student[jobs] = [r.seconds for i, r in enumerate(results) if i % 2 == 0]
            phases[jobs] = [r.phases for i, r in enumerate(results) if i % 2 == 0]
            cpu[jobs] = sum(r.phases.get("student cpu", 0) + r.phases.get("tests cpu", 0) for r in results)
            assert all(r.status == "graded" for r in results), [(r.student, r.status) for r in results]
        print(f"\n{args.n} submissions of {args.assignment}:")
        print(f"  one at a time   {seconds[1]:6.1f} s wall, {cpu[1]:6.1f} s CPU of the sandboxed processes")
        print(f"  two at a time   {seconds[2]:6.1f} s wall, {cpu[2]:6.1f} s CPU   speed-up {seconds[1] / seconds[2]:.2f}x")
        print(f"  load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
              f"(on {os.cpu_count()} cores: above that, other work competes and the speed-up shrinks)")
        alone = per_student[1]
        print(f"  honest submission graded alone: median {statistics.median(alone):.1f} s, "
              f"max {max(alone):.1f} s (two at a time: median {statistics.median(per_student[2]):.1f} s)")
        print("  phases of one honest grading (graded alone; median seconds):")
        labels = {"student start": "student process: Python and IPython start-up (wall)",
                  "student cells": "student process: the cells the answers need (wall)",
                  "student cpu": "student process: CPU until its cells are done",
                  "tests start": "tests process: Python and IPython start-up (wall)",
                  "tests setup": "tests process: the instructor's set-up cells (wall)",
                  "tests wait": "tests process: waiting for the student's cells (wall)",
                  "tests tests": "tests process: the test cells, calls included (wall)",
                  "tests cpu": "tests process: CPU in all",
                  "total": "whole grading, sandboxes started and removed (wall)"}
        for key, label in labels.items():
            values = [p[key] for p in phases[1] if p.get(key) is not None]
            if values:
                print(f"    {label:58s} {statistics.median(values):6.2f}")


if __name__ == "__main__":
    main()
