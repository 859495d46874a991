"""Timeout and crash notes name where the time went or what crashed (issue 44).

On the fixture homework of tests/test_grading.py (its answer cells are named by their grade ids): a cell whose top-level code loops (its function is right),
a cell that calls a looping helper function, and a hand-in whose process dies (a segmentation fault) in the
mean exercise's cell after a correct square answer. The notes say "the code of ... outside any function", "the
function spin", and the cell the process died in; every question of the crashed hand-in reads "not tested"
rather than the tests' NameError.
"""

from __future__ import annotations

import uuid

import nbformat
import pytest

from conftest import grading_tests, release_homework

base = grading_tests()
pytestmark = pytest.mark.slow

HAND_INS = {
    "toplevel": (base.GOOD_SQUARE + "i = 0\nwhile i < 10:\n    pass\n", base.GOOD_MEAN),
    "helper": (base.GOOD_SQUARE + "def spin():\n    while True:\n        pass\nspin()\n", base.GOOD_MEAN),
    "segfault": (base.GOOD_SQUARE, base.GOOD_MEAN + "import ctypes\nctypes.string_at(0)\n"),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("notes")
    build, flat, common, released = release_homework(base, tmp)
    flat.mkdir()
    for student, answers in HAND_INS.items():
        nbformat.write(base.submission(released, answers), flat / f"{student}.ipynb")
    uid_base = 64600 + (uuid.uuid4().int % 300) * 10
    base.run_tool("grade", *common, "--assignment", "hw", "--submissions", str(flat), "--timeout", "3",
                  "--uid-base", str(uid_base), "--no-similarity")
    return build, base.read_grades(build / "grades.csv")


def test_a_loop_in_the_cells_own_code_is_not_blamed_on_its_function(graded):
    _, grades = graded
    row = grades["toplevel"]
    assert row["status"] == "timeout"
    assert "the code of square-answer (your answer) outside any function ran over 3 s" in row["note"], row["note"]
    assert "the function square" not in row["note"]


def test_a_loop_in_a_function_names_that_function(graded):
    _, grades = graded
    note = grades["helper"]["note"]
    assert "the function spin (called in square-answer (your answer)) ran over 3 s" in note, note


def test_a_crash_names_its_cell_and_the_questions_read_not_tested(graded):
    build, grades = graded
    row = grades["segfault"]
    assert row["status"] == "crashed" and row["total"] == "0"
    assert "the notebook's process died in mean-answer (your answer)" in row["note"], row["note"]
    page = (build / "feedback" / "hw" / "segfault.html").read_text(encoding="utf-8")
    assert page.count("not tested: the notebook&#x27;s process died in mean-answer (your answer)") == 2, page
    assert "NameError" not in page
