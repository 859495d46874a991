"""The LMS import files (Canvas, Moodle) from the grade table and the teacher's roster."""

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
from grading.report import *  # noqa: F401, F403


# --------------------------------------------------------------------------- LMS export

ROSTER_COLUMNS = ["submission", "name", "canvas_id", "sis_user_id", "sis_login_id", "section", "id_number", "email"]
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]   # then the assignment's column
MOODLE_COLUMNS = ["First name", "Last name", "ID number", "Email address"]      # then the assignment's column


def read_roster(path: Path) -> list[dict[str, str]]:
    """The teacher's roster: one row per student, ``submission`` (the name in the submissions folder)
    and their LMS identities (ROSTER_COLUMNS; at least Canvas's or Moodle's)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = [h.strip() for h in reader.fieldnames or []]
            rows = [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in reader]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise SystemExit(f"roster {path}: cannot read it ({exc})") from None
    unknown = [h for h in header if h not in ROSTER_COLUMNS]
    if "submission" not in header or unknown:
        raise SystemExit(f"roster {path}: columns must be among {', '.join(ROSTER_COLUMNS)} with 'submission' "
                         f"(found {', '.join(header) or 'none'})")
    if not ({"canvas_id", "sis_user_id", "sis_login_id"} & set(header) or {"id_number", "email"} & set(header)):
        raise SystemExit(f"roster {path}: no LMS identity: add canvas_id, sis_user_id or sis_login_id (Canvas), "
                         "id_number or email (Moodle)")
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        name = row.get("submission", "")
        if not name:
            raise SystemExit(f"roster {path}, line {number}: empty submission name")
        if name in seen:
            raise SystemExit(f"roster {path}, line {number}: submission {name!r} already on line {seen[name]}")
        seen[name] = number
    return [{column: row.get(column, "") for column in ROSTER_COLUMNS} | {"_columns": ",".join(header)}
            for row in rows]


def lms_exports(name: str, rows: list[list[str]], roster: list[dict[str, str]], points: float
                ) -> tuple[dict[str, list[list[str]]], list[str]]:
    """Canvas's and Moodle's import files from the grade table and the roster, and what did not match.

    Only students both graded and on the roster get a row: a submission missing from the roster and
    a roster student without a submission are reported, never guessed (no score is written for them).
    """
    header = rows[0]
    scores = {row[0]: row[header.index("total")] for row in rows[1:]}
    columns = set(roster[0]["_columns"].split(",")) if roster else set()
    on_roster = {r["submission"]: r for r in roster}
    problems = [f"submission {s!r} is not on the roster: no LMS row written" for s in sorted(set(scores) - set(on_roster))]
    problems += [f"roster student {s!r} ({on_roster[s]['name'] or on_roster[s]['email'] or on_roster[s]['id_number']}) "
                 "has no submission: no LMS row written" for s in sorted(set(on_roster) - set(scores))]
    matched = [r for r in roster if r["submission"] in scores]
    files: dict[str, list[list[str]]] = {}
    if columns & {"canvas_id", "sis_user_id", "sis_login_id"}:
        canvas = [CANVAS_COLUMNS + [name], ["    Points Possible", "", "", "", "", number(points)]]
        canvas += [[r["name"], r["canvas_id"], r["sis_user_id"], r["sis_login_id"], r["section"], scores[r["submission"]]]
                   for r in matched]
        files[f"{name}-canvas.csv"] = canvas
    if columns & {"id_number", "email"}:
        moodle = [MOODLE_COLUMNS + [name]]
        for r in matched:
            last, _, first = r["name"].partition(",") if "," in r["name"] else ("", "", r["name"])
            moodle.append([first.strip(), last.strip(), r["id_number"], r["email"], scores[r["submission"]]])
        files[f"{name}-moodle.csv"] = moodle
    return files, problems
