"""Grading a class: every submission, the manual scores, nbgrader's gradebook, the files."""

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
from grading.checks import *  # noqa: F401, F403
from grading.student import *  # noqa: F401, F403
from grading.report import *  # noqa: F401, F403
from grading.late import *  # noqa: F401, F403
from grading.export import *  # noqa: F401, F403
from grading.similarity import similarity_files


# --------------------------------------------------------------------------- grade: the batch

# Assignments the sandboxed grader cannot score correctly yet, and why. Grading them
# is refused with this reason rather than scoring honest answers 0.
UNSUPPORTED: dict[str, str] = {}   # every course notebook is gradable today (06's Optuna trials are forwarded)


@dataclass
class Options:
    """What a teacher adds to a grading run (the CLI's --roster, --student, --deadline, --late-penalty)."""
    roster: Path | None = None          # writes Canvas's and Moodle's import files from it
    student: str | None = None          # re-grade this one student; the others' rows stay as they are
    deadline: "datetime.datetime | None" = None   # submissions after it are marked late
    late_penalty: str | None = None     # "zero", or points taken off per started hour late
    similarity: bool = True             # also write the similarity report (--no-similarity: not)
    lms: LmsOptions = field(default_factory=LmsOptions)   # the LMS column, its maximum, export held rows too


def grade(course: Course, name: str, submissions: Path | None, settings: Settings, output: Path,
          jobs: int = 2, options: Options | None = None) -> list[Result]:
    options = options or Options()
    roster = read_roster(options.roster) if options.roster else None   # a bad roster stops before grading
    if options.late_penalty is not None and options.deadline is None:
        raise SystemExit("--late-penalty needs --deadline")
    if options.late_penalty is not None:
        late_penalty(options.late_penalty, 1.0, 10.0)   # checked before grading
    if name in UNSUPPORTED:
        raise SystemExit(f"cannot grade {name} yet: {UNSUPPORTED[name]}.")
    if settings.sandboxed:
        problem = sandbox.available()
        if problem:
            raise SystemExit(f"cannot grade safely: {problem}.\nStudent code would run with your rights, "
                             "seeing solutions, the gradebook and other students. Install bubblewrap, or pass "
                             "--no-sandbox to accept that risk.")
    else:
        print("WARNING: --no-sandbox: student code runs as you, can read solutions, the gradebook and other "
              "students' files, write anywhere you can, use the network and leave processes behind. Only the "
              "resource limits and the separate tests process remain.", file=sys.stderr, flush=True)
    # each submission's own memory and pids cgroup, with --no-sandbox too (the process cap then binds
    # even a fork bomb of a teacher grading as root, whom RLIMIT_NPROC does not bind)
    reason = sandbox.cgroups_available()
    settings.cgroups = reason is None
    if settings.cgroups:
        sandbox.remove_stale_cgroups()
    if reason:
        print(f"memory: no cgroup per submission here ({reason}): each process is limited to "
              f"{(settings.limits or sandbox.Limits()).memory / 1024**2:.0f} MB of address space, but a "
              "submission's processes together can take more", flush=True)
    if needs_release(course, name):
        print(f"{name}: releasing first")
        release(course, [name])
    plan = make_plan(course, name)
    subs = find_submissions(name, submissions or course.course / "submitted")
    previous: list[list[str]] | None = None
    if options.student is not None:
        options.student = nfc(options.student)
        subs = [sub for sub in subs if sub.student == options.student]
        if not subs:
            raise SystemExit(f"no submission of {name} by {options.student!r} in "
                             f"{submissions or course.course / 'submitted'}")
        previous = read_table(output, plan, options.deadline is not None)
    for sub in subs:
        load_submission(sub)
    # one feedback page per student, never shared: checked before any grading
    student_files(course.root / "feedback" / name, [sub.student for sub in subs])

    print(f"{name}: grading {len(subs)} submission(s), {jobs} at a time, up to {settings.student_timeout:g} s "
          f"each ({settings.cell_timeout:g} s per cell)", flush=True)
    slots: queue.Queue[int] = queue.Queue()
    for slot in range(jobs):
        slots.put(slot)

    def run(sub: Submission) -> Result:
        slot = slots.get()
        try:
            try:
                result = grade_student(plan, sub, settings, slot)
            except Exception as exc:  # noqa: BLE001 (the batch goes on)
                zero = {q: 0.0 for q in plan.questions} | {q: None for q in plan.manual}
                result = Result(sub.student, "crashed", zero, note=f"grader error: {exc!r}"[:300])
            print(f"  {sub.student}: {result.status} ({result.seconds:.1f} s)", flush=True)
            return result
        finally:
            slots.put(slot)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(run, subs))

    apply_manual_scores(course, plan, results)
    if options.deadline is not None:
        for sub, result in zip(subs, results):
            mark_late(result, sub, options.deadline, options.late_penalty, plan)
    rows = table(results, plan, late=options.deadline is not None)
    if previous is not None:   # one student re-graded: the others' rows as they were
        rows = [rows[0]] + sorted([row for row in previous[1:] if row[0] != options.student] + rows[1:],
                                  key=lambda row: row[0])
    files: dict[Path, str | list[list[str]]] = {output: rows}
    problems: list[str] = []
    held: list[str] = []
    names: dict[str, str] = {}
    if roster is not None:
        exports, problems, held = lms_exports(name, rows, roster, plan.maximum, options.lms)
        # the LMS files as lms_exports made them: free text neutralised, identities exactly as the roster has them
        files |= {course.root / "lms" / filename: csv_text(content, neutralise=False)
                  for filename, content in exports.items()}
        names = {s: display_name(r) for s, r in match_submissions([r.student for r in results], roster).items()}
    feedback_dir = course.root / "feedback" / name
    # one page per student, never shared: checked against every student of the table (a re-grade too)
    paths = student_files(feedback_dir, sorted({row[0] for row in rows[1:]} | {r.student for r in results}))
    files |= {paths[r.student]: page for r, page in feedback_pages(plan, results, names)}
    # the score distribution of the whole class (with one student re-graded: of the table's rows), its PNG
    # and the teacher's summary page, which embeds it with a text alternative built from the same counts
    figure, summary = course.root / f"grades-{name}.png", course.root / f"grades-{name}.html"
    shown = results if previous is None else results_of(rows, plan)
    png = distribution_png(plan, shown)
    # similar hand-ins, for the teacher only: no score, no feedback page reads it (tools/grading/similarity.py)
    similar, said, pairs = similarity_files(course, plan, subs, submissions, options.student is None) \
        if options.similarity else ({}, "", [])
    files |= similar
    # every problem the run found, on the summary page and in problems-NAME.json beside the grades
    found = run_problems(rows, problems, held, pairs, options.lms.export_all)
    files |= {figure: png, summary: summary_page(plan, rows, shown, png, found),
              course.root / f"problems-{name}.json": problems_json(name, found)}
    write_files_atomically(files)   # the table, the LMS files, the feedback, the figure and the summary together
    print(format_table(rows))
    for problem in problems:
        print(f"roster: {problem}")
    if roster is not None:
        print("LMS import files: " + ", ".join(str(p) for p in files if p.parent == course.root / "lms"))
        if held:
            print(("exported anyway (--lms-export-all), review them: " if options.lms.export_all else
                   "held back from the LMS files until you review them (then --lms-export-all, or enter them by "
                   "hand): ") + ", ".join(held))
    try:
        record_in_gradebook(course, plan, results)
    except Exception as exc:  # noqa: BLE001 (the table and CSV are the record; the gradebook is a convenience)
        print(f"(gradebook not updated: {exc})")
    print(f"grades in {output}; feedback in {feedback_dir}/STUDENT.html; score distribution in {figure}; summary in {summary}")
    if said:
        print(said)
    notes = {
        "timeout": "a cell or a function ran over its limit, or the whole notebook over the limit per student",
        "crashed": "the notebook's process died (os._exit, the memory limit...): the questions not yet tested score 0",
        "missing": f"no {name}.ipynb for this student: every question 0",
        "unreadable": "the file is not a usable notebook (see the note): every question 0",
    }
    for status in sorted({r.status for r in results} & set(notes)):
        print(f"{status}: {notes[status]}")
    if any(r.flags for r in results):
        print("flag: the notebook tampers with the grading; the questions it could have faked score 0")
    if any(v is None for r in results for v in r.scores.values()):
        print("an empty score needs manual grading (manual_scores.csv in the course folder)")
    return results


def run_problems(rows: list[list[str]], problems: list[Problem], held: list[str], pairs: list,
                 export_all: bool = False) -> list[Problem]:
    """Every problem of a grading run, for the summary page and problems-NAME.json: each row that is not
    simply graded (its status and note; a flag), the roster's problems (not on the roster, no hand-in, no
    identity, an identity held back), the rows held back from the LMS files and the similar pairs above the
    threshold."""
    header = rows[0]
    column = {h: i for i, h in enumerate(header)}
    found: list[Problem] = []
    for row in rows[1:]:
        student, status, note = row[0], row[column["status"]], row[column["note"]]
        if status != "graded":
            found.append(Problem(f"{student}: {status}" + (f" ({note})" if note else ""), status, student))
        if row[column["flag"]]:
            found.append(Problem(f"{student}: flagged: {row[column['flag']]}", "flagged", student))
    found += problems
    verb = "exported anyway (--lms-export-all), review it" if export_all else \
        "held back from the LMS files until you review it (then --lms-export-all, or enter it by hand)"
    found += [Problem(f"{entry}: {verb}", "held", entry.partition(" (")[0]) for entry in held]
    found += [Problem(f"{p.a} and {p.b}: similar hand-ins above the threshold ({p.shared} characters shared): read "
                      "the similarity page", "similar", f"{p.a} / {p.b}") for p in pairs]
    return found


def problems_json(name: str, found: list[Problem]) -> str:
    """problems-NAME.json: every problem as {"kind", "student", "problem"}, in the summary page's order."""
    return json.dumps({"assignment": name, "problems": [{"kind": p.kind, "student": p.student, "problem": str(p)}
                                                         for p in found]}, ensure_ascii=False, indent=1) + "\n"


def apply_manual_scores(course: Course, plan: Plan, results: list[Result]) -> None:
    """Scores of manually graded answers come only from the teacher's course/manual_scores.csv."""
    path = course.course / "manual_scores.csv"
    if not plan.manual or not path.is_file():
        return
    with path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            for r in results:
                if r.student == row.get("student"):
                    for question in plan.manual:
                        if row.get(question, "") != "":
                            r.scores[question] = float(row[question])


def record_in_gradebook(course: Course, plan: Plan, results: list[Result]) -> None:
    """Write the trusted scores into nbgrader's gradebook (for its formgrader and exports)."""
    import warnings

    from nbgrader.api import MissingEntry
    from sqlalchemy.exc import SAWarning
    warnings.filterwarnings("ignore", category=SAWarning)  # nbgrader 0.9's own ORM noise on add_submission
    with course.gradebook() as gb:
        for r in results:
            gb.update_or_create_student(r.student)
            try:
                gb.remove_submission(plan.name, r.student)
            except MissingEntry:
                pass
    with course.gradebook() as gb:
        for r in results:
            gb.add_submission(plan.name, r.student)
            notebook = gb.find_submission_notebook(plan.name, plan.name, r.student)
            for grade_ in notebook.grades:
                if grade_.name in plan.questions:
                    grade_.auto_score = r.scores.get(grade_.name)
                    grade_.manual_score = None
            gb.db.commit()
