"""Release student versions of the course notebooks and grade submissions (nbgrader).

    python tools/grading.py release [--assignment NAME ...]
    python tools/grading.py grade --assignment NAME [--submissions DIR] [--timeout SECONDS]

Each instructor notebook ``notebooks/NAME.ipynb`` that has nbgrader cells is
its own assignment ``NAME``. Everything happens under the build folder
(``--root``, default ``build/``, git-ignored)::

    build/course/                  the nbgrader course directory
        nbgrader_config.py         written by this script (course id, timeout)
        gradebook.db               nbgrader's gradebook (scores per question)
        source/NAME/NAME.ipynb     copy of the instructor notebook
        release/NAME/NAME.ipynb    nbgrader's student version
        submitted/STUDENT/NAME/    the submissions that are graded
        autograded/STUDENT/NAME/   the executed, graded submissions
    build/release/NAME/NAME.ipynb  the student version to hand out
    build/logs/                    nbgrader's output, one file per run
    build/grades.csv               one row per student, one column per question

``release`` strips solutions and hidden tests (``nbgrader generate_assignment``).
``grade`` copies ``DIR/STUDENT/NAME/NAME.ipynb`` into the course, runs
``nbgrader autograde`` once per student (the graded test cells and hidden tests
are restored from the gradebook, so students cannot edit them), and writes the
table. Each cell runs under ``--timeout`` seconds (nbgrader interrupts the
kernel and the cell scores zero), each student under a wall-clock limit (the
whole process tree is killed), so a crash or an infinite loop costs that
student the affected questions and never stops the grading of the others.

Data files are not copied: the notebooks read them through the ``helpers``
package, installed in editable mode, which resolves paths from the package.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil

REPO = Path(__file__).resolve().parent.parent
# nbgrader's Gradebook shells out to the `alembic` command found on PATH; with
# `.venv/bin/python tools/grading.py` (no activated venv) that is not on PATH.
BIN = str(Path(sys.executable).parent)
if BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = BIN + os.pathsep + os.environ.get("PATH", "")
COURSE_ID = "model-evaluation"
DEFAULT_TIMEOUT = 60
WARNING_PATTERN = r"\w+Warning: "  # how Python prints a warning: "file.py:86: UserWarning: ..."
CONFIG = '''\
# Written by tools/grading.py on every run; edit the script, not this file.
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
# Seconds a cell may run while autograding; then the kernel is interrupted and
# the cell records a CellTimeoutError (zero points for a test cell).
c.Execute.timeout = {timeout}
c.Execute.interrupt_on_timeout = True
# nbgrader scores a test cell 0 as soon as it writes anything to stderr. A
# Python warning (say a scikit-learn UserWarning raised inside a test) is not a
# failed test: drop such outputs before scoring. Exceptions still score 0.
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = {warning_pattern!r}
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

    def student_release(self, name: str) -> Path:
        return self.root / "release" / name / f"{name}.ipynb"

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
        text = CONFIG.format(course_id=COURSE_ID, root=str(self.course), timeout=int(timeout),
                             warning_pattern=WARNING_PATTERN)
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

        target = course.student_release(name).parent
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(course.nbgrader_release(name).parent, target)
        paths.append(course.student_release(name))
        print(f"{name}: student version in {course.student_release(name)}")
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


# --------------------------------------------------------------------------- grade

@dataclass
class Result:
    student: str
    status: str                       # graded | timeout | missing | error | killed
    scores: dict[str, float | None]   # grade_id -> score (None: needs manual grading)
    seconds: float = 0.0


def collect(course: Course, name: str, submissions: Path) -> list[str]:
    """Students with a DIR/STUDENT/NAME folder; copied into the course if DIR is elsewhere."""
    submissions = submissions.resolve()
    if not submissions.is_dir():
        raise SystemExit(f"no submissions folder {submissions}: lay submissions out as "
                         f"DIR/STUDENT/{name}/{name}.ipynb and pass --submissions DIR")
    students = sorted(p.name for p in submissions.iterdir()
                      if p.is_dir() and not p.name.startswith(".") and (p / name).is_dir())
    if not students:
        raise SystemExit(f"no submission of {name} in {submissions} (expected STUDENT/{name}/{name}.ipynb)")
    if submissions != (course.course / "submitted").resolve():
        for student in students:
            target = course.submitted(student, name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(submissions / student / name, target,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    return students


def grade_student(course: Course, name: str, student: str, questions: list[str], n_cells: int,
                  timeout: int) -> Result:
    from nbgrader.api import MissingEntry
    with course.gradebook() as gb:          # a failed run must not leave old scores behind
        try:
            gb.remove_submission(name, student)
        except MissingEntry:
            pass
    shutil.rmtree(course.autograded(student, name).parent, ignore_errors=True)
    if not (course.submitted(student, name) / f"{name}.ipynb").is_file():
        return Result(student, "missing", {q: 0.0 for q in questions})

    start = time.perf_counter()
    wall_limit = timeout * (n_cells + 2) + 120
    code = run_nbgrader(course, ["autograde", name, "--student", student, "--force"],
                        course.log(f"grade-{name}-{student}"), wall_limit)
    seconds = time.perf_counter() - start
    graded = course.autograded(student, name)
    if code is None:
        status = "killed"
    elif code != 0 or not graded.is_file():
        status = "error"
    elif any(output.get("ename") == "CellTimeoutError"
             for cell in nbformat.read(graded, as_version=4).cells
             for output in cell.get("outputs", [])):
        status = "timeout"
    else:
        status = "graded"

    scores: dict[str, float | None] = {q: 0.0 for q in questions}
    if status in ("graded", "timeout"):
        with course.gradebook() as gb:
            notebook = gb.find_submission_notebook(name, name, student)
            for grade in notebook.grades:
                score = grade.manual_score if grade.manual_score is not None else grade.auto_score
                scores[grade.name] = score
    return Result(student, status, scores, seconds)


def grade(course: Course, name: str, submissions: Path | None, timeout: int, output: Path) -> list[Result]:
    students = collect(course, name, submissions or course.course / "submitted")
    if needs_release(course, name):
        print(f"{name}: releasing first")
        release(course, [name], timeout)
    course.write_config(timeout)

    source = nbformat.read(course.source(name), as_version=4)
    questions = question_ids(source)
    with course.gradebook() as gb:
        max_scores = {cell.name: cell.max_score for cell in gb.find_notebook(name, name).grade_cells}
    n_cells = sum(cell.cell_type == "code" for cell in source.cells)

    print(f"{name}: grading {len(students)} submission(s), {timeout} s per cell")
    results = []
    for student in students:
        result = grade_student(course, name, student, questions, n_cells, timeout)
        print(f"  {student}: {result.status} ({result.seconds:.1f} s)", flush=True)
        results.append(result)

    rows = table(results, questions, max_scores)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    print(format_table(rows))
    print(f"grades in {output}; graded notebooks in {course.course / 'autograded'}; "
          f"nbgrader logs in {course.root / 'logs'}")
    notes = {
        "timeout": f"a cell ran over {timeout} s and was interrupted; a test cell interrupted scores 0",
        "error": "nbgrader could not finish the notebook (kernel died, unreadable file...): every question 0",
        "killed": "the grading of this submission ran over its wall-clock limit and was killed: every question 0",
        "missing": f"no {name}.ipynb in the student's {name}/ folder: every question 0",
    }
    for status in sorted({r.status for r in results} & set(notes)):
        print(f"{status}: {notes[status]}")
    if any(v is None for r in results for v in r.scores.values()):
        print("an empty score needs manual grading (nbgrader formgrader in the course folder)")
    return results


def number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def table(results: list[Result], questions: list[str], max_scores: dict[str, float]) -> list[list[str]]:
    maximum = sum(max_scores[q] for q in questions)
    rows = [["student", *questions, "total", "max", "status"]]
    for r in results:
        total = sum(v for v in r.scores.values() if v is not None)
        rows.append([r.student, *(number(r.scores.get(q)) for q in questions),
                     number(total), number(maximum), r.status])
    return rows


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


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
                     help="folder of STUDENT/NAME/NAME.ipynb (default: ROOT/course/submitted)")
    gra.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                     help="limit per cell; a cell running longer is interrupted and scores 0 (default: %(default)s)")
    gra.add_argument("--output", type=Path, metavar="CSV", help="grade table (default: ROOT/grades.csv)")

    args = parser.parse_args(argv)
    course = Course(args.root, args.notebooks)
    if args.command == "release":
        names = args.assignment or find_assignments(course.notebooks)
        if not names:
            raise SystemExit(f"no notebook with nbgrader cells in {course.notebooks}")
        release(course, names)
    else:
        if args.timeout < 1:
            parser.error("--timeout must be at least 1 second")
        grade(course, args.assignment, args.submissions, args.timeout, args.output or course.root / "grades.csv")


if __name__ == "__main__":
    main()
