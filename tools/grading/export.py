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
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil

from grading import sandbox  # noqa: F401  (tools/grading/sandbox.py)

from grading.course import *  # noqa: F401, F403
from grading.plans import *  # noqa: F401, F403
from grading.submissions import *  # noqa: F401, F403
from grading.student import *  # noqa: F401, F403
from grading.report import *  # noqa: F401, F403


# --------------------------------------------------------------------------- LMS export

ROSTER_COLUMNS = ["submission", "name", "canvas_id", "sis_user_id", "sis_login_id", "section", "id_number", "email"]
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]   # then the assignment's column
MOODLE_COLUMNS = ["First name", "Last name", "ID number", "Email address"]      # then the assignment's column
# The LMS's own exports, read as rosters as they are: Canvas's gradebook export (Grades > Export) and
# Moodle's participants table (Participants > select all > Download table data as CSV). Their column
# names map to the roster's; the submission folder's name is matched against the identities.
CANVAS_EXPORT = {"Student": "name", "ID": "canvas_id", "SIS User ID": "sis_user_id",
                 "SIS Login ID": "sis_login_id", "Section": "section"}
MOODLE_EXPORT = {"First name": "first_name", "Last name": "last_name", "ID number": "id_number",
                 "Email address": "email", "Username": "username", "Groups": "section"}
# what a submission folder's name is compared with, in this order, when the roster has no submission column
SUBMISSION_KEYS = ["sis_login_id", "username", "sis_user_id", "id_number", "canvas_id", "email", "email_user"]
# statuses whose score the teacher must look at before it goes to the LMS (plus any flag)
HELD_STATUSES = {"unreadable", "missing", "timeout", "crashed"}
# The identity columns each LMS matches a row on: written exactly as the roster has them, never escaped or
# changed (Moodle's grade import compares its ID number and e-mail exactly and aborts the whole file on a
# user it does not find; Canvas matches ID, SIS User ID, SIS Login ID). The other cells are free text.
CANVAS_IDENTITIES = ("canvas_id", "sis_user_id", "sis_login_id")
MOODLE_IDENTITIES = ("id_number", "email")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


class Problem(str):
    """One thing a grading run found that the teacher must see: its text, a ``kind`` (not_on_roster,
    no_submission, no_identity, unsafe_identity, held, a status, similar, ...) and the ``student`` it is
    about ("" for none). A str, so it prints and compares as its text."""

    kind: str
    student: str

    def __new__(cls, text: str, kind: str, student: str = "") -> "Problem":
        self = super().__new__(cls, text)
        self.kind, self.student = kind, student
        return self


def nfc(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): how names are compared (macOS writes file names in NFD)."""
    return unicodedata.normalize("NFC", text)


def unsafe_identity(value: str) -> str | None:
    """Why an identity cell cannot go to an LMS file as it is (None: it can). It is never changed, so a value
    a spreadsheet would take for a formula (=, @, a tab or carriage return first; + or - first and not a
    plain number) or with spaces around it holds its row back: escaping it would make it match no one."""
    if value != value.strip():
        return "has spaces before or after it (an importer that trims them would match no one, one that does " \
               "not would match only this exact text)"
    if value.startswith(("=", "@", "\t", "\r")) or value.startswith(("+", "-")) and not PLAIN_NUMBER.fullmatch(value):
        return "starts like a spreadsheet formula (written as it is, a spreadsheet would run it; escaped, the " \
               "LMS would match no one)"
    return None


def roster_format(header: list[str]) -> str:
    """'course' (ROSTER_COLUMNS), 'canvas' (Canvas's gradebook export) or 'moodle' (Moodle's participants)."""
    if "submission" in header:
        return "course"
    if {"Student", "ID"} <= set(header):
        return "canvas"
    if {"First name", "Last name"} <= set(header) and {"ID number", "Email address", "Username"} & set(header):
        return "moodle"
    return "course"


def read_roster(path: Path) -> list[dict[str, str]]:
    """The teacher's roster: one row per student with their LMS identities (ROSTER_COLUMNS, ``name`` as
    "Last, First" or as the LMS has it).

    Three forms are read: the course's own CSV (ROSTER_COLUMNS, ``submission`` being the name in the
    submissions folder, at least one of Canvas's or Moodle's identities), Canvas's gradebook export as it
    is (its Points Possible, Manual Posting and Test Student rows are skipped) and Moodle's participants
    download as it is. The LMS exports have no ``submission`` column: a submission folder's name is then
    matched with a student's SIS Login ID, Username, SIS User ID, ID number, Canvas ID, e-mail address or
    the e-mail's part before the @ (case-insensitively); see match_submissions.
    """
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            raw = [list(row) for row in reader]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise SystemExit(f"roster {path}: cannot read it ({exc})") from None
    header, body = ([cell.strip() for cell in raw[0]], raw[1:]) if raw else ([], [])
    kind = roster_format(header)
    rows: list[dict[str, str]] = []
    if kind == "course":
        unknown = [h for h in header if h not in ROSTER_COLUMNS]
        if "submission" not in header or unknown:
            raise SystemExit(f"roster {path}: columns must be among {', '.join(ROSTER_COLUMNS)} with 'submission' "
                             f"(found {', '.join(header) or 'none'}), or Canvas's gradebook export, or Moodle's "
                             "participants download as they are")
        if not ({"canvas_id", "sis_user_id", "sis_login_id"} & set(header) or {"id_number", "email"} & set(header)):
            raise SystemExit(f"roster {path}: no LMS identity: add canvas_id, sis_user_id or sis_login_id (Canvas), "
                             "id_number or email (Moodle)")
        columns = {h: h for h in header}
    else:
        columns = CANVAS_EXPORT if kind == "canvas" else MOODLE_EXPORT
    seen: dict[str, int] = {}
    for number_, cells in enumerate(body, start=2):
        if not any(cell.strip() for cell in cells):
            continue
        record = {columns[h]: (cells[i] if i < len(cells) else "") for i, h in enumerate(header) if h in columns}
        # identities stay exactly as the LMS exported them; names and the other text lose surrounding spaces
        record = {k: (v if k in CANVAS_IDENTITIES + MOODLE_IDENTITIES else v.strip()) for k, v in record.items()}
        if kind == "moodle" and re.search(r"teacher|manager|course creator", cells[header.index("Roles")]
                                          if "Roles" in header and header.index("Roles") < len(cells) else "", re.I):
            continue   # Moodle's participants include the course's staff
        if kind == "canvas" and (record.get("name", "") in ("Points Possible", "Manual Posting", "Test Student",
                                                            "Student, Test") or not record.get("canvas_id", "").strip()):
            continue   # Canvas's rows under the header, its test student
        row = {column: record.get(column, "") for column in ROSTER_COLUMNS}
        row["line"] = str(number_)
        row["format"] = kind
        row["columns"] = ",".join(sorted(columns[h] for h in header if h in columns))
        if kind == "moodle":
            first, last = record.get("first_name", ""), record.get("last_name", "")
            row["name"] = f"{last}, {first}" if last and first else last or first
            row["username"] = record.get("username", "")
        else:
            row["username"] = ""
        if kind == "course":
            name = row["submission"] = nfc(row["submission"])
            if not name:
                raise SystemExit(f"roster {path}, line {number_}: empty submission name")
            if name in seen:
                raise SystemExit(f"roster {path}, line {number_}: submission {name!r} already on line {seen[name]}")
            seen[name] = number_
        rows.append(row)
    return rows


def display_name(row: dict[str, str]) -> str:
    """A roster row's name as a person writes it: "Ada Lovelace" from "Lovelace, Ada"."""
    last, comma, first = row.get("name", "").partition(",")
    return f"{first.strip()} {last.strip()}".strip() if comma else row.get("name", "").strip()


def identity_keys(row: dict[str, str]) -> dict[str, str]:
    """The values a submission folder's name may equal, by SUBMISSION_KEYS (NFC, case-folded)."""
    keys = {key: nfc(row.get(key, "")).strip().casefold() for key in SUBMISSION_KEYS if key != "email_user"}
    keys["email_user"] = keys["email"].partition("@")[0] if "@" in keys["email"] else ""
    return {key: value for key, value in keys.items() if value}


def match_submissions(students: list[str], roster: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    """Each graded student's roster row. A course roster matches its ``submission`` column exactly; an LMS
    export matches the first of SUBMISSION_KEYS that names exactly one roster row. A name no row or several
    rows claim is not matched (never guessed). Names are compared in Unicode's NFC form."""
    if roster and roster[0]["format"] == "course":
        by_name = {nfc(r["submission"]): r for r in roster}
        return {s: by_name[nfc(s)] for s in students if nfc(s) in by_name}
    matched: dict[str, dict[str, str]] = {}
    keys = [identity_keys(r) for r in roster]
    for student in students:
        wanted = nfc(student).strip().casefold()
        for key in SUBMISSION_KEYS:
            rows = [r for r, k in zip(roster, keys) if k.get(key) == wanted]
            if len(rows) == 1:
                matched[student] = rows[0]
                break
            if len(rows) > 1:
                break   # ambiguous: left unmatched and reported
    return matched


@dataclass
class LmsOptions:
    """How the scores go to the LMS (the CLI's --lms-column, --lms-points, --lms-export-all)."""
    column: str | None = None    # the assignment's column as the gradebook names it, e.g. "HW1: Metrics (4242)"
    points: float | None = None  # the LMS item's maximum: the score is scaled to it
    export_all: bool = False     # also export the rows that need the teacher (held back otherwise)


def held_reason(row: list[str], header: list[str]) -> str | None:
    """Why a grade table row needs the teacher before its score goes to the LMS (None: it does not)."""
    status = row[header.index("status")]
    flag = row[header.index("flag")]
    if flag:
        return f"flagged: {flag[:80]}"
    if status in HELD_STATUSES:
        return status
    return None


def lms_exports(name: str, rows: list[list[str]], roster: list[dict[str, str]], points: float,
                options: LmsOptions | None = None) -> tuple[dict[str, list[list[str]]], list[Problem], list[str]]:
    """Canvas's and Moodle's import files from the grade table and the roster, what did not match, and the
    rows held back for the teacher: (files, problems, held).

    Only students both graded and on the roster get a row: a submission missing from the roster and a
    roster student without a submission are reported, never guessed (no score is written for them). A
    roster student with no identity the file's LMS can match on is left out of that file and named (never
    a row with blank identity cells: Moodle would give its grade to the row before). Rows needing the
    teacher (unreadable, missing, timeout, crashed, flagged) are held back unless ``options.export_all``.
    Identity cells (Canvas's ID, SIS User ID, SIS Login ID; Moodle's ID number and e-mail address) are
    written exactly as the roster has them; one that a spreadsheet would take for a formula, or with spaces
    around it, holds its row back from that file, named with why (unsafe_identity). The free text (names,
    section) is neutralised (spreadsheet_safe): the rows come back ready for ``csv_text(rows,
    neutralise=False)``. With ``options.points`` the total is scaled from ``points`` to it;
    ``options.column`` names the column.
    """
    options = options or LmsOptions()
    if options.points is not None and not (options.points > 0 and math.isfinite(options.points)):
        raise ValueError(f"the LMS's maximum must be a positive number, not {options.points!r}")
    header = rows[0]
    column = options.column or name
    scale = (options.points / points) if options.points is not None and points > 0 else 1.0
    top = options.points if options.points is not None else points
    scores = {row[0]: row[header.index("total")] for row in rows[1:]}
    held_rows = {row[0]: held_reason(row, header) for row in rows[1:]}
    matched = match_submissions(list(scores), roster)
    problems = [Problem(f"submission {s!r} is not on the roster: no LMS row written", "not_on_roster", s)
                for s in sorted(set(scores) - set(matched))]
    claimed = {id(r) for r in matched.values()}
    for r in roster:
        if id(r) not in claimed:
            who = r["name"] or r["email"] or r["id_number"] or "with no name"
            who = f"{r['submission']!r} ({who})" if r["submission"] else f"{who} (roster line {r['line']})"
            problems.append(Problem(f"roster student {who} has no submission: no LMS row written", "no_submission",
                                    r["submission"] or r["name"]))
    held = [f"{s} ({held_rows[s]})" for s in sorted(matched) if held_rows[s]]
    exported = [(s, r) for s, r in sorted(matched.items(), key=lambda item: roster.index(item[1]))
                if options.export_all or not held_rows[s]]

    def score(student: str) -> str:
        value = scores[student]
        if value == "" or scale == 1.0:
            return value
        return number(round(float(value) * scale, 2))

    def unsafe(student: str, r: dict[str, str], keys: tuple[str, ...], lms: str) -> bool:
        """Whether a written identity of ``r`` holds the row back from ``lms``'s file (and says why)."""
        reasons = [f"{LABELS[k]} {r[k]!r} {why}" for k in keys if r[k] and (why := unsafe_identity(r[k]))]
        if reasons:
            problems.append(Problem(f"{student!r} held back from the {lms} file: its " + "; its ".join(reasons)
                                    + f"; enter the grade in {lms} by hand, or correct the identity in {lms} and "
                                    "in the roster", "unsafe_identity", student))
        return bool(reasons)

    columns = set(roster[0]["columns"].split(",")) if roster else set()
    files: dict[str, list[list[str]]] = {}
    if columns & set(CANVAS_IDENTITIES):
        canvas = [CANVAS_COLUMNS + [column], ["    Points Possible", "", "", "", "", number(top)]]
        for student, r in exported:
            if not any(r[k].strip() for k in CANVAS_IDENTITIES):
                problems.append(Problem(f"{student!r} has no Canvas ID, SIS User ID or SIS Login ID on the roster: "
                                        "left out of the Canvas file (grade them by hand or add an identity)",
                                        "no_identity", student))
                continue
            if unsafe(student, r, CANVAS_IDENTITIES, "Canvas"):
                continue
            canvas.append([spreadsheet_safe(r["name"]), r["canvas_id"], r["sis_user_id"], r["sis_login_id"],
                           spreadsheet_safe(r["section"]), score(student)])
        files[f"{name}-canvas.csv"] = canvas
    if columns & set(MOODLE_IDENTITIES):
        key = "id_number" if "id_number" in columns else "email"
        moodle = [MOODLE_COLUMNS + [column]]
        for student, r in exported:
            if not r[key].strip():
                problems.append(Problem(f"{student!r} has no {'ID number' if key == 'id_number' else 'e-mail address'} "
                                        "on the roster: left out of the Moodle file (Moodle would give the grade to "
                                        "another student); grade them by hand or add it", "no_identity", student))
                continue
            if unsafe(student, r, MOODLE_IDENTITIES, "Moodle"):
                continue
            last, _, first = r["name"].partition(",") if "," in r["name"] else ("", "", r["name"])
            moodle.append([spreadsheet_safe(first.strip()), spreadsheet_safe(last.strip()), r["id_number"], r["email"],
                           score(student)])
        files[f"{name}-moodle.csv"] = moodle
    return files, problems, held


LABELS = {"canvas_id": "ID", "sis_user_id": "SIS User ID", "sis_login_id": "SIS Login ID", "id_number": "ID number",
          "email": "e-mail address"}
