"""Finding and reading the submitted notebooks (never writing them)."""

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


# --------------------------------------------------------------------------- grade: submissions

@dataclass
class Submission:
    student: str
    path: Path | None            # the file graded (None: missing)
    notebook: nbformat.NotebookNode | None = None
    problem: str = ""            # why it cannot be graded
    note: str = ""


def find_submissions(name: str, folder: Path) -> list[Submission]:
    """DIR/STUDENT/NAME/*.ipynb (nbgrader's layout) or a flat DIR/STUDENT.ipynb."""
    folder = folder.resolve()
    if not folder.is_dir():
        raise SystemExit(f"no submissions folder {folder}: lay submissions out as DIR/STUDENT/{name}/{name}.ipynb "
                         "or DIR/STUDENT.ipynb and pass --submissions DIR")
    found: list[Submission] = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix == ".ipynb":
            found.append(Submission(entry.stem, entry))
        elif entry.is_dir():
            inner = entry / name
            if not inner.is_dir():
                inner = entry
            expected = inner / f"{name}.ipynb"
            if expected.is_file():
                found.append(Submission(entry.name, expected))
                continue
            others = sorted(p for p in inner.glob("*.ipynb") if p.is_file())
            if len(others) == 1:
                found.append(Submission(entry.name, others[0],
                                        note=f"file renamed: graded {others[0].name} (expected {name}.ipynb)"))
            elif others:
                found.append(Submission(entry.name, None, problem=f"no {name}.ipynb but {len(others)} other notebooks: "
                                        + ", ".join(p.name for p in others[:5])))
            else:
                found.append(Submission(entry.name, None, problem=f"no {name}.ipynb in {inner.relative_to(folder)}/"))
    # names in Unicode's NFC form (a macOS download writes file names in NFD): compared with the roster's
    for sub in found:
        sub.student = unicodedata.normalize("NFC", sub.student)
    names = [sub.student for sub in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SystemExit(f"two hand-ins in {folder} are both named {twice[0]!r} once their names are compared in "
                         "Unicode's NFC form (one is in NFD, as macOS writes file names): keep one")
    if not found:
        raise SystemExit(f"no submission of {name} in {folder} (expected STUDENT/{name}/{name}.ipynb or STUDENT.ipynb)")
    return found


def load_submission(sub: Submission, max_bytes: int = 50 * 1024**2) -> None:
    """Read (never write) the student's file; set ``problem`` when it is not a usable notebook."""
    if sub.path is None:
        return
    try:
        size = sub.path.stat().st_size
        if size == 0:
            sub.problem = "the file is empty"
            return
        if size > max_bytes:
            sub.problem = f"the file is {size / 1024**2:.0f} MB (more than {max_bytes // 1024**2} MB)"
            return
        data = json.loads(sub.path.read_bytes())
    except (OSError, UnicodeDecodeError) as exc:
        sub.problem = f"unreadable file ({exc.__class__.__name__})"
        return
    except json.JSONDecodeError as exc:
        sub.problem = f"not a notebook: invalid JSON (line {exc.lineno})"
        return
    if not isinstance(data, dict) or "cells" not in data and "worksheets" not in data:
        sub.problem = "not a notebook: no cells"
        return
    major = data.get("nbformat")
    if major != 4:
        sub.problem = f"nbformat {major} notebook (expected 4): open it in Jupyter and save it again"
        return
    try:
        sub.notebook = nbformat.from_dict(data)
        for cell in sub.notebook.cells:
            cell.setdefault("metadata", {})
            if isinstance(cell.get("source"), list):
                cell["source"] = "".join(cell["source"])
            if not isinstance(cell.get("source", ""), str) or not isinstance(cell.get("cell_type"), str):
                raise ValueError("malformed cell")
    except Exception as exc:  # noqa: BLE001 (a hand-edited file can be anything)
        sub.problem = f"not a valid notebook ({exc.__class__.__name__})"
        sub.notebook = None
