"""Course layout, nbgrader's release of the student versions (tools/grading release)."""

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



TOOLS = Path(__file__).resolve().parent.parent
REPO = TOOLS.parent
# nbgrader's Gradebook shells out to the `alembic` command found on PATH; with
# `.venv/bin/python tools/grading` (no activated venv) that is not on PATH.
BIN = str(Path(sys.executable).parent)
if BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = BIN + os.pathsep + os.environ.get("PATH", "")
COURSE_ID = "model-evaluation"
DEFAULT_TIMEOUT = 60
CONFIG = '''\
# Written by tools/grading (course.py) on every run; edit the tool, not this file.
# nbgrader only releases (generate_assignment); tools/grading/ grades.
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
# c.ClearSolutions.code_stub is left at nbgrader's default:
#     raise NotImplementedError()
'''


# --------------------------------------------------------------------------- notebooks

def nbgrader_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    """Cells that nbgrader grades or clears (solution, grade or task cells)."""
    cells = []
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") or meta.get("grade") or meta.get("task"):
            cells.append(cell)
    return cells


def has_nbgrader_cells(path: Path) -> bool:
    return bool(nbgrader_cells(nbformat.read(path, as_version=4)))


def find_assignments(notebooks: Path) -> list[str]:
    """Names of the notebooks in ``notebooks`` that contain nbgrader cells."""
    return [path.stem for path in sorted(notebooks.glob("*.ipynb")) if has_nbgrader_cells(path)]


def question_ids(notebook: nbformat.NotebookNode) -> list[str]:
    """grade_id of every graded cell, in notebook order."""
    return [cell.metadata.nbgrader["grade_id"] for cell in nbgrader_cells(notebook)
            if cell.metadata.nbgrader.get("grade")]


def instructor_copy(path: Path) -> nbformat.NotebookNode:
    """The instructor notebook as it goes into source/: widget state dropped."""
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("widgets", None)
    return notebook


# --------------------------------------------------------------------------- layout

@dataclass
class Course:
    root: Path          # the build folder
    notebooks: Path     # where the instructor notebooks are
    course: Path = field(init=False)

    def __post_init__(self):
        self.root = self.root.resolve()
        self.notebooks = self.notebooks.resolve()
        self.course = self.root / "course"

    def source(self, name: str) -> Path:
        return self.course / "source" / name / f"{name}.ipynb"

    def nbgrader_release(self, name: str) -> Path:
        return self.course / "release" / name / f"{name}.ipynb"

    @property
    def student_folder(self) -> Path:
        """One flat folder of student versions: notebooks link to each other by file name."""
        return self.root / "release"

    def student_release(self, name: str) -> Path:
        return self.student_folder / f"{name}.ipynb"

    def submitted(self, student: str, name: str) -> Path:
        return self.course / "submitted" / student / name

    def autograded(self, student: str, name: str) -> Path:
        return self.course / "autograded" / student / name / f"{name}.ipynb"

    def log(self, stem: str) -> Path:
        path = self.root / "logs" / f"{stem}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def write_config(self, timeout: int) -> None:
        self.course.mkdir(parents=True, exist_ok=True)
        text = CONFIG.format(course_id=COURSE_ID, root=str(self.course))
        (self.course / "nbgrader_config.py").write_text(text)

    def gradebook(self):
        """nbgrader's gradebook, its file made (empty, which SQLite takes for an empty database) or kept mode 600
        first: it holds every student's scores, as grades.csv does."""
        from nbgrader.api import Gradebook
        path = self.course / "gradebook.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        path.chmod(0o600)
        return Gradebook(f"sqlite:///{self.course / 'gradebook.db'}", COURSE_ID)


def run_nbgrader(course: Course, args: list[str], log: Path, wall_limit: float | None = None) -> int | None:
    """Run ``nbgrader ARGS`` in the course directory, its output going to ``log``.

    It runs in a child process forked from this one, which has imported
    nbgrader already: a fresh ``python -m nbgrader`` spends seconds importing
    it, once per student. Returns the exit code, or None when the run exceeded
    ``wall_limit`` seconds and was killed together with its kernel (kernels run
    in their own session, so the process tree is killed, not a process group).
    """
    import nbgrader.apps  # noqa: F401  (imported here, before the fork)

    log.write_text("$ nbgrader " + " ".join(args) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    child = context.Process(target=_nbgrader_child, args=(args, str(course.course), str(log)))
    child.start()
    child.join(wall_limit)
    if child.is_alive():
        kill_tree(child.pid)
        child.join()
        with log.open("a") as out:
            out.write(f"\n*** killed by tools/grading after {wall_limit:.0f} s ***\n")
        return None
    return child.exitcode


def _nbgrader_child(args: list[str], cwd: str, log: str) -> None:
    """Body of the child process: ``nbgrader ARGS`` run in ``cwd``, output appended to ``log``."""
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    os.chdir(cwd)  # nbgrader reads nbgrader_config.py from the working directory
    # the gradebook (every student's scores) made mode 600 before nbgrader opens it: SQLite takes the empty file
    os.close(os.open("gradebook.db", os.O_CREAT | os.O_WRONLY, 0o600))
    from nbgrader.apps.nbgraderapp import NbGraderApp
    NbGraderApp.launch_instance(argv=args)


def kill_processes(processes: list[psutil.Process], timeout: float = 10,
                   ignore: type[Exception] | tuple[type[Exception], ...] = psutil.NoSuchProcess) -> None:
    """SIGKILL each process, then wait up to `timeout` seconds for them to end.

    A process whose kill raises `ignore` (by default NoSuchProcess: it has already ended) is skipped.
    """
    for proc in processes:
        try:
            proc.kill()
        except ignore:
            pass
    psutil.wait_procs(processes, timeout=timeout)


def kill_tree(pid: int) -> None:
    try:
        parent = psutil.Process(pid)
        processes = parent.children(recursive=True) + [parent]
    except psutil.NoSuchProcess:
        return
    kill_processes(processes)


# --------------------------------------------------------------------------- release

def release(course: Course, names: list[str], timeout: int = DEFAULT_TIMEOUT, graded: bool | None = None) -> list[Path]:
    """Generate the student version of each assignment; return their paths. ``graded``: the hand-out's helpers
    without the source of what the exercises ask for (tools/handout.py GIVEAWAYS); None keeps the hand-out's
    kind (a release that ``grade`` makes never turns a graded hand-out back)."""
    course.write_config(timeout)
    paths = []
    for name in names:
        instructor = course.notebooks / f"{name}.ipynb"
        if not instructor.is_file():
            raise SystemExit(f"no instructor notebook {instructor}")
        notebook = instructor_copy(instructor)
        if not nbgrader_cells(notebook):
            raise SystemExit(f"{instructor} has no nbgrader cells: nothing to release or grade")

        source = course.source(name)
        changed = not source.is_file() or nbformat.read(source, as_version=4) != notebook
        if changed:
            forget_submissions(course, name)
        source.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, source)

        log = course.log(f"release-{name}")
        code = run_nbgrader(course, ["generate_assignment", name, "--force"], log)
        if code != 0 or not course.nbgrader_release(name).is_file():
            sys.stdout.write(log.read_text())
            raise SystemExit(f"nbgrader generate_assignment {name} failed (log: {log})")

        target = course.student_release(name)
        legacy = course.student_folder / name   # older releases: one folder per notebook
        if legacy.is_dir():
            shutil.rmtree(legacy)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(course.nbgrader_release(name), target)
        paths.append(target)
        print(f"{name}: student version in {target}")
    # The files the notebooks link to (the glossary), next to them as in notebooks/.
    sys.path.insert(0, str(TOOLS))
    try:
        import handout  # tools/handout.py
        import links  # tools/links.py
    finally:
        sys.path.pop(0)
    for relative in links.companions(course.notebooks):
        target = course.student_folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(course.notebooks / relative, target)
        print(f"{relative}: copied to {target}")
    # What makes the folder run on a student's machine on its own: helpers/, data/, requirements.txt,
    # a student README, the licences.
    kit = handout.write_kit(course.student_folder, graded=graded)
    print(f"{', '.join(path.name for path in kit)}: written to {course.student_folder} (a self-contained hand-out"
          + ("; for graded homework, helpers/ without the source of the functions the exercises ask for)"
             if handout.is_graded(course.student_folder) else ")"))
    return paths


def forget_submissions(course: Course, name: str) -> None:
    """Drop old gradebook submissions of an assignment whose source changes.

    nbgrader refuses to add or remove graded cells of a notebook that has
    submissions; ``grade`` re-grades every submission anyway.
    """
    if not (course.course / "gradebook.db").is_file():
        return
    from nbgrader.api import MissingEntry
    with course.gradebook() as gb:
        try:
            students = [s.student.id for s in gb.find_assignment(name).submissions]
        except MissingEntry:
            return
        for student in students:
            gb.remove_submission(name, student)
    if students:
        print(f"{name}: the instructor notebook changed; {len(students)} old submission(s) "
              "dropped from the gradebook (the next `grade` re-grades them)")


def needs_release(course: Course, name: str) -> bool:
    instructor = course.notebooks / f"{name}.ipynb"
    if not course.source(name).is_file() or not course.nbgrader_release(name).is_file():
        return True
    if not (course.course / "gradebook.db").is_file():
        return True
    if instructor.is_file() and nbformat.read(course.source(name), as_version=4) != instructor_copy(instructor):
        return True
    from nbgrader.api import MissingEntry
    with course.gradebook() as gb:
        try:
            gb.find_notebook(name, name)
        except MissingEntry:
            return True
    return False
