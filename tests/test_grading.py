"""The grading tooling (tools/grading.py) on a tiny fixture and on the course notebooks.

A fixture assignment with two questions is released and submissions are
graded: correct, wrong (passes the visible test, fails the hidden one),
crashing, looping, left blank, warning on stderr and killing its kernel. Then
every course notebook with nbgrader cells is released (no solution or hidden
test may survive, the visible tests must) and the instructor version,
submitted as is, must get full marks.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "grading.py"
NOTEBOOKS = ROOT / "notebooks"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

_spec = importlib.util.spec_from_file_location("grading", TOOL)
grading = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("grading", grading)  # dataclasses look their module up there
_spec.loader.exec_module(grading)

pytestmark = pytest.mark.slow


def run_tool(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                            timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, f"grading.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def read_grades(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


# --------------------------------------------------------------------------- fixture

def nbgrader(grade_id: str, *, solution: bool = False, grade: bool = False, points: int = 0) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return {"nbgrader": meta}


SQUARE = "def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION\n"
MEAN = "def mean(values):\n    ### BEGIN SOLUTION\n    return sum(values) / len(values)\n    ### END SOLUTION\n"
SQUARE_TESTS = ('assert square(3) == 9, "square(3) should be 9"\n'
                "### BEGIN HIDDEN TESTS\nassert square(-4) == 16\n### END HIDDEN TESTS\n")
MEAN_TESTS = ('assert mean([1, 2, 3]) == 2, "mean([1, 2, 3]) should be 2"\n'
              "### BEGIN HIDDEN TESTS\nassert mean([1, 2]) == 1.5\n### END HIDDEN TESTS\n")


def fixture_notebook() -> nbformat.NotebookNode:
    v4 = nbformat.v4
    notebook = v4.new_notebook(metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    notebook.cells = [
        v4.new_markdown_cell("# Homework\nTwo small functions."),
        v4.new_code_cell("import math"),
        v4.new_code_cell(SQUARE, metadata=nbgrader("square-answer", solution=True)),
        v4.new_code_cell(SQUARE_TESTS, metadata=nbgrader("square-tests", grade=True, points=2)),
        v4.new_code_cell(MEAN, metadata=nbgrader("mean-answer", solution=True)),
        v4.new_code_cell(MEAN_TESTS, metadata=nbgrader("mean-tests", grade=True, points=3)),
    ]
    return notebook


# What each student writes in the two solution cells (None: the released stub).
SUBMISSIONS = {
    "correct": ("def square(x):\n    return x * x\n",
                "def mean(values):\n    return sum(values) / len(values)\n"),
    # integer division passes the visible test mean([1, 2, 3]) == 2, fails the hidden one
    "wrong": ("def square(x):\n    return x * x\n",
              "def mean(values):\n    return sum(values) // len(values)\n"),
    "crashing": ("import no_such_module_for_grading\n\ndef square(x):\n    return x * x\n",
                 "def mean(values):\n    return sum(values) / len(values)\n"),
    "looping": ("def square(x):\n    return x * x\n",
                "def mean(values):\n    while True:\n        pass\n"),
    "blank": (None, None),
    # correct, but warns inside the test cell: a warning on stderr is not a failed test
    "warning": ("def square(x):\n    return x * x\n",
                "import warnings\n\ndef mean(values):\n    warnings.warn('summing floats', UserWarning)\n"
                "    return sum(values) / len(values)\n"),
    # kills its kernel: nbgrader cannot finish the notebook, the student gets 0 and status "error"
    "dying": ("import os\nos._exit(1)\n", "def mean(values):\n    return sum(values) / len(values)\n"),
}
EXPECTED = {  # student: (square-tests, mean-tests, total, status)
    "correct": ("2", "3", "5", "graded"),
    "wrong": ("2", "0", "2", "graded"),
    "crashing": ("0", "3", "3", "graded"),
    "looping": ("2", "0", "2", "timeout"),
    "blank": ("0", "0", "0", "graded"),
    "warning": ("2", "3", "5", "graded"),
    "dying": ("0", "0", "0", "error"),
}


def submission(student_version: nbformat.NotebookNode, answers) -> nbformat.NotebookNode:
    notebook = nbformat.from_dict(student_version)
    cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell for cell in notebook.cells}
    for grade_id, answer in zip(["square-answer", "mean-answer"], answers):
        if answer is not None:
            cells[grade_id].source = answer
    return notebook


def test_grades_correct_wrong_crashing_and_looping_submissions(tmp_path):
    notebooks, build, submitted = tmp_path / "notebooks", tmp_path / "build", tmp_path / "submitted"
    notebooks.mkdir()
    nbformat.write(fixture_notebook(), notebooks / "hw.ipynb")
    common = ["--root", str(build), "--notebooks", str(notebooks)]

    run_tool("release", *common)
    student_version = nbformat.read(build / "release" / "hw" / "hw.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in student_version.cells)
    assert "return x * x" not in text and "square(-4)" not in text and "mean([1, 2])" not in text
    assert "raise NotImplementedError" in text and "assert square(3) == 9" in text

    for student, answers in SUBMISSIONS.items():
        folder = submitted / student / "hw"
        folder.mkdir(parents=True)
        nbformat.write(submission(student_version, answers), folder / "hw.ipynb")

    start = time.perf_counter()
    result = run_tool("grade", *common, "--assignment", "hw", "--submissions", str(submitted),
                      "--timeout", "5", timeout=300)
    seconds = time.perf_counter() - start
    print(result.stdout)
    print(f"grading {len(SUBMISSIONS)} submissions took {seconds:.1f} s")

    grades = read_grades(build / "grades.csv")
    assert list(next(iter(grades.values()))) == ["student", "square-tests", "mean-tests", "total", "max", "status"]
    got = {s: (r["square-tests"], r["mean-tests"], r["total"], r["status"]) for s, r in grades.items()}
    assert got == EXPECTED
    assert {r["max"] for r in grades.values()} == {"5"}
    assert "student" in result.stdout and "looping" in result.stdout  # the table is printed
    # The looping submission was interrupted by the 5 s cell timeout, not by the wall-clock kill.
    graded = nbformat.read(build / "course" / "autograded" / "looping" / "hw" / "hw.ipynb", as_version=4)
    enames = [o.get("ename") for cell in graded.cells for o in cell.get("outputs", [])]
    assert "CellTimeoutError" in enames
    assert seconds < 150

    # A re-submission replaces the old scores (nothing stale is left in the gradebook).
    fixed = tmp_path / "resubmitted" / "wrong" / "hw"
    fixed.mkdir(parents=True)
    nbformat.write(submission(student_version, SUBMISSIONS["correct"]), fixed / "hw.ipynb")
    run_tool("grade", *common, "--assignment", "hw", "--submissions", str(tmp_path / "resubmitted"),
             "--timeout", "5", timeout=300)
    row = read_grades(build / "grades.csv")["wrong"]
    assert (row["square-tests"], row["mean-tests"], row["total"], row["status"]) == ("2", "3", "5", "graded")


# --------------------------------------------------------------------------- course notebooks

COURSE_NOTEBOOKS = grading.find_assignments(NOTEBOOKS)  # empty until a notebook has exercises
# nbgrader's markers: any line containing the words (``### BEGIN SOLUTION``, ``<!-- BEGIN SOLUTION -->``...)
SOLUTION = re.compile(r"^[^\n]*BEGIN SOLUTION.*?^[^\n]*END SOLUTION[^\n]*$", re.S | re.M)
HIDDEN = re.compile(r"^[^\n]*BEGIN HIDDEN TESTS.*?^[^\n]*END HIDDEN TESTS[^\n]*$", re.S | re.M)


def lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def removed_and_kept(source: str, pattern: re.Pattern) -> tuple[set[str], set[str]]:
    """Lines inside the marked regions (that do not also occur outside) and lines outside."""
    inside = set().union(*(lines(m.group(0)) for m in pattern.finditer(source)))
    outside = lines(pattern.sub("", source))
    return inside - outside, outside


@pytest.mark.parametrize("name", COURSE_NOTEBOOKS)
def test_course_notebook_release_and_full_marks(name, tmp_path):
    build = tmp_path / "build"
    common = ["--root", str(build), "--notebooks", str(NOTEBOOKS)]
    run_tool("release", *common, "--assignment", name)
    instructor = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    student = nbformat.read(build / "release" / name / f"{name}.ipynb", as_version=4)

    student_text = "\n".join(cell.source for cell in student.cells)
    for marker in ["BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"]:
        assert marker not in student_text
    by_id = {cell.metadata.nbgrader["grade_id"]: cell for cell in grading.nbgrader_cells(student)}
    for cell in grading.nbgrader_cells(instructor):
        meta = cell.metadata.nbgrader
        released = lines(by_id[meta["grade_id"]].source)
        if meta.get("solution"):
            if SOLUTION.search(cell.source):
                secret, _ = removed_and_kept(cell.source, SOLUTION)
            else:  # a solution cell without markers is replaced as a whole
                secret = lines(cell.source)
            assert not secret & released, f"{meta['grade_id']}: solution text in the student version"
        if meta.get("grade") and not meta.get("solution"):
            hidden, visible = removed_and_kept(cell.source, HIDDEN)
            assert not hidden & released, f"{meta['grade_id']}: hidden tests in the student version"
            assert visible <= released, f"{meta['grade_id']}: visible tests missing in the student version"

    # The instructor notebook, submitted unchanged, gets every point.
    submitted = tmp_path / "submitted" / "instructor" / name
    submitted.mkdir(parents=True)
    nbformat.write(instructor, submitted / f"{name}.ipynb")
    run_tool("grade", *common, "--assignment", name,
             "--submissions", str(tmp_path / "submitted"), timeout=1200)
    row = read_grades(build / "grades.csv")["instructor"]
    assert row["status"] == "graded", row
    graded = [cell.metadata.nbgrader for cell in grading.nbgrader_cells(instructor)
              if cell.metadata.nbgrader.get("grade")]
    assert graded, "no graded question"
    for meta in graded:
        if meta.get("solution"):  # a manually graded answer: nbgrader leaves its score empty
            assert row[meta["grade_id"]] == "", (meta["grade_id"], row)
        else:                     # an autograded test cell: every point
            assert float(row[meta["grade_id"]]) == meta["points"], (meta["grade_id"], row)
