"""The command line of tools/grading/ (release, grade)."""

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
from grading.batch import *  # noqa: F401, F403
from grading import DESCRIPTION  # noqa: E402  (the first paragraph of the package docstring)


# --------------------------------------------------------------------------- CLI

def command_parser(description: str, folders: dict[str, tuple[Path, str]]) -> tuple:
    """A tool's parser with sub-commands (tools/grading/, tools/study.py): (parser, commands, common).

    The description is the first paragraph of `description` (the tool's docstring); `common`, the parent
    parser to give each sub-command, holds one folder option per entry ``{"--option": (default, help)}``,
    in that order, its help followed by the default.
    """
    common = argparse.ArgumentParser(add_help=False)
    for option, (default, text) in folders.items():
        common.add_argument(option, type=Path, default=default, help=f"{text} (default: %(default)s)")
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    return parser, commands, common


def main(argv: list[str] | None = None) -> None:
    parser, commands, common = command_parser(DESCRIPTION, {
        "--root": (REPO / "build", "build folder holding course/, release/, grades.csv"),
        "--notebooks": (REPO / "notebooks", "folder of the instructor notebooks")})

    rel = commands.add_parser("release", parents=[common],
                              help="student versions (solutions and hidden tests stripped)")
    rel.add_argument("--assignment", nargs="+", metavar="NAME",
                     help="notebook stems (default: every notebook with nbgrader cells)")
    rel.add_argument("--graded", action=argparse.BooleanOptionalAction, default=None,
                     help="for graded homework: the hand-out's helpers/ leave out the source of the functions "
                          "that answer an exercise (tools/handout.py GIVEAWAYS; shipped compiled, the notebooks "
                          "still run); --no-graded: the course's helpers (default: the hand-out's kind as it is, "
                          "the course's helpers in a new build folder)")

    gra = commands.add_parser("grade", parents=[common], help="autograde submissions, write the grade table")
    gra.add_argument("--assignment", required=True, metavar="NAME", help="notebook stem, e.g. 01_metrics")
    gra.add_argument("--submissions", type=Path, metavar="DIR",
                     help="folder of STUDENT/NAME/NAME.ipynb or STUDENT.ipynb (default: ROOT/course/submitted)")
    gra.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                     help="limit per cell; a cell running longer is stopped (default: %(default)s)")
    gra.add_argument("--call-timeout", type=float, default=30, metavar="SECONDS",
                     help="limit per call of a student's function by a test (default: %(default)s)")
    gra.add_argument("--student-timeout", type=float, default=300, metavar="SECONDS",
                     help="wall-clock limit per submission; then everything it started is killed "
                          "(default: %(default)s)")
    gra.add_argument("--memory", type=int, default=3072, metavar="MB",
                     help="memory cap of each submission's processes together (a cgroup, swap included, when "
                          "grading as root) and address-space limit per process (default: %(default)s)")
    gra.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                     help="submissions graded at the same time (default: %(default)s)")
    gra.add_argument("--uid-base", type=int, default=sandbox.SANDBOX_UID_BASE, metavar="UID",
                     help="as root, sandboxes run as UID + 2 x slot (+1 for the tests); default %(default)s")
    gra.add_argument("--no-sandbox", action="store_true",
                     help="grade without bubblewrap: student code then runs with your rights (unsafe)")
    gra.add_argument("--output", type=Path, metavar="CSV", help="grade table (default: ROOT/grades.csv)")
    gra.add_argument("--roster", type=Path, metavar="CSV",
                     help="the class roster (columns: " + ", ".join(ROSTER_COLUMNS) + "): also write Canvas's "
                          "and Moodle's grade import files to ROOT/lms/")
    gra.add_argument("--lms-column", metavar="TITLE",
                     help="the assignment's column as the LMS gradebook names it, e.g. 'HW1: Metrics (4242)' "
                          "(Canvas matches 'Title (id)' of its own export; default: the notebook's name)")
    gra.add_argument("--lms-points", type=float, metavar="POINTS",
                     help="the LMS item's maximum (e.g. 100): exported totals are scaled to it "
                          "(default: the notebook's points)")
    gra.add_argument("--lms-export-all", action="store_true",
                     help="also export the rows that need you (unreadable, missing, timeout, crashed, flagged), "
                          "held back from the LMS files otherwise")
    gra.add_argument("--student", metavar="NAME",
                     help="re-grade only this student; the others' rows of the table stay as they are")
    gra.add_argument("--deadline", metavar="WHEN",
                     help="mark submissions after it late (nbgrader's timestamp.txt, else the file's time); "
                          "e.g. 2026-11-20T23:59:00+01:00 (UTC when no zone is given)")
    gra.add_argument("--late-penalty", metavar="RULE",
                     help="with --deadline: 'zero' (late scores 0) or points taken off per started hour late")

    gra.add_argument("--no-similarity", action="store_true",
                     help="do not write the similarity report (ROOT/similarity-NAME.html and .csv: pairs of students "
                          "whose answer code is most alike, for the teacher; it never changes a score)")

    args = parser.parse_args(argv)
    course = Course(args.root, args.notebooks)
    if args.command == "release":
        names = args.assignment or find_assignments(course.notebooks)
        if not names:
            raise SystemExit(f"no notebook with nbgrader cells in {course.notebooks}")
        release(course, names, graded=args.graded)
    else:
        if min(args.timeout, args.call_timeout, args.student_timeout) <= 0 or args.jobs < 1 or args.memory < 256:
            parser.error("--timeout, --call-timeout and --student-timeout must be positive, --jobs at least 1, "
                         "--memory at least 256")
        settings = Settings(cell_timeout=args.timeout, call_timeout=args.call_timeout,
                            student_timeout=args.student_timeout, sandboxed=not args.no_sandbox,
                            limits=sandbox.Limits(memory=args.memory * 1024**2), uid_base=args.uid_base)
        deadline = None
        if args.deadline:
            import datetime

            from dateutil.parser import parse as parse_date
            try:
                deadline = parse_date(args.deadline)
            except (ValueError, OverflowError):
                parser.error(f"--deadline: not a date and time: {args.deadline!r}")
            if deadline.tzinfo is None:
                deadline = deadline.replace(tzinfo=datetime.timezone.utc)
        if args.lms_points is not None and not (args.lms_points > 0 and math.isfinite(args.lms_points)):
            parser.error(f"--lms-points must be a positive number, not {args.lms_points:g}")
        if (args.lms_column or args.lms_points is not None or args.lms_export_all) and not args.roster:
            parser.error("--lms-column, --lms-points and --lms-export-all need --roster")
        options = Options(roster=args.roster, student=args.student, deadline=deadline, late_penalty=args.late_penalty,
                          lms=LmsOptions(args.lms_column or None, args.lms_points, args.lms_export_all),
                          similarity=not args.no_similarity)
        grade(course, args.assignment, args.submissions, settings, args.output or course.root / "grades.csv",
              jobs=args.jobs, options=options)
