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

from grading import sandbox  # noqa: F401  (tools/grading/sandbox.py)

from grading.course import *  # noqa: F401, F403
from grading.plans import *  # noqa: F401, F403
from grading.submissions import *  # noqa: F401, F403
from grading.student import *  # noqa: F401, F403


# a cell starting with one of these is a formula in Excel, LibreOffice or Google Sheets (OWASP, CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """The cell as a spreadsheet shows it as text: one starting with =, +, -, @, a tab or a carriage
    return gets a leading single quote (OWASP's advice against CSV injection); the CSV writer quotes it."""
    return "'" + cell if cell.startswith(FORMULA_START) else cell


def unsafe_back(cell: str) -> str:
    """A cell of a table this tool wrote, as it was before spreadsheet_safe (re-grading reads the table)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_START) else cell


def csv_text(rows: list[list[str]], neutralise: bool = True) -> str:
    """CSV text of ``rows`` safe to open in a spreadsheet: each cell through spreadsheet_safe; a
    neutralised cell is always quoted, the others only as CSV needs. ``neutralise=False``: the cells as
    they are (the LMS files, whose free text lms_exports neutralised and whose identities must not change)."""
    import io
    lines = []
    for row in rows:
        cells = []
        for cell in map(str, row):
            safe = spreadsheet_safe(cell) if neutralise else cell
            if safe != cell:
                cells.append('"' + safe.replace('"', '""') + '"')
            else:
                quoted = io.StringIO()
                csv.writer(quoted, lineterminator="").writerow([cell])
                cells.append(quoted.getvalue())
        lines.append(",".join(cells) + "\r\n")
    return "".join(lines)


def write_csv_atomically(rows: list[list[str]], output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", newline="", dir=output.parent, prefix=f".{output.name}.",
                                         suffix=".tmp", delete=False)
    with handle:
        handle.write(csv_text(rows))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(handle.name, output)


def number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def table(results: list[Result], plan: Plan, late: bool = False) -> list[list[str]]:
    """The grade table; with ``late`` (a deadline was given) also ``late`` and ``penalty`` columns,
    the total being the score after the penalty."""
    columns = plan.questions + plan.manual
    rows = [["student", *columns, "total", "max", "status", "flag", "note"] + (["late", "penalty"] if late else [])]
    for r in sorted(results, key=lambda r: r.student):
        rows.append([r.student, *(number(r.scores.get(q)) for q in columns), number(r.total), number(plan.maximum),
                     r.status, " | ".join(r.flags), r.note]
                    + ([r.late, number(r.penalty) if r.penalty else ""] if late else []))
    return rows


def read_table(path: Path, plan: Plan, late: bool) -> list[list[str]]:
    """The grade table written before (to re-grade one student); it must be this assignment's."""
    if not path.is_file():
        raise SystemExit(f"no grade table {path} to update: grade the whole class first")
    with path.open(newline="") as handle:
        rows = [[unsafe_back(cell) for cell in row] for row in csv.reader(handle)]
    expected = table([], plan, late)[0]
    if not rows or rows[0] != expected:
        raise SystemExit(f"{path} is not the table of {plan.name} with these options (columns "
                         f"{', '.join(rows[0]) if rows else 'none'}; expected {', '.join(expected)})")
    return rows


def results_of(rows: list[list[str]], plan: Plan) -> list[Result]:
    """Results holding only the scores (and late penalties) of a table's rows (the distribution of the whole
    class)."""
    header = rows[0]
    return [Result(row[0], row[header.index("status")],
                   {q: float(row[header.index(q)]) if row[header.index(q)] != "" else None
                    for q in plan.questions + plan.manual},
                   penalty=float(row[header.index("penalty")] or 0) if "penalty" in header else 0.0)
            for row in rows[1:]]


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def write_files_atomically(files: dict[Path, str | bytes | list[list[str]]]) -> None:
    """Every file written to a temporary file first, then all renamed: a failure leaves the old ones.

    A ``str`` is written as UTF-8 text, ``bytes`` as they are (the figure), a list of rows as CSV."""
    temporary: list[tuple[str, Path]] = []
    try:
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                handle = tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.",
                                                     suffix=".tmp", delete=False)
            else:
                handle = tempfile.NamedTemporaryFile("w", newline="", dir=path.parent, prefix=f".{path.name}.",
                                                     suffix=".tmp", delete=False, encoding="utf-8")
            temporary.append((handle.name, path))
            with handle:
                if isinstance(content, (str, bytes)):
                    handle.write(content)
                else:
                    handle.write(csv_text(content))   # safe to open in a spreadsheet
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
    paths = student_files(folder, [r.student for r in results])
    write_files_atomically({paths[r.student]: page for r, page in feedback_pages(plan, results)})


def html_page(title: str, body_box: str, content: str) -> str:
    """A grading page: ``content`` in one ``<main>``, the language set, dark text on white, bordered table
    cells (axe-core passes it: tests/test_accessibility.py); ``body_box`` sizes the body (CSS)."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;{body_box};color:#111;background:#fff;line-height:1.4}}
*{{box-sizing:border-box}} th,td{{overflow-wrap:break-word}}
td,th{{border:1px solid #767676;padding:.3em .6em;vertical-align:top;text-align:left}}
table{{border-collapse:collapse}} pre{{white-space:pre-wrap;margin:0}}
caption{{text-align:left;font-weight:bold;margin-bottom:.4em}}
img{{max-width:100%;height:auto}} .scroll{{overflow-x:auto}}</style></head>
<body><main>
{content}</main></body></html>
"""


def feedback_pages(plan: Plan, results: list[Result], names: dict[str, str] | None = None
                   ) -> list[tuple[Result, str]]:
    """Each student's feedback page (HTML): see write_feedback. ``names``: each submission's student as the
    roster names them (the page is addressed to them; the submission's name otherwise)."""
    names = names or {}
    pages = []
    for r in results:
        student = names.get(r.student) or r.student
        rows = []
        for question in plan.questions + plan.manual:
            score = r.scores.get(question)
            message = r.feedback.get(question, "" if r.status in ("graded", "timeout", "crashed")
                                     else "not graded")
            rows.append(f"<tr><th scope=\"row\">{html.escape(plan.label(question))}</th>"
                        f"<td>{number(score) or 'to be graded'} / {number(plan.points[question])}</td>"
                        f"<td><pre>{html.escape(message)}</pre></td></tr>")
        extra = ""
        if r.status in TO_DO:
            extra += f"<p><strong>What to do:</strong> {html.escape(TO_DO[r.status].format(name=plan.name))}</p>"
        if r.late:
            extra += (f"<p><strong>Handed in late:</strong> {html.escape(r.late)}"
                      + (f"; {number(r.penalty)} points taken off ({number(r.scored)} scored)" if r.penalty else "")
                      + ".</p>")
        if r.note:
            extra += f"<p><strong>Note:</strong> {html.escape(r.note)}</p>"
        if r.flags:
            extra += ("<p><strong>Flagged:</strong> the notebook interferes with grading; what it could have faked "
                      "scores 0.</p><ul>" + "".join(f"<li>{html.escape(f)}</li>" for f in r.flags) + "</ul>")
        page = html_page(f"{plan.name}: {student}", "max-width:60em;margin:2em auto;padding:0 1em", f"""\
<h1>{html.escape(plan.name)}: feedback for {html.escape(student)}</h1>
<p>Score: <strong>{number(r.total)} / {number(plan.maximum)}</strong> (status: {html.escape(r.status)})</p>{extra}
<h2>Score per exercise</h2>
<div class="scroll" role="region" aria-label="score per exercise" tabindex="0">
<table><thead><tr><th scope="col">exercise</th><th scope="col">score</th>
<th scope="col">message of the visible tests</th></tr></thead>
<tbody>{''.join(rows)}</tbody>
</table>
</div>
<p>Hidden tests with other inputs decide the score; their code is not shown.</p>
""")
        pages.append((r, page))
    return pages


# What a student whose hand-in could not be graded should do (their feedback page says it).
TO_DO = {
    "unreadable": "your file could not be opened as a notebook, so nothing in it was graded. Open it in "
                  "JupyterLab to check that it opens and shows your answers, save it (File, Save Notebook) and "
                  "hand in that {name}.ipynb again, or ask your teacher.",
    "missing": "no {name}.ipynb of yours was found. Hand it in, or tell your teacher if you did.",
}


def safe_name(text: str) -> str:
    """A file name for what carries a student's name: the name in Unicode's NFC form, letters and digits of
    any script kept (müller stays müller), every other character but ``_.@-`` replaced by ``_``; when any
    was replaced, or the name starts with a dot, a short hash of the whole name is added, so that ``=1+1``
    and ``_1_1`` or ``a b`` and ``a_b`` never share a file (student_files also refuses names that differ
    only in case)."""
    import hashlib
    import unicodedata
    name = unicodedata.normalize("NFC", text)
    stem = re.sub(r"[^\w.@-]", "_", name).lstrip(".")
    if stem != name or not stem:
        stem = f"{stem}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}".lstrip("-")
    return stem


def student_files(folder: Path, students: list[str], suffix: str = ".html") -> dict[str, Path]:
    """Each student's file in ``folder`` (safe_name + ``suffix``), one per student: two students whose file
    names would be the same on a case-insensitive file system stop the run, both named (never one file
    overwriting the other's)."""
    files: dict[str, Path] = {}
    owner: dict[str, str] = {}
    for student in students:
        path = folder / f"{safe_name(student)}{suffix}"
        other = owner.setdefault(path.name.casefold(), student)
        if other != student:
            raise SystemExit(f"students {other!r} and {student!r} would share the file {path.name} (their names "
                             "differ only in case or Unicode form): rename one of the hand-ins, nothing was written")
        files[student] = path
    return files


# --------------------------------------------------------------------------- the grade summary

# The bars' colour: helpers.style.NEGATIVE (the grading tools do not import the course's helpers), 4.8:1
# against the white background, above the 3:1 WCAG 2.1 asks of graphics (1.4.11).
BAR_COLOUR = "#4c72b0"


def distribution(plan: Plan, results: list[Result]) -> list[tuple[str, float, dict[float, int]]]:
    """What the distribution figure shows: per question, then ``total``, its label, its maximum and how many
    students got each score (scores not given yet, awaiting manual grading, are left out; the total is the
    table's: the scores given, less any late penalty)."""
    shown = []
    for question in plan.questions + plan.manual + ["total"]:
        if question == "total":
            values = [r.total for r in results]
            top = plan.maximum
        else:
            values = [r.scores.get(question) for r in results if r.scores.get(question) is not None]
            top = plan.points[question]
        counts: dict[float, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        shown.append((question, top, dict(sorted(counts.items()))))
    return shown


def distribution_summary(plan: Plan, results: list[Result]) -> str:
    """The distribution figure in words, from the same counts as its bars (the image's text alternative):
    per question, how many students got each score, highest score first."""
    parts = []
    for question, top, counts in distribution(plan, results):
        if not counts:
            parts.append(f"{question} (max {top:g}): no score given yet")
            continue
        said = []
        for score in sorted(counts, reverse=True):
            n = counts[score]
            said.append(f"{n} student{'s' if n != 1 else ''} scored {score:g}" if not said
                        else f"{n} scored {score:g}")
        parts.append(f"{question} (max {top:g}): " + ", ".join(said))
    return (f"Bar charts of the score distribution of {len(results)} submission{'s' if len(results) != 1 else ''} "
            f"of {plan.name}, one per question and one for the total: " + "; ".join(parts) + ".")


def distribution_png(plan: Plan, results: list[Result]) -> bytes:
    """One bar chart per question and one for the total: how many students got each score (a PNG)."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    shown = distribution(plan, results)
    figure = Figure(figsize=(3.2 * len(shown), 3.2), layout="constrained")
    axes = figure.subplots(1, len(shown), squeeze=False)[0]
    for ax, (question, top, counts) in zip(axes, shown):
        ax.bar(list(counts), list(counts.values()), width=0.8 if top <= 20 else top / 25, color=BAR_COLOUR)
        ax.set(title=f"{question} (max {top:g})", xlabel="score", ylabel="students", xlim=(-0.6, top + 0.6))
        if top <= 20:
            ax.set_xticks(range(int(top) + 1))
        ax.yaxis.get_major_locator().set_params(integer=True)
    figure.suptitle(f"{plan.name}: score distribution of {len(results)} submission(s)")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Description": distribution_summary(plan, results)})
    return buffer.getvalue()


def plot_distribution(plan: Plan, results: list[Result], path: Path) -> None:
    """The distribution figure (:func:`distribution_png`) written to ``path``."""
    write_files_atomically({path: distribution_png(plan, results)})


STATUS_MEANING = {
    "graded": "graded",
    "timeout": "a cell, a function or the whole notebook ran over its limit",
    "crashed": "the notebook's process died: the questions not yet tested score 0",
    "missing": "no notebook handed in: every question 0",
    "unreadable": "the file is not a usable notebook: every question 0",
}


def summary_page(plan: Plan, rows: list[list[str]], results: list[Result], png: bytes | None = None,
                 problems: list[str] | None = None) -> str:
    """The teacher's grade summary (HTML): every problem the run found (``problems``, as in problems-NAME.json),
    the grade table ``rows`` (as in grades.csv), the distribution figure of ``results`` with its text
    alternative, and how many submissions have each status, a flag, a note or a score still to give."""
    import base64

    header, body = rows[0], rows[1:]
    png = distribution_png(plan, results) if png is None else png
    alt = distribution_summary(plan, results)
    head = "".join(f"<th scope=\"col\">{html.escape(cell)}</th>" for cell in header)
    lines = "".join("<tr><th scope=\"row\">" + html.escape(row[0]) + "</th>"
                    + "".join(f"<td>{html.escape(cell)}</td>" for cell in row[1:]) + "</tr>\n" for row in body)
    column = {name: i for i, name in enumerate(header)}
    statuses: dict[str, int] = {}
    for row in body:
        statuses[row[column["status"]]] = statuses.get(row[column["status"]], 0) + 1
    items = [f"<li>{statuses[s]} {html.escape(s)}" + (f": {html.escape(STATUS_MEANING[s])}" if s != "graded" and
                                                       s in STATUS_MEANING else "") + "</li>"
             for s in sorted(statuses, key=lambda s: (s != "graded", s))]
    flagged = sum(1 for row in body if row[column["flag"]])
    noted = sum(1 for row in body if row[column["note"]])
    manual = [q for q in plan.questions + plan.manual if q in column]
    to_grade = sum(1 for row in body if any(row[column[q]] == "" for q in manual))
    items.append(f"<li>{flagged} flagged: the notebook tampers with the grading; the questions it could have "
                 "faked score 0</li>")
    items.append(f"<li>{noted} with a note</li>")
    items.append(f"<li>{to_grade} with a score still to give by hand (manual_scores.csv in the course folder)</li>")
    if "late" in column:
        late = sum(1 for row in body if row[column["late"]])
        items.append(f"<li>{late} handed in late</li>")
    name = html.escape(plan.name)
    n = len(body)
    problems = problems or []
    found = (f"<p>{len(problems)} problem{'s' if len(problems) != 1 else ''} to look at before the grades go out "
             f"(also in problems-{name}.json beside grades.csv):</p>\n<ul>\n"
             + "".join(f"<li>{html.escape(str(p))}</li>\n" for p in problems) + "</ul>") if problems else \
        "<p>No problem found.</p>"
    return html_page(f"{plan.name}: grade summary", "max-width:80em;margin:2em auto;padding:0 1em", f"""\
<h1>{name}: grade summary</h1>
<p>{n} submission{'s' if n != 1 else ''}. Each student's feedback page is in feedback/{name}/.</p>
<h2>Problems</h2>
{found}
<h2>Scores</h2>
<div class="scroll" role="region" aria-label="grade table" tabindex="0">
<table><caption>Scores of every student in {name}, as in grades.csv</caption>
<thead><tr>{head}</tr></thead>
<tbody>
{lines}</tbody>
</table>
</div>
<h2>Score distribution</h2>
<figure><img src="data:image/png;base64,{base64.b64encode(png).decode('ascii')}" alt="{html.escape(alt)}">
<figcaption>How many students got each score, per question and for the total.</figcaption></figure>
<h2>Statuses, flags and notes</h2>
<ul>
{chr(10).join(items)}
</ul>
""")
