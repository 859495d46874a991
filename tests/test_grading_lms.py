"""Grades into the LMS, re-grading one student, late submissions (issue 20).

On the two-question fixture of tests/test_grading.py: a roster maps submission
names to LMS identities; ``grade --roster`` writes Canvas's gradebook import
CSV (its documented columns Student, ID, SIS User ID, SIS Login ID, Section,
then the assignment's column, with the Points Possible row of Canvas's own
export) and Moodle's CSV grade import (keyed by ID number or email address:
the teacher maps those columns on import). A submission missing from the roster
and a roster student without a submission are reported and get no row. A bad
roster stops the run before anything is written. ``--student`` re-grades one
student and leaves the others' rows and feedback untouched; ``--deadline``
marks late submissions (nbgrader's timestamp.txt, else the file's time);
``--late-penalty`` only then takes points off.
"""

from __future__ import annotations

import csv
import os
import uuid
from pathlib import Path

import nbformat
import pytest

from conftest import grading_tests, release_homework

base = grading_tests()   # tests/test_grading.py's helpers (tests/conftest.py)
grading = base.grading

pytestmark = pytest.mark.slow
WRONG_MEAN = "def mean(values):\n    return sum(values) // len(values)\n"
ROSTER = [
    ["submission", "name", "canvas_id", "sis_user_id", "sis_login_id", "section", "id_number", "email"],
    ["alice", "Lovelace, Ada", "101", "S-1", "ada", "Tuesday", "A001", "ada@example.org"],
    ["bob", "Babbage, Charles", "102", "S-2", "charles", "Tuesday", "A002", "charles@example.org"],
    ["dave", "Hopper, Grace", "104", "S-4", "grace", "Friday", "A004", "grace@example.org"],   # no submission
]
DEADLINE = "2026-11-20T10:00:00+00:00"


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lms")
    build, submitted, common, released = release_homework(base, tmp)
    answers = {"alice": (base.GOOD_SQUARE, base.GOOD_MEAN), "bob": (base.GOOD_SQUARE, WRONG_MEAN),
               "carol": (base.GOOD_SQUARE, base.GOOD_MEAN)}   # carol is not on the roster
    for student, pair in answers.items():
        folder = submitted / student / "hw"
        folder.mkdir(parents=True)
        nbformat.write(base.submission(released, pair), folder / "hw.ipynb")
    # alice: on time by the file's time; bob: 2.5 h late by nbgrader's timestamp.txt; carol: late by file time
    os.utime(submitted / "alice" / "hw" / "hw.ipynb", (1_763_550_000, 1_763_550_000))   # 2025-11-19
    (submitted / "bob" / "hw" / "timestamp.txt").write_text("2026-11-20 12:30:00.000000 UTC\n")
    roster = tmp / "roster.csv"
    with roster.open("w", newline="") as handle:
        csv.writer(handle).writerows(ROSTER)
    uid_base = 64600 + (uuid.uuid4().int % 300) * 10
    grade = ["grade", *common, "--assignment", "hw", "--submissions", str(submitted), "--timeout", "20",
             "--student-timeout", "60", "--uid-base", str(uid_base), "--roster", str(roster),
             "--deadline", DEADLINE, "--late-penalty", "1"]
    result = base.run_tool(*grade)
    print(result.stdout)
    return {"build": build, "submitted": submitted, "released": released, "roster": roster, "grade": grade,
            "stdout": result.stdout, "tmp": tmp, "common": common}


def test_lms_canvas_file_has_the_documented_columns_and_only_roster_students(graded):
    rows = read_csv(graded["build"] / "lms" / "hw-canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "hw"]
    assert rows[1] == ["    Points Possible", "", "", "", "", "5"]
    # bob: 2 points, 3 started hours late at 1 point an hour, never below 0
    assert rows[2:] == [["Lovelace, Ada", "101", "S-1", "ada", "Tuesday", "5"],
                        ["Babbage, Charles", "102", "S-2", "charles", "Tuesday", "0"]]


def test_lms_moodle_file_is_keyed_by_id_number_and_email(graded):
    rows = read_csv(graded["build"] / "lms" / "hw-moodle.csv")
    assert rows == [["First name", "Last name", "ID number", "Email address", "hw"],
                    ["Ada", "Lovelace", "A001", "ada@example.org", "5"],
                    ["Charles", "Babbage", "A002", "charles@example.org", "0"]]


def test_lms_unmatched_students_are_reported_never_guessed(graded):
    assert "roster: submission 'carol' is not on the roster" in graded["stdout"]
    assert "roster student 'dave' (Hopper, Grace) has no submission" in graded["stdout"]
    text = (graded["build"] / "lms" / "hw-canvas.csv").read_text() + (graded["build"] / "lms" / "hw-moodle.csv").read_text()
    assert "carol" not in text and "Hopper" not in text
    assert "carol" in base.read_grades(graded["build"] / "grades.csv")   # still graded in the table


def test_late_submissions_are_marked_and_penalised_only_as_asked(graded):
    grades = base.read_grades(graded["build"] / "grades.csv")
    assert (grades["alice"]["late"], grades["alice"]["penalty"], grades["alice"]["total"]) == ("", "", "5")
    assert grades["bob"]["late"] == "2.5 h late (timestamp.txt)"
    assert (grades["bob"]["mean-tests"], grades["bob"]["penalty"], grades["bob"]["total"]) == ("0", "2", "0")
    assert grades["carol"]["late"].endswith("h late (file time)")
    page = (graded["build"] / "feedback" / "hw" / "bob.html").read_text()
    assert "Handed in late:" in page and "2 points taken off (2 scored)" in page


def test_lms_bad_roster_stops_before_anything_is_written(graded, tmp_path):
    roster = tmp_path / "roster.csv"
    with roster.open("w", newline="") as handle:
        csv.writer(handle).writerows(ROSTER + [["alice", "Again, Alice", "105", "", "", "", "", ""]])
    build = tmp_path / "build"
    args = [a if a != str(graded["roster"]) else str(roster) for a in graded["grade"]]
    args[args.index("--root") + 1] = str(build)
    import subprocess
    import sys
    result = subprocess.run([sys.executable, str(base.TOOL), *args], capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "submission 'alice' already on line 2" in result.stderr
    assert not (build / "grades.csv").exists() and not (build / "lms").exists()


def test_lms_regrade_one_student_updates_their_rows_only(graded):
    build, submitted = graded["build"], graded["submitted"]
    before = {row[0]: row for row in read_csv(build / "grades.csv")}
    alice_page = (build / "feedback" / "hw" / "alice.html").stat().st_mtime_ns
    # bob hands in a corrected notebook, on time
    path = submitted / "bob" / "hw" / "hw.ipynb"
    nbformat.write(base.submission(graded["released"], (base.GOOD_SQUARE, base.GOOD_MEAN)), path)
    (submitted / "bob" / "hw" / "timestamp.txt").write_text("2026-11-20 09:00:00 UTC\n")
    result = base.run_tool(*graded["grade"], "--student", "bob")
    assert "alice:" not in result.stdout and "bob:" in result.stdout   # only bob was graded
    after = {row[0]: row for row in read_csv(build / "grades.csv")}
    assert set(after) == set(before)
    assert after["alice"] == before["alice"] and after["carol"] == before["carol"]
    assert after["bob"][1:4] == ["2", "3", "5"] and before["bob"][1:4] == ["2", "0", "0"]
    canvas = read_csv(build / "lms" / "hw-canvas.csv")
    assert canvas[2][-1] == "5" and canvas[3] == ["Babbage, Charles", "102", "S-2", "charles", "Tuesday", "5"]
    assert "5 / 5" in (build / "feedback" / "hw" / "bob.html").read_text()
    assert (build / "feedback" / "hw" / "alice.html").stat().st_mtime_ns == alice_page
    assert not list(build.rglob(".*.tmp"))
    # a student with no submission cannot be re-graded: said, and nothing changes
    table = (build / "grades.csv").read_bytes()
    import subprocess
    import sys
    failed = subprocess.run([sys.executable, str(base.TOOL), *graded["grade"], "--student", "dave"],
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0 and "no submission of hw by 'dave'" in failed.stderr
    assert (build / "grades.csv").read_bytes() == table


def test_feedback_page_structure_is_accessible():
    """lang, a title, one main, h1 then h2, header cells with scope, text in dark grey or black on white."""
    import re as regex
    plan = grading.Plan("hw", ["q1-tests", "q2-tests"], {"q1-tests": 2, "q2-tests": 3}, [], ["q1-answer", "q2-answer"],
                        {"q1-tests", "q2-tests"}, [], {"q1-tests": "q1-answer", "q2-tests": "q2-answer"})
    result = grading.Result("bob <b>", "graded", {"q1-tests": 2.0, "q2-tests": 0.0}, note="cell 3: skipped !pip install x",
                            feedback={"q2-tests": "mean([1, 2, 3]) should be 2"}, late="2.5 h late (timestamp.txt)",
                            penalty=1.0)
    [(_, page)] = grading.feedback_pages(plan, [result])
    assert '<html lang="en">' in page and "<title>hw: bob &lt;b&gt;</title>" in page
    assert page.count("<main>") == page.count("</main>") == 1
    assert regex.findall(r"<h(\d)", page) == ["1", "2"]
    assert page.count('<th scope="col">') == 3 and page.count('<th scope="row">') == 2
    assert "Score: <strong>1 / 5</strong>" in page and "1 points taken off (2 scored)" in page
    assert "skipped !pip install x" in page and "<b>" not in page.split("<body>")[1]   # escaped
    assert "color:#111;background:#fff" in page and "border:1px solid #767676" in page
