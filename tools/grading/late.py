"""Late submissions: when each was handed in, and the penalty a teacher asks for."""

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
from grading.report import *  # noqa: F401, F403


def submitted_at(sub: Submission) -> tuple["datetime.datetime | None", str]:
    """When a submission was handed in: nbgrader's timestamp.txt beside it, else the file's time."""
    import datetime
    if sub.path is None:
        return None, ""
    stamp = sub.path.parent / "timestamp.txt"
    if stamp.is_file():
        text = stamp.read_text(encoding="utf-8", errors="replace").strip()
        try:
            from dateutil.parser import parse as parse_date   # what nbgrader itself uses
            when = parse_date(text)
        except (ValueError, OverflowError, ImportError):
            return None, f"unreadable timestamp.txt ({text[:40]!r})"
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        return when, "timestamp.txt"
    return datetime.datetime.fromtimestamp(sub.path.stat().st_mtime, datetime.timezone.utc), "file time"


def late_penalty(rule: str, hours: float, points: float) -> float:
    """Points taken off: "zero" (every point, as nbgrader's late submission plugin offers) or a number
    of points per started hour late; never more than the points scored."""
    if rule == "zero":
        return points
    try:
        per_hour = float(rule)
    except ValueError:
        raise SystemExit(f"--late-penalty must be 'zero' or points per started hour, not {rule!r}") from None
    if not per_hour >= 0:
        raise SystemExit(f"--late-penalty must be 'zero' or points per started hour (>= 0), not {rule!r}")
    return min(points, per_hour * math.ceil(hours))


def mark_late(result: Result, sub: Submission, deadline, rule: str | None, plan: Plan) -> None:
    when, source = submitted_at(sub)
    if when is None:
        if source:
            result.late = source
        return
    hours = (when - deadline).total_seconds() / 3600
    if hours <= 0:
        return
    result.late = f"{hours:.1f} h late ({source})" if hours >= 0.1 else f"{hours * 60:.0f} min late ({source})"
    if rule is not None:
        scored = sum(v for v in result.scores.values() if v is not None)
        result.penalty = late_penalty(rule, hours, scored)
