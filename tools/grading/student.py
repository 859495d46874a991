"""Grading one submission in its two sandboxes (tools/grading/sandbox.py, tools/grading/worker.py)."""

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
import subprocess
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


# --------------------------------------------------------------------------- grade: one student

@dataclass
class Result:
    student: str
    status: str                       # graded | timeout | crashed | missing | unreadable
    scores: dict[str, float | None]   # grade_id -> score (None: needs manual grading)
    seconds: float = 0.0
    flags: list[str] = field(default_factory=list)
    note: str = ""
    feedback: dict = field(default_factory=dict)   # grade_id -> message for the student
    phases: dict = field(default_factory=dict)     # wall and CPU seconds of each phase (bench/bench_grading.py)
    late: str = ""             # how late it was handed in (with --deadline)
    penalty: float = 0.0       # points taken off for it (with --late-penalty)

    @property
    def scored(self) -> float:
        """The points of the scores given so far (a score to give by hand counts when it is given)."""
        return sum(v for v in self.scores.values() if v is not None)

    @property
    def total(self) -> float:
        """The table's total: the points scored less any late penalty, never below 0."""
        return max(0.0, self.scored - self.penalty)


@dataclass
class Settings:
    cell_timeout: float = 60
    call_timeout: float = 30
    student_timeout: float = 300
    sandboxed: bool = True
    limits: object = None
    uid_base: int = sandbox.SANDBOX_UID_BASE
    cgroups: bool = False      # each sandbox in its own memory and pids cgroup (set by grade() when possible)


class Lines:
    """Reads JSON lines from a pipe with a deadline and a size cap (a submission may print anything)."""

    def __init__(self, stream, cap: int = 256 * 1024**2):
        self.fd = stream.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = bytearray()
        self.cap = cap
        self.closed = False

    def read(self, deadline: float) -> dict | None:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                try:
                    message = json.loads(line)
                except ValueError:
                    continue   # not the worker's line: ignore
                return message if isinstance(message, dict) else None
            if self.closed or len(self.buffer) > self.cap:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], min(remaining, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 1 << 20)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.closed = True
                else:
                    self.buffer += chunk


def send(process, message: dict) -> bool:
    try:
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        return True
    except (BrokenPipeError, OSError, ValueError):
        return False


def processes(count: int) -> str:
    return f"{count} process" if count == 1 else f"{count} processes"


def left_running(count: int) -> str:
    """The end of a note on what a cell or the called functions left running."""
    return f"left {processes(count)} running; {'they were' if count > 1 else 'it was'} stopped"


WORKER = Path(__file__).resolve().with_name("worker.py")   # standard library only: the one file a sandbox sees


def start_worker(role: str, uid: int, limits: sandbox.Limits, sandboxed: bool = True,
                 group: sandbox.Cgroup | None = None) -> subprocess.Popen:
    """One of a submission's two processes, ``role`` "student" or "tests": tools/grading/worker.py run as a
    file with ``python -I -B`` (isolated: no script folder, user site or PYTHON* variables on sys.path, so
    it imports nothing of this package), in its sandbox at GRADER_DIR/worker.py (bound read-only, alone)."""
    inside = f"{sandbox.GRADER_DIR}/{WORKER.name}" if sandboxed else str(WORKER)
    return sandbox.popen([sys.executable, "-I", "-B", inside, role], uid, limits, WORKER, sandboxed, group)


def stop_sandbox(process, group: sandbox.Cgroup | None, sandboxed: bool) -> None:
    """End a grading process and everything it started, now: its cgroup's processes (when it has
    one), its process tree outside a sandbox (the worker is a child subreaper there, so a setsid
    grandchild is still in its tree), the sandbox itself (its PID namespace)."""
    if group is not None:
        group.kill()
    if not sandboxed and process.poll() is None:
        kill_tree(process.pid)
    sandbox.kill(process)


def plain(text: str) -> str:
    """A message as a student should read it: IPython's internal cell file names
    (``<ipython-input-2-881118ca0d22>``) and the grader's (``<answer NAME>``) become "your cell"."""
    return re.sub(r"<ipython-input-\d+-[0-9a-f]+>|<answer [^<>]*>", "your cell", text)


def cell_places(plan: Plan, notebook: nbformat.NotebookNode, answer_at: dict[str, int],
                test_at: dict[str, int]) -> "Callable[[int], str]":
    """A function naming a submission's cell (0-based index) as the student finds it in JupyterLab: the
    exercise of an answer cell ("Exercise 2: best_candidate (your answer)"), the exercise a cell comes
    after, else the heading above it; "cell N" only when nothing names it."""
    marks = sorted([(i, gid, "answer") for gid, i in answer_at.items()] + [(i, gid, "test") for gid, i in test_at.items()])
    cells = notebook.get("cells", [])

    def place(index: int) -> str:
        for at, grade_id, kind in marks:
            if at == index and kind == "answer":
                return f"{plan.label(grade_id)} (your answer)"
        before = [grade_id for at, grade_id, _ in marks if at < index and grade_id in plan.labels]
        if before:
            return f"a cell after {plan.label(before[-1])}"
        for cell in reversed(cells[:index]):
            if cell.get("cell_type") == "markdown":
                heading = next((line.lstrip("#").strip() for line in str(cell.get("source", "")).splitlines()
                                if line.startswith("#")), None)
                if heading:
                    return f"a cell under the heading \"{heading[:60]}\""
        return f"cell {index + 1}"
    return place


def timed_out_in(place: str, where: object) -> str:
    """What ran over a cell's limit, as the student finds it: the function running when it was stopped
    (``where``, from the worker), or the cell's code outside any function (``""``); just the cell when the
    worker could not tell (None)."""
    if where == "":
        return f"the code of {place} outside any function"
    if isinstance(where, str) and where.isidentifier():
        return f"the function {where} (called in {place})"
    return place


def grade_student(plan: Plan, sub: Submission, settings: Settings, slot: int) -> Result:
    zero = {q: 0.0 for q in plan.questions} | {q: None for q in plan.manual}
    if sub.path is None:
        return Result(sub.student, "missing", zero, note=sub.problem)
    if sub.problem:
        return Result(sub.student, "unreadable", zero, note=sub.problem)

    start = time.monotonic()
    deadline = start + settings.student_timeout
    cells, defs, answer_at, test_at = student_cells(plan, sub.notebook)
    answer_of = {index: grade_id for grade_id, index in answer_at.items()}
    place = cell_places(plan, sub.notebook, answer_at, test_at)
    flags: list[tuple[int, str, str | None]] = []   # (cell index, reason, question or None)
    # Only the student's own code is read for tampering: cells as handed out are the instructor's.
    own = sorted(cell["index"] for cell in cells if cell["source"].strip() not in plan.released)
    habits: list[str] = []   # what was skipped or answered differently, and why (notes, never flags)
    for cell in cells:
        cell["source"], skipped = skip_shell(cell["source"])
        if skipped and cell["index"] in own:
            habits.append(f"{place(cell['index'])}: skipped {', '.join(skipped)} (shell commands and package "
                          "installs do not run under grading; the course's packages are installed)")
        if cell["index"] in own:
            for reason in static_flags(cell["source"]):
                flags.append((cell["index"], reason, None))

    limits = settings.limits or sandbox.Limits()
    uid = settings.uid_base + 2 * slot
    groups: dict[str, sandbox.Cgroup] = {}
    over_cap: list[str] = []
    if settings.cgroups:
        tag = f"grading-{os.getpid()}-{slot}-{os.urandom(4).hex()}"
        for role in ("student", "tests"):
            groups[role] = sandbox.Cgroup(f"{tag}-{role}", limits.memory, limits.processes + 16)
    student = start_worker("student", uid, limits, settings.sandboxed, groups.get("student"))
    tests = start_worker("tests", uid + 1, limits, settings.sandboxed, groups.get("tests"))
    watching = threading.Event()

    def watch() -> None:   # a sandbox at its memory cap waits (OOM killer off): stop all of it
        while not watching.wait(0.1):
            for role, group in groups.items():
                if role not in over_cap and group.over_memory():
                    over_cap.append(role)
                    group.kill()

    watcher = threading.Thread(target=watch, daemon=True)
    if groups:
        watcher.start()
    s_lines, t_lines = Lines(student.stdout), Lines(tests.stdout)
    status, notes, ready, outcome, ready_at, results_at = "graded", [], None, None, None, None
    left_by_calls = 0   # processes the student's functions left running when a test called them
    running: int | None = None   # the cell the notebook's process said it was running
    died_in: int | None = None   # the cell it died in before the tests could call anything
    try:
        send(student, {"cells": cells_to_run(cells, answer_at), "cell_timeout": settings.cell_timeout, "call_timeout": settings.call_timeout,
                       "sandboxed": settings.sandboxed})
        send(tests, {"steps": plan.steps, "defs": defs})
        student_alive = True
        while True:
            request = t_lines.read(deadline)
            if request is None:
                if time.monotonic() >= deadline:
                    if status != "timeout":
                        notes.append(f"stopped after the {settings.student_timeout:g} s limit per student")
                    status = "timeout"
                else:
                    notes.append("the tests process failed (a grader error)")
                    status = "crashed"
                break
            op = request.get("op")
            if op == "results":
                outcome = request
                results_at = time.monotonic() - start
                break
            if op == "crash":
                status = "crashed"
                notes.append("the tests process failed: " + str(request.get("error", ""))[-300:])
                break
            if ready is None and student_alive:   # every request needs the student's cells run first
                while True:
                    message = s_lines.read(deadline)
                    if message is not None and message.get("op") == "running" and isinstance(message.get("index"), int):
                        running = message["index"]   # the cell the notebook's process is in
                        continue
                    if message is None or message.get("op") in ("ready", "crash"):
                        break
                if message is not None and message.get("op") == "ready":
                    ready = message
                    ready_at = time.monotonic() - start
                else:
                    student_alive = False
                    if time.monotonic() >= deadline:
                        status = "timeout"
                        notes.append(f"the notebook ran over the {settings.student_timeout:g} s limit per student")
                    else:
                        status = "crashed"
                        died_in = running
                        notes.append("the notebook's process died" + (f" in {place(running)}" if running is not None
                                                                      else "") + " (os._exit, a crash or the memory limit)")
            if not student_alive:
                send(tests, {"error": "the submission's process is gone"})
                continue
            if op == "wait":
                send(tests, {"ok": True})
                continue
            call_deadline = min(deadline, time.monotonic() + settings.call_timeout + 5)
            reply = s_lines.read(call_deadline) if send(student, request) else None
            if reply is None or "op" in reply:
                student_alive = False
                stop_sandbox(student, groups.get("student"), settings.sandboxed)
                if time.monotonic() >= call_deadline:
                    status = "timeout"
                    notes.append("a function ran over its time limit; its process was stopped")
                else:
                    status = "crashed"
                    notes.append("the notebook's process died while a test called it")
                send(tests, {"error": "the submission's process is gone"})
            else:
                if "CellTimeout" in str(reply.get("error", "")):
                    status = "timeout"
                    notes.append("a function called by a test ran over its time limit and was stopped")
                elif isinstance(reply.get("stopped"), int) and reply["stopped"] > 0:
                    left_by_calls += reply["stopped"]
                send(tests, reply)
    finally:
        send(student, {"op": "bye"})
        stop_sandbox(student, None, settings.sandboxed)
        stop_sandbox(tests, None, settings.sandboxed)
        watching.set()
        if groups:
            watcher.join()
        for group in groups.values():   # every process the sandboxes started, then the cgroups themselves
            group.close()
    seconds = time.monotonic() - start
    if left_by_calls:
        notes.append(f"the functions called by the tests {left_running(left_by_calls)}")
    if "student" in over_cap:
        notes.append(f"the notebook's processes together went over the {limits.memory / 1024**2:.0f} MB memory "
                     "cap and were stopped")
    if "tests" in over_cap:
        notes.append("the tests process went over the memory cap (a grader error)")
    phases = {"total": seconds, "student ready": ready_at, "tests done": results_at}
    for who, message in (("student", ready), ("tests", outcome)):
        timing = message.get("timing") if isinstance(message, dict) else None
        if isinstance(timing, dict):
            phases |= {f"{who} {k}": float(v) for k, v in timing.items() if isinstance(v, (int, float))}

    feedback: dict[str, str] = {}
    answer_errors: dict[str, str] = {}
    scores = dict(zero)
    if ready is not None:
        for cell in ready.get("cells", []):
            if cell.get("timeout") and status == "graded":
                status = "timeout"
            stopped = cell.get("stopped") if isinstance(cell.get("stopped"), int) else 0
            if cell.get("timeout"):
                notes.append(f"{timed_out_in(place(cell['index']), cell.get('where'))} ran over "
                             f"{settings.cell_timeout:g} s and was stopped"
                             + (f", with the {processes(stopped)} it started" if stopped > 0 else ""))
            elif stopped > 0:
                notes.append(f"{place(cell['index'])} {left_running(stopped)}")
            grade_id = answer_of.get(cell.get("index"))
            if grade_id and cell.get("error"):
                answer_errors[grade_id] = f"your answer cell raised {str(cell['error'])[:500]}"
            if cell.get("error") and not cell.get("timeout") and isinstance(cell.get("index"), int):
                first = str(cell["error"]).strip().splitlines()[0][:120] if str(cell["error"]).strip() else "?"
                habits.append(f"{place(cell['index'])} raised {first}; the rest of that cell did not run "
                              "(the answers are graded as they stand)")
            called = cell.get("habits") if isinstance(cell.get("habits"), list) else []
            if "input" in called:
                habits.append(f"{place(cell['index'])} called input(): it got an empty string under grading")
            if "breakpoint" in called:
                habits.append(f"{place(cell['index'])} called breakpoint(): ignored under grading")
        for flag in ready.get("flags", []):
            if not (isinstance(flag, dict) and isinstance(flag.get("index"), int)):
                continue
            # noticed after an instructor's cell: set up by the student's last cell before it, if any
            index = max((i for i in own if i <= flag["index"]), default=None)
            if index is not None:
                flags.append((index, str(flag.get("reason"))[:300], None))
    if outcome is not None:
        if outcome.get("setup_errors"):
            notes.append("instructor cells failed in the tests process: "
                         + "; ".join(e["error"] for e in outcome["setup_errors"])[:300])
        for grade_id in plan.questions:
            result = outcome.get("tests", {}).get(grade_id)
            if isinstance(result, dict):
                scores[grade_id] = plan.points[grade_id] if result.get("passed") is True else 0.0
                message = "all tests pass" if result.get("passed") is True else str(result.get("message", ""))[:2000]
                error = answer_errors.get(plan.question_answer.get(grade_id))
                feedback[grade_id] = f"{error}\n{message}" if error and result.get("passed") is not True else message
        for flag in outcome.get("flags", []):
            flags.append((-1, f"{flag.get('where')}: {flag.get('reason')}", flag.get("where")))

    if died_in is not None:   # no test could call a function: say so instead of the tests' NameError
        for grade_id in plan.questions:
            scores[grade_id] = 0.0
            feedback[grade_id] = (f"not tested: the notebook's process died in {place(died_in)} before the tests "
                                  "ran (every question scores 0)")
    # What an interference could have faked scores 0: every test that runs after the flagged cell.
    end = len(sub.notebook.cells)
    position = {q: test_at.get(q, answer_at.get(plan.question_answer.get(q), end)) for q in plan.questions}
    reasons = []
    for index, reason, question in flags:
        text = f"{place(index)}: {reason}" if index >= 0 else reason
        if text not in reasons:
            reasons.append(text)
        targets = [question] if question in position else [q for q in plan.questions if position[q] > index]
        for target in targets:
            if scores[target]:
                feedback[target] = f"0 points: the notebook interferes with grading ({reason})"
            scores[target] = 0.0
    notes = habits + notes
    return Result(sub.student, status, scores, seconds, [plain(r) for r in reasons], plain("; ".join(dict.fromkeys(
        [sub.note] + notes if sub.note else notes))), {q: plain(m) for q, m in feedback.items()}, phases)
