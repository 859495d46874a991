"""The grade table, the feedback pages, the score distribution, written atomically."""

from __future__ import annotations

import argparse
import ast
import builtins
import concurrent.futures
import csv
import html
import json
import math
import multiprocessing
import os
import queue
import re
import select
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import sandbox  # noqa: E402, F401  (tools/sandbox.py)

sys.path.pop(0)

from grading.course import *  # noqa: F401, F403
from grading.plans import *  # noqa: F401, F403
from grading.submissions import *  # noqa: F401, F403
from grading.student import *  # noqa: F401, F403


def write_csv_atomically(rows: list[list[str]], output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", newline="", dir=output.parent, prefix=f".{output.name}.",
                                         suffix=".tmp", delete=False)
    with handle:
        csv.writer(handle).writerows(rows)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(handle.name, output)


def number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def table(results: list[Result], plan: Plan, late: bool = False) -> list[list[str]]:
    """The grade table; with ``late`` (a deadline was given) also ``late`` and ``penalty`` columns,
    the total being the score after the penalty."""
    columns = plan.questions + plan.manual
    maximum = sum(plan.points[q] for q in columns)
    rows = [["student", *columns, "total", "max", "status", "flag", "note"] + (["late", "penalty"] if late else [])]
    for r in sorted(results, key=lambda r: r.student):
        total = max(0.0, sum(v for v in r.scores.values() if v is not None) - r.penalty)
        rows.append([r.student, *(number(r.scores.get(q)) for q in columns), number(total), number(maximum),
                     r.status, " | ".join(r.flags), r.note]
                    + ([r.late, number(r.penalty) if r.penalty else ""] if late else []))
    return rows


def read_table(path: Path, plan: Plan, late: bool) -> list[list[str]]:
    """The grade table written before (to re-grade one student); it must be this assignment's."""
    if not path.is_file():
        raise SystemExit(f"no grade table {path} to update: grade the whole class first")
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    expected = table([], plan, late)[0]
    if not rows or rows[0] != expected:
        raise SystemExit(f"{path} is not the table of {plan.name} with these options (columns "
                         f"{', '.join(rows[0]) if rows else 'none'}; expected {', '.join(expected)})")
    return rows


def results_of(rows: list[list[str]], plan: Plan) -> list[Result]:
    """Results holding only the scores of a table's rows (the distribution of the whole class)."""
    header = rows[0]
    return [Result(row[0], row[header.index("status")],
                   {q: float(row[header.index(q)]) if row[header.index(q)] != "" else None
                    for q in plan.questions + plan.manual}) for row in rows[1:]]


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def write_files_atomically(files: dict[Path, str | list[list[str]]]) -> None:
    """Every file written to a temporary file first, then all renamed: a failure leaves the old ones."""
    temporary: list[tuple[str, Path]] = []
    try:
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = tempfile.NamedTemporaryFile("w", newline="", dir=path.parent, prefix=f".{path.name}.",
                                                 suffix=".tmp", delete=False, encoding="utf-8")
            temporary.append((handle.name, path))
            with handle:
                if isinstance(content, str):
                    handle.write(content)
                else:
                    csv.writer(handle).writerows(content)
                handle.flush()
                os.fsync(handle.fileno())
        for name, path in temporary:
            os.replace(name, path)
    finally:
        for name, _ in temporary:
            if os.path.exists(name):
                os.unlink(name)


# --------------------------------------------------------------------------- feedback

def write_feedback(plan: Plan, results: list[Result], folder: Path) -> None:
    """One HTML page per student: each question's score and the visible tests' message."""
    write_files_atomically({folder / f"{safe_name(r.student)}.html": page for r, page in feedback_pages(plan, results)})


def feedback_pages(plan: Plan, results: list[Result]) -> list[tuple[Result, str]]:
    """Each student's feedback page (HTML): see write_feedback."""
    pages = []
    for r in results:
        scored = sum(v for v in r.scores.values() if v is not None)
        total = max(0.0, scored - r.penalty)
        maximum = sum(plan.points[q] for q in plan.questions + plan.manual)
        rows = []
        for question in plan.questions + plan.manual:
            score = r.scores.get(question)
            message = r.feedback.get(question, "" if r.status in ("graded", "timeout", "crashed")
                                     else "not graded")
            rows.append(f"<tr><th scope=\"row\">{html.escape(question)}</th><td>{number(score) or 'to be graded'}"
                        f" / {number(plan.points[question])}</td><td><pre>{html.escape(message)}</pre></td></tr>")
        extra = ""
        if r.late:
            extra += (f"<p><strong>Handed in late:</strong> {html.escape(r.late)}"
                      + (f"; {number(r.penalty)} points taken off ({number(scored)} scored)" if r.penalty else "")
                      + ".</p>")
        if r.note:
            extra += f"<p><strong>Note:</strong> {html.escape(r.note)}</p>"
        if r.flags:
            extra += ("<p><strong>Flagged:</strong> the notebook interferes with grading; what it could have faked "
                      "scores 0.</p><ul>" + "".join(f"<li>{html.escape(f)}</li>" for f in r.flags) + "</ul>")
        page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(plan.name)}: {html.escape(r.student)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;color:#111;background:#fff}}
td,th{{border:1px solid #767676;padding:.3em .6em;vertical-align:top;text-align:left}}
table{{border-collapse:collapse}} pre{{white-space:pre-wrap;margin:0}}</style></head>
<body><main>
<h1>{html.escape(plan.name)}: feedback for {html.escape(r.student)}</h1>
<p>Score: <strong>{number(total)} / {number(maximum)}</strong> (status: {html.escape(r.status)})</p>{extra}
<h2>Score per question</h2>
<table><thead><tr><th scope="col">question</th><th scope="col">score</th>
<th scope="col">message of the visible tests</th></tr></thead>
<tbody>{''.join(rows)}</tbody>
</table>
<p>Hidden tests with other inputs decide the score; their code is not shown.</p>
</main></body></html>
"""
        pages.append((r, page))
    return pages


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.@-]+", "_", text) or "_"


def plot_distribution(plan: Plan, results: list[Result], path: Path) -> None:
    """One bar chart per question: how many students got each score."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    questions = plan.questions + plan.manual + ["total"]
    figure = Figure(figsize=(3.2 * len(questions), 3.2), layout="constrained")
    axes = figure.subplots(1, len(questions), squeeze=False)[0]
    for ax, question in zip(axes, questions):
        if question == "total":
            values = [sum(v for v in r.scores.values() if v is not None) for r in results]
            top = sum(plan.points[q] for q in plan.questions + plan.manual)
        else:
            values = [r.scores.get(question) for r in results if r.scores.get(question) is not None]
            top = plan.points[question]
        counts: dict[float, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        ax.bar(sorted(counts), [counts[v] for v in sorted(counts)], width=0.8 if top <= 20 else top / 25,
               color="#4C72B0")
        ax.set(title=f"{question} (max {top:g})", xlabel="score", ylabel="students", xlim=(-0.6, top + 0.6))
        if top <= 20:
            ax.set_xticks(range(int(top) + 1))
        ax.yaxis.get_major_locator().set_params(integer=True)
    figure.suptitle(f"{plan.name}: score distribution of {len(results)} submission(s)")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
