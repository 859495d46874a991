"""Release student versions of the course notebooks (nbgrader) and grade submissions in sandboxes.

    python tools/grading.py release [--assignment NAME ...]
    python tools/grading.py grade --assignment NAME [--submissions DIR] [--timeout SECONDS]
                                  [--student-timeout SECONDS] [--jobs N] [--no-sandbox]
                                  [--roster CSV] [--student NAME] [--deadline WHEN [--late-penalty RULE]]

Each instructor notebook ``notebooks/NAME.ipynb`` that has nbgrader cells is
its own assignment ``NAME``. Everything happens under the build folder
(``--root``, default ``build/``, git-ignored)::

    build/course/                  the nbgrader course directory
        nbgrader_config.py         written by this script (course id)
        gradebook.db               nbgrader's gradebook (written from the trusted scores)
        source/NAME/NAME.ipynb     copy of the instructor notebook (solutions, hidden tests)
        release/NAME/NAME.ipynb    nbgrader's student version
        submitted/STUDENT/NAME/    the default submissions folder
        manual_scores.csv          the teacher's scores of manually graded answers, if any
    build/release/NAME.ipynb       the student versions to hand out, side by side (links between
                                   notebooks work), with the files they link to (glossary.md)
    build/logs/                    nbgrader's output of each release
    build/grades.csv               one row per student, one column per question
    build/grades-NAME.png          the score distribution of each question
    build/feedback/NAME/STUDENT.html  each student's feedback
    build/lms/NAME-canvas.csv      Canvas's gradebook import (with --roster)
    build/lms/NAME-moodle.csv      Moodle's CSV grade import (with --roster)

``release`` strips solutions and hidden tests (``nbgrader generate_assignment``).
``grade`` reads ``DIR/STUDENT/NAME/*.ipynb`` or ``DIR/STUDENT.ipynb`` (never
writing them) and grades each submission in two bubblewrap sandboxes
(tools/sandbox.py, tools/grade_worker.py), two submissions at a time: one runs
the student's cells, test cells left out; the other, which never runs student
code, runs the instructor's set-up and test cells from source/ (so deleted or
edited tests do not matter), calls the student's functions across the sandbox
boundary and gets plain data back (an Optuna trial a test passes stays in the
tests' sandbox; the student's function gets a stand-in whose methods are
forwarded as checked plain data). The student's sandbox runs the answer cells
and only the statements of other cells the answers need (needed_statements).
Visible tests run first (their message is the feedback), then the whole cell
with the hidden tests gives the score. As root with cgroup v1, each sandbox
also runs in its own memory (``--memory``, swap included) and pids cgroup,
emptied and removed when the submission's grading ends.
Limits per cell, per function call and per submission (wall clock), on
memory, processes and file size contain crashes, loops and abuse. What a
cell or a called function starts is killed when it ends (over its limit or
not), before the next cell or test runs, and the note says how many
processes a cell left running (grade_worker.stop_processes). The source
of each cell and the student's process are checked for tampering (input
transformers, patched checks, shadowing modules, objects equal to anything),
which is flagged and scores 0 on every question tested after it. The table
is written once, atomically, when every student is graded.

Data files are not copied: the notebooks read them through the ``helpers``
package, installed in editable mode, which resolves paths from the package.
"""

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sandbox  # noqa: E402  (tools/sandbox.py)

sys.path.pop(0)

REPO = Path(__file__).resolve().parent.parent
# nbgrader's Gradebook shells out to the `alembic` command found on PATH; with
# `.venv/bin/python tools/grading.py` (no activated venv) that is not on PATH.
BIN = str(Path(sys.executable).parent)
if BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = BIN + os.pathsep + os.environ.get("PATH", "")
COURSE_ID = "model-evaluation"
DEFAULT_TIMEOUT = 60
CONFIG = '''\
# Written by tools/grading.py on every run; edit the script, not this file.
# nbgrader only releases (generate_assignment); tools/grading.py grades.
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
        from nbgrader.api import Gradebook
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
            out.write(f"\n*** killed by tools/grading.py after {wall_limit:.0f} s ***\n")
        return None
    return child.exitcode


def _nbgrader_child(args: list[str], cwd: str, log: str) -> None:
    """Body of the child process: ``nbgrader ARGS`` run in ``cwd``, output appended to ``log``."""
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    os.chdir(cwd)  # nbgrader reads nbgrader_config.py from the working directory
    from nbgrader.apps.nbgraderapp import NbGraderApp
    NbGraderApp.launch_instance(argv=args)


def kill_tree(pid: int) -> None:
    try:
        parent = psutil.Process(pid)
        processes = parent.children(recursive=True) + [parent]
    except psutil.NoSuchProcess:
        return
    for proc in processes:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(processes, timeout=10)


# --------------------------------------------------------------------------- release

def release(course: Course, names: list[str], timeout: int = DEFAULT_TIMEOUT) -> list[Path]:
    """Generate the student version of each assignment; return their paths."""
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
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import links  # tools/links.py
    finally:
        sys.path.pop(0)
    for relative in links.companions(course.notebooks):
        target = course.student_folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(course.notebooks / relative, target)
        print(f"{relative}: copied to {target}")
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


# --------------------------------------------------------------------------- grade: the plan

@dataclass
class Plan:
    """What the two sandboxed processes of every student run, built from the trusted notebooks."""
    name: str
    questions: list[str]                      # graded test cells, in order
    points: dict[str, float]                  # grade_id -> max score
    manual: list[str]                         # graded answer cells (a teacher scores them)
    answer_ids: list[str]                     # solution cells, in order
    test_ids: set[str]                        # grade ids of every test cell
    steps: list[dict]                         # the tests process's program
    question_answer: dict[str, str | None]    # test grade_id -> the answer cell before it
    released: set[str] = field(default_factory=set)   # code cells as handed out (the instructor's code)


def python_source(source: str) -> str:
    """A cell's source as plain Python (IPython's magics turned into calls)."""
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        return TransformerManager().transform_cell(source)
    except Exception:
        return source


# CPython 3.11 can fail with "SystemError: AST constructor recursion depth mismatch" when two
# threads parse at once; students are graded in threads, so parsing is serial.
AST_LOCK = threading.Lock()


def parse(source: str) -> ast.Module | None:
    """The syntax tree of a cell's Python (IPython magics blanked), or None when it does not parse."""
    try:
        with AST_LOCK:
            return ast.parse(python_source(source))
    except (SyntaxError, ValueError):
        return None


def unchanging_names(trees) -> set[str]:
    """Names whose use never changes them: builtins, imported modules, and the functions and
    classes the cells define (calling ``np.sort`` or ``helper(x)`` changes neither ``np`` nor
    ``helper``); any other name a statement uses may be an object it changes in place."""
    unchanged = set(dir(builtins))
    for tree in trees:
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                unchanged.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                unchanged.add(node.name)
    return unchanged


def defined_names(tree: ast.Module | None) -> set[str]:
    """Names a cell binds at module level (assignments, defs, imports, loop targets...)."""
    names: set[str] = set()
    if tree is None:
        return names

    def visit(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        if isinstance(node, ast.Lambda):
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in tree.body:
        visit(statement)
    return names


def loaded_names(tree: ast.Module | None) -> set[str]:
    if tree is None:
        return set()
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def free_names(tree: ast.AST | None) -> set[str]:
    """Names a piece of code reads that it does not bind itself (loop variables, parameters... excluded)."""
    if tree is None:
        return set()
    loads, bound, augmented = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            augmented.add(node.target.id)   # `total += x` needs an earlier total
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return (loads - bound) | augmented


def needs(tree: ast.Module | None) -> set[str]:
    """Names a cell or statement reads from earlier code, statement by statement backwards:
    `x = x + 1` needs the earlier x (free_names alone would say it binds x); `s = f(); assert s`
    needs f, not an earlier s."""
    if tree is None:
        return set()
    names: set[str] = set()
    for statement in reversed(tree.body):
        module = ast.Module(body=[statement], type_ignores=[])
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            own = set().union(*(free_names(t) for t in targets))
            if statement.value is not None:
                own |= free_names(statement.value)
        else:
            own = free_names(module)
        names = (names - defined_names(module)) | own
    return names


def changed_names(tree: ast.AST) -> set[str]:
    """Names whose object a statement may change in place: `x.fit(...)`, `x.append(...)`, `x[i] = v`, `x += 1`."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            names.add(node.func.value.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
            while isinstance(root, (ast.Subscript, ast.Attribute)):
                root = root.value
            if isinstance(root, ast.Name):
                names.add(root.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def slice_cell(source: str, tree: ast.Module, needed: set[str], unchanged: set[str],
               keep=lambda statement: False) -> tuple[str | None, set[str]]:
    """One cell's statements that later code needs, found backwards: a statement is kept when it
    defines a needed name, may change one in place (`model.fit(X, y)`, a loop appending to a
    list; names in ``unchanged`` do not count), is an enabling import (`from sklearn.experimental
    import ...` works by side effect) or ``keep(statement)`` says so. Returns the kept source
    (None when nothing is kept) and the names still needed before this cell."""
    lines = python_source(source).splitlines()
    chosen: set[int] = set()
    for statement in reversed(tree.body):
        module = ast.Module(body=[statement], type_ignores=[])
        defs = defined_names(module)
        enabling = isinstance(statement, ast.ImportFrom) and "experimental" in (statement.module or "")
        if defs & needed or (changed_names(module) & needed) - unchanged or enabling or keep(statement):
            first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
            chosen.update(range(first, statement.end_lineno + 1))
            needed = (needed - defs) | needs(module)
    kept = "\n".join(lines[n - 1] for n in sorted(chosen)) + "\n" if chosen else None
    return kept, needed


def cell_kind(cell) -> str:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if meta.get("solution"):
        return "answer"
    if meta.get("grade"):
        return "test"
    return "other"


def make_plan(course: Course, name: str) -> Plan:
    source = nbformat.read(course.source(name), as_version=4)
    released = nbformat.read(course.nbgrader_release(name), as_version=4)
    visible = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in nbgrader_cells(released)}
    cells = [cell for cell in source.cells if cell.cell_type == "code"]
    trees = [parse(cell.source) for cell in cells]
    kinds = [cell_kind(cell) for cell in cells]

    # The set-up statements the tests need, found backwards from the tests (imports, data,
    # helper functions): the tests process runs only those, not the whole notebook.
    needed: set[str] = set()
    kept: dict[int, str] = {}
    unchanged = unchanging_names(trees)
    for i in reversed(range(len(cells))):
        tree = trees[i]
        if kinds[i] == "test":
            needed |= needs(tree)
        elif kinds[i] == "answer":
            needed -= defined_names(tree)
        elif tree is not None:
            source, needed = slice_cell(cells[i].source, tree, needed, unchanged)
            if source is not None:
                kept[i] = source

    steps, questions, points, manual, answers, tests = [], [], {}, [], [], set()
    question_answer, last_answer = {}, None
    for i, cell in enumerate(cells):
        meta = cell.metadata.get("nbgrader", {})
        if kinds[i] == "answer":
            last_answer = meta["grade_id"]
            answers.append(last_answer)
            if meta.get("grade"):
                manual.append(meta["grade_id"])
                points[meta["grade_id"]] = float(meta.get("points", 0))
            steps.append({"kind": "bind", "grade_id": meta["grade_id"], "names": sorted(defined_names(trees[i]))})
        elif kinds[i] == "test":
            grade_id = meta["grade_id"]
            tests.add(grade_id)
            questions.append(grade_id)
            points[grade_id] = float(meta.get("points", 0))
            question_answer[grade_id] = last_answer
            steps.append({"kind": "test", "grade_id": grade_id, "full": cell.source,
                          "visible": visible.get(grade_id, cell.source), "points": points[grade_id]})
        elif i in kept:
            steps.append({"kind": "setup", "index": i, "source": kept[i]})
    handed_out = {cell.source.strip() for cell in released.cells if cell.cell_type == "code"}
    return Plan(name, questions, points, manual, answers, tests, steps, question_answer, handed_out)


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
    found = []
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


# --------------------------------------------------------------------------- grade: static checks
#
# A flag zeroes every question tested after the flagged cell, so it is kept for what would fake a
# verdict if the sandboxes failed (the tests then ran where the student's code ran): patching the
# checks or the interpreter, code built at run time, shadowing modules, reaching the gradebook,
# the solutions or other processes. Honest habits that cannot change a verdict are not flagged:
# shell escapes and package installs (skipped, with a note: the grading environment has the
# course's packages and no network), a leftover input() or breakpoint() (answered empty or
# ignored, with a note), cells that raise (noted; the answers are graded as they stand), warning
# filters, output on stderr, plots, display options, sys.path additions, gc.collect() and
# importlib.reload() (run as they are).

WATCHED_ATTRIBUTES = {
    "input_transformers_cleanup", "input_transformers_post", "ast_transformers", "input_transformer_manager",
    "run_cell", "run_code", "run_ast_nodes", "run_cell_async", "transform_cell", "set_custom_exc",
    "showtraceback", "settrace", "setprofile", "meta_path", "path_hooks", "__code__", "__globals__",
    "__builtins__", "__subclasshook__", "__instancecheck__", "modules", "events",
}
STORED_ATTRIBUTES = {"__class__"}   # read by honest code (self.__class__.__name__); assigned, it fakes a type
DUNDER_COMPARISONS = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__float__",
                      "__abs__", "__sub__", "__rsub__", "__instancecheck__", "__array_ufunc__", "__array_function__"}
DYNAMIC = {"exec", "eval", "compile", "__import__"}
DANGEROUS_MODULES = {"ctypes", "subprocess", "signal", "pty", "socket", "builtins", "__builtin__", "atexit",
                     "_thread", "codeop", "site", "sqlite3"}
# Modules with an honest everyday use: importing them is fine, any other use of them is flagged.
HARMLESS_USES = {"gc": {"collect", "enable", "disable", "isenabled", "get_count", "get_threshold"},
                 "importlib": {"reload", "import_module", "metadata"},
                 "multiprocessing": {"cpu_count"},
                 "shutil": {"which", "get_terminal_size", "disk_usage"}}
SYS_INTERNALS = {"modules", "meta_path", "path_hooks", "settrace", "setprofile", "excepthook",
                 "displayhook", "addaudithook", "_getframe", "exit"}
DANGEROUS_CALLS = {"system", "popen", "fork", "forkpty", "kill", "killpg", "setsid", "execv", "execve", "execvp",
                   "spawnv", "spawnl", "posix_spawn"}
# Display settings a student may assign: they change what is printed, never a value a test checks.
DISPLAY_SETTINGS = ("pd.options.display.", "pandas.options.display.", "pd.options.mode.chained_assignment",
                    "pandas.options.mode.chained_assignment", "np.random.seed")
# IPython's escapes that run a program outside Python: skipped under grading.
SHELL_MAGICS = {"pip", "conda", "mamba", "micromamba", "uv", "system", "sx", "sc"}
SHELL_CELL_MAGICS = {"bash", "sh", "script", "system", "sx", "perl", "ruby", "python2", "python3", "pypy", "cmd"}
BODY_CELL_MAGICS = {"capture", "time", "timeit"}   # run their body: its shell escapes are skipped too
MAGIC_CALLS = {"system", "getoutput", "run_line_magic", "run_cell_magic"}   # get_ipython().X: magics spelled out


def skip_shell(source: str) -> tuple[str, list[str]]:
    """The cell with its shell escapes and package installs skipped, and what was skipped.

    ``!pip install x``, ``%pip install x``, ``x = !ls`` and ``%%bash`` cells cannot change a
    verdict (the grading environment has the course's packages and no network), so they are
    replaced by ``pass`` (``[]`` for an assignment), line for line, and the rest of the cell runs.
    """
    lines = source.split("\n")
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        magic = first[2:].split()[0] if first[2:].split() else ""
        if magic in SHELL_CELL_MAGICS:
            return "\n".join(["pass"] + [""] * (len(lines) - 1)), [short_command(source)]
        if magic in BODY_CELL_MAGICS:
            body, skipped = skip_shell("\n".join(lines[1:]))
            return (lines[0] + "\n" + body if skipped else source), skipped
        return source, []
    skipped: list[str] = []
    out: list[str] = []
    continued = False
    for line in lines:
        if continued:   # the continuation lines of a skipped escape
            out.append("")
            continued = line.rstrip().endswith("\\")
            continue
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        assign = re.match(r"([A-Za-z_][\w, ]*?)\s*=\s*(!.*)$", stripped)
        words = stripped[1:].split() if stripped.startswith("%") and not stripped.startswith("%%") else []
        if stripped.startswith("!") or (words and words[0] in SHELL_MAGICS):
            out.append(indent + "pass")
            skipped.append(short_command(stripped))
        elif assign:
            out.append(f"{indent}{assign.group(1)} = []")
            skipped.append(short_command(assign.group(2)))
        else:
            out.append(line)
            continue
        continued = line.rstrip().endswith("\\")
    if not skipped:
        return source, []
    # IPython's own reading of the cell must agree: an escape-looking line inside a string is no escape
    python = python_source(source)
    calls = len(re.findall(r"get_ipython\(\)\.(?:system|getoutput)\(", python)) + len(re.findall(
        r"get_ipython\(\)\.run_line_magic\('(?:%s)'" % "|".join(sorted(SHELL_MAGICS)), python))
    if calls != len(skipped):
        return source, []
    return "\n".join(out), skipped


def short_command(text: str) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return text if len(text) <= 60 else text[:57] + "..."


def static_flags(source: str) -> list[str]:
    """Reasons a student cell looks like it tampers with the grading (read, never run).

    ``source`` is the cell as it runs (shell escapes already skipped by skip_shell).
    """
    reasons: list[str] = []
    tree = parse(source)
    if tree is None:
        return reasons
    modules: set[str] = set()
    limited: dict[str, str] = {}   # a name bound to a module of HARMLESS_USES -> that module
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom):
                top = (node.module or "").split(".")[0]
                if top in DANGEROUS_MODULES:
                    reasons.append(f"imports {top}")
                elif top in HARMLESS_USES and node.level == 0:
                    for alias in node.names:
                        if node.module != top or alias.name not in HARMLESS_USES[top]:
                            reasons.append(f"imports {node.module}.{alias.name}")
            else:
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    if top in DANGEROUS_MODULES:
                        reasons.append(f"imports {top}")
                    elif top in HARMLESS_USES:
                        if alias.name != top and alias.name.split(".")[1] not in HARMLESS_USES[top]:
                            reasons.append(f"imports {alias.name}")
                        limited[alias.asname or top] = top
            for alias in node.names:
                modules.add(alias.asname or alias.name.split(".")[0])
    common = {"math", "np", "numpy", "pd", "pandas", "metrics", "sklearn", "pytest", "inspect", "operator",
              "IPython", "helpers", "os", "sys", "plt", "matplotlib"}
    harmless_reads: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in limited
                and node.attr in HARMLESS_USES[limited[node.value.id]] and isinstance(node.ctx, ast.Load)):
            harmless_reads.add(id(node.value))
    magic_receivers: set[int] = set()   # get_ipython() in get_ipython().run_line_magic(...) and the like
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MAGIC_CALLS
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "get_ipython"):
            magic_receivers.add(id(node.func.value.func))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr in WATCHED_ATTRIBUTES or (isinstance(node.value, ast.Name) and node.value.id == "sys"
                                                    and node.attr in SYS_INTERNALS):
                reasons.append(f"uses .{node.attr} (interpreter or IPython internals)")
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                if node.attr in STORED_ATTRIBUTES:
                    reasons.append(f"assigns .{node.attr} (an object pretending to be another type)")
                root = node.value
                while isinstance(root, ast.Attribute):
                    root = root.value
                text = ast.unparse(node)
                if (isinstance(root, ast.Name) and root.id in modules | common and root.id != "plt"
                        and not text.startswith(DISPLAY_SETTINGS)):
                    reasons.append(f"assigns {text} (patches a library)")
        elif isinstance(node, ast.Name):
            if node.id in DYNAMIC:
                reasons.append(f"uses {node.id}() (runs code built at run time)")
            elif node.id in ("__builtins__", "globals") or (node.id == "get_ipython" and id(node) not in magic_receivers):
                reasons.append(f"uses {node.id}")
            elif node.id in limited and id(node) not in harmless_reads:
                reasons.append(f"uses {limited[node.id]} beyond {', '.join(sorted(HARMLESS_USES[limited[node.id]]))}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in DUNDER_COMPARISONS:
            reasons.append(f"defines {node.name} (an object that can pass any comparison)")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("system", "getoutput", "popen")):   # `!` lines were skipped: this is Python
            reasons.append(f"runs a shell command from Python ({ast.unparse(node.func)})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DANGEROUS_CALLS:
            reasons.append(f"calls .{node.func.attr}() (processes or signals)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            target = node.args[0] if node.args else None
            root = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if not (isinstance(root, ast.Name) and root.id not in modules | common | {"get_ipython"}):
                reasons.append(f"calls {node.func.id}() on {ast.unparse(target) if target is not None else '?'}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text.rstrip().endswith((".py", ".pth", ".pyc")) or any(
                    word in text for word in ("gradebook", "autograded", "submitted/", "source/", "nbgrader")):
                reasons.append(f"names the file {text[:60]!r}")
    return list(dict.fromkeys(reasons))


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


KEPT_CALLS = {"seed", "set_config", "set_option", "set_printoptions", "filterwarnings", "simplefilter"}


def needed_statements(sources: list[str], answers: set[int]) -> list[str | None]:
    """Each cell's source cut to what the answer cells can reach (None: nothing of it is needed).

    The student's process runs the answer cells whole and, of the other cells, only the
    statements defining (or changing in place) a name the answers use, directly or through
    other kept statements, found backwards as in make_plan; also global set-up calls
    (seeds, scikit-learn's set_config, warning filters) and enabling imports. A cell that
    cannot be analysed (star import, exec, globals(), a syntax error) is kept whole. The
    cells nothing depends on (plots, widgets, long demonstrations) are not run: grading
    is faster, and what they would print is not graded.
    """
    trees = [parse(source) for source in sources]
    needed: set[str] = set()
    kept: list[str | None] = [None] * len(sources)
    unchanged = unchanging_names(trees)
    for i in reversed(range(len(sources))):
        tree = trees[i]
        if i in answers:
            kept[i] = sources[i]
            needed = (needed - defined_names(tree)) | needs(tree)
            continue
        opaque = tree is None or any(
            (isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names))
            or (isinstance(node, ast.Name) and node.id in ("exec", "eval", "globals", "locals", "vars", "__import__"))
            for node in ast.walk(tree))
        if opaque:
            kept[i] = sources[i]
            needed |= loaded_names(tree)
            continue
        kept[i], needed = slice_cell(sources[i], tree, needed, unchanged, keep=is_setting_call)
    return kept


def is_setting_call(statement: ast.stmt) -> bool:
    """A global set-up call kept whatever depends on it: a seed, scikit-learn's set_config, a warning filter."""
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr in KEPT_CALLS)


def student_cells(plan: Plan, notebook: nbformat.NotebookNode):
    """The student's code cells without the test cells, the answers' defs, where answers and tests are."""
    cells, answer_at, test_at, defs = [], {}, {}, {}
    for index, cell in enumerate(notebook.cells):
        if cell.get("cell_type") != "code":
            continue
        meta = cell.metadata.get("nbgrader", {}) if isinstance(cell.metadata.get("nbgrader"), dict) else {}
        grade_id = meta.get("grade_id")
        if grade_id in plan.test_ids or (meta.get("grade") and not meta.get("solution")):
            test_at.setdefault(grade_id, index)
            continue   # test cells are the instructor's: run by the tests process only
        if grade_id in plan.answer_ids:
            answer_at.setdefault(grade_id, index)
        cells.append({"index": index, "source": cell.source})
        tree = parse(cell.source)
        for node in tree.body if tree else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[node.name] = {"text": cell.source, "lineno": node.lineno}
    return cells, defs, answer_at, test_at


def cells_to_run(cells: list[dict], answer_at: dict[str, int]) -> list[dict]:
    """The student's cells cut to what the answers need (see needed_statements)."""
    answers = {n for n, cell in enumerate(cells) if cell["index"] in set(answer_at.values())}
    sources = needed_statements([cell["source"] for cell in cells], answers)
    return [{"index": cell["index"], "source": source} for cell, source in zip(cells, sources) if source is not None]


def processes(count: int) -> str:
    return f"{count} process" if count == 1 else f"{count} processes"


def left_running(count: int) -> str:
    """The end of a note on what a cell or the called functions left running."""
    return f"left {processes(count)} running; {'they were' if count > 1 else 'it was'} stopped"


def stop_sandbox(process, group: sandbox.Cgroup | None, sandboxed: bool) -> None:
    """End a grading process and everything it started, now: its cgroup's processes (when it has
    one), its process tree outside a sandbox (the worker is a child subreaper there, so a setsid
    grandchild is still in its tree), the sandbox itself (its PID namespace)."""
    if group is not None:
        group.kill()
    if not sandboxed and process.poll() is None:
        kill_tree(process.pid)
    sandbox.kill(process)


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
    flags: list[tuple[int, str, str | None]] = []   # (cell index, reason, question or None)
    # Only the student's own code is read for tampering: cells as handed out are the instructor's.
    own = sorted(cell["index"] for cell in cells if cell["source"].strip() not in plan.released)
    habits: list[str] = []   # what was skipped or answered differently, and why (notes, never flags)
    for cell in cells:
        cell["source"], skipped = skip_shell(cell["source"])
        if skipped and cell["index"] in own:
            habits.append(f"cell {cell['index'] + 1}: skipped {', '.join(skipped)} (shell commands and package "
                          "installs do not run under grading; the course's packages are installed)")
        if cell["index"] in own:
            for reason in static_flags(cell["source"]):
                flags.append((cell["index"], reason, None))

    worker = Path(__file__).resolve().parent / "grade_worker.py"
    inside = f"{sandbox.GRADER_DIR}/grade_worker.py" if settings.sandboxed else str(worker)
    limits = settings.limits or sandbox.Limits()
    uid = settings.uid_base + 2 * slot
    groups: dict[str, sandbox.Cgroup] = {}
    over_cap: list[str] = []
    if settings.cgroups:
        tag = f"grading-{os.getpid()}-{slot}-{os.urandom(4).hex()}"
        for role in ("student", "tests"):
            groups[role] = sandbox.Cgroup(f"{tag}-{role}", limits.memory, limits.processes + 16)
    student = sandbox.popen([sys.executable, "-I", "-B", inside, "student"], uid, limits, worker, settings.sandboxed,
                            groups.get("student"))
    tests = sandbox.popen([sys.executable, "-I", "-B", inside, "tests"], uid + 1, limits, worker, settings.sandboxed,
                          groups.get("tests"))
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
                        notes.append("the notebook's process died (os._exit, a crash or the memory limit)")
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
                notes.append(f"cell {cell['index'] + 1} ran over {settings.cell_timeout:g} s and was stopped"
                             + (f", with the {processes(stopped)} it started" if stopped > 0 else ""))
            elif stopped > 0:
                notes.append(f"cell {cell['index'] + 1} {left_running(stopped)}")
            grade_id = answer_of.get(cell.get("index"))
            if grade_id and cell.get("error"):
                answer_errors[grade_id] = f"your answer cell raised {str(cell['error'])[:500]}"
            if cell.get("error") and not cell.get("timeout") and isinstance(cell.get("index"), int):
                first = str(cell["error"]).strip().splitlines()[0][:120] if str(cell["error"]).strip() else "?"
                habits.append(f"cell {cell['index'] + 1} raised {first}; the rest of that cell did not run "
                              "(the answers are graded as they stand)")
            called = cell.get("habits") if isinstance(cell.get("habits"), list) else []
            if "input" in called:
                habits.append(f"cell {cell['index'] + 1} called input(): it got an empty string under grading")
            if "breakpoint" in called:
                habits.append(f"cell {cell['index'] + 1} called breakpoint(): ignored under grading")
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

    # What an interference could have faked scores 0: every test that runs after the flagged cell.
    end = len(sub.notebook.cells)
    position = {q: test_at.get(q, answer_at.get(plan.question_answer.get(q), end)) for q in plan.questions}
    reasons = []
    for index, reason, question in flags:
        text = f"cell {index + 1}: {reason}" if index >= 0 else reason
        if text not in reasons:
            reasons.append(text)
        targets = [question] if question in position else [q for q in plan.questions if position[q] > index]
        for target in targets:
            if scores[target]:
                feedback[target] = f"0 points: the notebook interferes with grading ({reason})"
            scores[target] = 0.0
    notes = habits + notes
    return Result(sub.student, status, scores, seconds, reasons, "; ".join(dict.fromkeys(
        [sub.note] + notes if sub.note else notes)), feedback, phases)


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
        subs = [sub for sub in subs if sub.student == options.student]
        if not subs:
            raise SystemExit(f"no submission of {name} by {options.student!r} in "
                             f"{submissions or course.course / 'submitted'}")
        previous = read_table(output, plan, options.deadline is not None)
    for sub in subs:
        load_submission(sub)

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
    if roster is not None:
        exports, problems = lms_exports(name, rows, roster, sum(plan.points[q] for q in plan.questions + plan.manual))
        files |= {course.root / "lms" / filename: content for filename, content in exports.items()}
    feedback_dir = course.root / "feedback" / name
    files |= {feedback_dir / f"{safe_name(r.student)}.html": page for r, page in feedback_pages(plan, results)}
    write_files_atomically(files)   # the table, the LMS files and the feedback together
    print(format_table(rows))
    for problem in problems:
        print(f"roster: {problem}")
    if roster is not None:
        print("LMS import files: " + ", ".join(str(p) for p in files if p.parent == course.root / "lms"))
    figure = course.root / f"grades-{name}.png"
    plot_distribution(plan, results if previous is None else results_of(rows, plan), figure)
    try:
        record_in_gradebook(course, plan, results)
    except Exception as exc:  # noqa: BLE001 (the table and CSV are the record; the gradebook is a convenience)
        print(f"(gradebook not updated: {exc})")
    print(f"grades in {output}; feedback in {feedback_dir}/STUDENT.html; score distribution in {figure}")
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


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


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


# --------------------------------------------------------------------------- CLI

def main(argv: list[str] | None = None) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=REPO / "build",
                        help="build folder holding course/, release/, grades.csv (default: %(default)s)")
    common.add_argument("--notebooks", type=Path, default=REPO / "notebooks",
                        help="folder of the instructor notebooks (default: %(default)s)")

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    rel = commands.add_parser("release", parents=[common],
                              help="student versions (solutions and hidden tests stripped)")
    rel.add_argument("--assignment", nargs="+", metavar="NAME",
                     help="notebook stems (default: every notebook with nbgrader cells)")

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
    gra.add_argument("--student", metavar="NAME",
                     help="re-grade only this student; the others' rows of the table stay as they are")
    gra.add_argument("--deadline", metavar="WHEN",
                     help="mark submissions after it late (nbgrader's timestamp.txt, else the file's time); "
                          "e.g. 2026-11-20T23:59:00+01:00 (UTC when no zone is given)")
    gra.add_argument("--late-penalty", metavar="RULE",
                     help="with --deadline: 'zero' (late scores 0) or points taken off per started hour late")

    args = parser.parse_args(argv)
    course = Course(args.root, args.notebooks)
    if args.command == "release":
        names = args.assignment or find_assignments(course.notebooks)
        if not names:
            raise SystemExit(f"no notebook with nbgrader cells in {course.notebooks}")
        release(course, names)
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
        options = Options(roster=args.roster, student=args.student, deadline=deadline, late_penalty=args.late_penalty)
        grade(course, args.assignment, args.submissions, settings, args.output or course.root / "grades.csv",
              jobs=args.jobs, options=options)


if __name__ == "__main__":
    main()
