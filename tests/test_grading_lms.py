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

Issue 35: ``--lms-column`` names the gradebook's column ("HW1: Metrics (4242)", as Canvas's export has
it), ``--lms-points`` scales the total to the LMS item's maximum; rows needing the teacher (unreadable,
flagged...) are held back and listed unless ``--lms-export-all``; a roster student without a usable
identity is left out and named; e-mails go out as the roster has them (issue 44); Canvas's gradebook export
and Moodle's participants download (tests/lms/, their real column layouts) are read as rosters as they
are; every CSV cell that would start a formula is neutralised (OWASP), in grades.csv and the LMS files;
``make grade`` passes LMS_COLUMN, LMS_POINTS and LMS_EXPORT_ALL through.
"""

from __future__ import annotations

import csv
import os
import uuid
from pathlib import Path

import nbformat
import pytest

from conftest import grading_tests, release_homework, stand_in_python

base = grading_tests()   # tests/test_grading.py's helpers (tests/conftest.py)
grading = base.grading

pytestmark = pytest.mark.slow
WRONG_MEAN = "def mean(values):\n    return sum(values) // len(values)\n"
ROSTER = [
    ["submission", "name", "canvas_id", "sis_user_id", "sis_login_id", "section", "id_number", "email"],
    ["alice", "Lovelace, Ada", "101", "S-1", "ada", "Tuesday", "A001", "ada@example.org"],
    ["bob", "Babbage, Charles", "102", "S-2", "charles", "Tuesday", "A002", "charles@example.org"],
    ["dave", "Hopper, Grace", "104", "S-4", "grace", "Friday", "A004", "grace@example.org"],   # no submission
    ["erin", "Noether, Emmy", "105", "S-5", "emmy", "Friday", "A005", "emmy@example.org"],   # corrupted upload
]
INJECTION = '=HYPERLINK("http---evil.example","x")'   # a hand-in's name, not on the roster
COLUMN = "HW1: Metrics (4242)"
FIXTURES = Path(__file__).with_name("lms")
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
    for student in ("erin", INJECTION):   # corrupted uploads: no sandbox time
        (submitted / student / "hw").mkdir(parents=True)
        (submitted / student / "hw" / "hw.ipynb").write_text('{"cells": [')
    os.utime(submitted / "alice" / "hw" / "hw.ipynb", (1_763_550_000, 1_763_550_000))   # 2025-11-19
    (submitted / "bob" / "hw" / "timestamp.txt").write_text("2026-11-20 12:30:00.000000 UTC\n")
    roster = tmp / "roster.csv"
    with roster.open("w", newline="") as handle:
        csv.writer(handle).writerows(ROSTER)
    uid_base = 64600 + (uuid.uuid4().int % 300) * 10
    grade = ["grade", *common, "--assignment", "hw", "--submissions", str(submitted), "--timeout", "20",
             "--student-timeout", "60", "--uid-base", str(uid_base), "--roster", str(roster),
             "--deadline", DEADLINE, "--late-penalty", "1", "--lms-column", COLUMN, "--lms-points", "100"]
    result = base.run_tool(*grade)
    print(result.stdout)
    return {"build": build, "submitted": submitted, "released": released, "roster": roster, "grade": grade,
            "stdout": result.stdout, "tmp": tmp, "common": common}


def test_lms_canvas_file_has_the_documented_columns_and_only_roster_students(graded):
    rows = read_csv(graded["build"] / "lms" / "hw-canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", COLUMN]
    assert rows[1] == ["    Points Possible", "", "", "", "", "100"]
    # bob: 2 points, 3 started hours late at 1 point an hour, never below 0; 5 / 5 is 100 / 100;
    # erin's corrupted upload is held back for the teacher
    assert rows[2:] == [["Lovelace, Ada", "101", "S-1", "ada", "Tuesday", "100"],
                        ["Babbage, Charles", "102", "S-2", "charles", "Tuesday", "0"]]


def test_lms_moodle_file_is_keyed_by_id_number_and_email(graded):
    rows = read_csv(graded["build"] / "lms" / "hw-moodle.csv")
    assert rows == [["First name", "Last name", "ID number", "Email address", COLUMN],
                    ["Ada", "Lovelace", "A001", "ada@example.org", "100"],
                    ["Charles", "Babbage", "A002", "charles@example.org", "0"]]


def test_lms_rows_needing_the_teacher_are_held_back_and_listed(graded):
    grades = base.read_grades(graded["build"] / "grades.csv")
    assert grades["erin"]["status"] == "unreadable" and grades["erin"]["total"] == "0"
    assert "held back from the LMS files until you review them" in graded["stdout"]
    assert "erin (unreadable)" in graded["stdout"]
    page = (graded["build"] / "feedback" / "hw" / "erin.html").read_text()
    assert "feedback for Emmy Noether" in page and "<strong>What to do:</strong>" in page
    assert "feedback for Ada Lovelace" in (graded["build"] / "feedback" / "hw" / "alice.html").read_text()
    assert "Noether" not in (graded["build"] / "lms" / "hw-canvas.csv").read_text()


def test_grade_table_neutralises_a_formula_in_a_hand_in_name(graded):
    text = (graded["build"] / "grades.csv").read_text(encoding="utf-8")
    assert '"\'=HYPERLINK(""http---evil.example"",""x"")"' in text
    assert not any(line.startswith("=") for line in text.splitlines())
    grades = base.read_grades(graded["build"] / "grades.csv")
    assert grades["'" + INJECTION]["status"] == "unreadable"


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
    assert after["'" + INJECTION] == before["'" + INJECTION]   # read back and written again, once neutralised
    canvas = read_csv(build / "lms" / "hw-canvas.csv")
    assert canvas[2][-1] == "100" and canvas[3] == ["Babbage, Charles", "102", "S-2", "charles", "Tuesday", "100"]
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
    # on a phone: the viewport follows the device, the body keeps a side margin, a wide table scrolls
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "margin:2em auto;padding:0 1em" in page and 'class="scroll" role="region"' in page


def test_feedback_page_speaks_to_the_student():
    """The roster's name, the exercise's label, what to do with an unreadable upload."""
    plan = grading.Plan("03_cross_validation", ["ex1-tests", "ex2-tests"], {"ex1-tests": 2, "ex2-tests": 3}, [],
                        ["ex1-answer", "ex2-answer"], {"ex1-tests", "ex2-tests"}, [],
                        {"ex1-tests": "ex1-answer", "ex2-tests": "ex2-answer"},
                        labels=grading.exercise_labels(nbformat.read(base.NOTEBOOKS / "03_cross_validation.ipynb",
                                                                     as_version=4)))
    assert plan.label("ex2-tests") == plan.label("ex2-answer") == "Exercise 2: fold_aucs"
    assert plan.label("ex5-tests") == "Exercise 5: corrected_t" and plan.label("other") == "other"
    zero = {"ex1-tests": 0.0, "ex2-tests": 0.0}
    results = [grading.Result("nguyen", "graded", {"ex1-tests": 2.0, "ex2-tests": 0.0}),
               grading.Result("erin", "unreadable", zero, note="not a notebook: invalid JSON (line 1)")]
    (_, page), (_, unreadable) = grading.feedback_pages(plan, results, {"nguyen": "Thị Hà Nguyễn"})
    assert "<h1>03_cross_validation: feedback for Thị Hà Nguyễn</h1>" in page
    assert '<th scope="row">Exercise 2: fold_aucs</th>' in page and "ex2-tests" not in page
    assert "feedback for erin" in unreadable   # no roster name: the submission's
    assert ("<strong>What to do:</strong> your file could not be opened as a notebook, so nothing in it was graded."
            in unreadable and "hand in that 03_cross_validation.ipynb again" in unreadable)
    assert "What to do" not in page


def test_notes_name_the_exercise_and_never_ipythons_cell_files():
    import nbformat.v4 as v4
    notebook = nbformat.read(base.NOTEBOOKS / "03_cross_validation.ipynb", as_version=4)
    labels = grading.exercise_labels(notebook)
    plan = grading.Plan("03_cross_validation", [], {}, [], [k for k in labels if k.endswith("-answer")],
                        {k for k in labels if k.endswith("-tests")}, [], {}, labels=labels)
    notebook.cells.insert(10, v4.new_code_cell("x = input()"))   # a student's own cell early on
    cells, _, answer_at, test_at = grading.student_cells(plan, notebook)
    place = grading.cell_places(plan, notebook, answer_at, test_at)
    assert place(answer_at["ex2-answer"]) == "Exercise 2: fold_aucs (your answer)"
    assert place(answer_at["ex2-answer"] + 2) == "a cell after Exercise 2: fold_aucs"   # the next exercise's text
    heading = next(line.lstrip("#").strip() for cell in reversed(notebook.cells[:10])
                   if cell.cell_type == "markdown" for line in cell.source.splitlines() if line.startswith("#"))
    assert place(10) == f'a cell under the heading "{heading[:60]}"'
    assert place(0) == "cell 1"   # nothing above it names it
    assert grading.plain("SyntaxError: invalid syntax (<ipython-input-2-881118ca0d22>, line 3)") == \
        "SyntaxError: invalid syntax (your cell, line 3)"
    assert grading.plain('File "<answer fold_aucs>", line 2') == 'File "your cell", line 2'


# --------------------------------------------------------------------------- the export alone (no grading)

TABLE = [["student", "q1", "total", "max", "status", "flag", "note"],
         ["ada", "12", "12", "12", "graded", "", ""],
         ["charles", "7", "7", "12", "graded", "", ""],
         ["grace", "2", "2", "12", "graded", "cell 4: np.allclose patched", ""],
         ["ha.nguyen", "0", "0", "12", "unreadable", "", "unreadable file (JSONDecodeError)"],
         ["nguyen", "9", "9", "12", "graded", "", ""]]


def test_lms_canvas_gradebook_export_is_a_roster_as_it_is():
    roster = grading.read_roster(FIXTURES / "canvas-gradebook-export.csv")
    # its Manual Posting and Points Possible rows and its test student are not students
    assert [r["name"] for r in roster] == ["Lovelace, Ada", "Babbage, Charles", "Nguyễn, Thị Hà", "Hopper, Grace"]
    assert roster[2]["section"] == "Friday, Lab B" and roster[2]["sis_login_id"] == "nguyen"
    files, problems, held = grading.lms_exports("hw", TABLE, roster, 12, grading.LmsOptions(COLUMN, 100))
    assert set(files) == {"hw-canvas.csv"}   # no Moodle identity in Canvas's export
    assert files["hw-canvas.csv"] == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", COLUMN],
        ["    Points Possible", "", "", "", "", "100"],
        ["Lovelace, Ada", "101", "S-1", "ada", "Tuesday", "100"],   # matched on the SIS Login ID
        ["Babbage, Charles", "102", "S-2", "charles", "Tuesday", "58.33"],   # 7 / 12 of 100
        ["Nguyễn, Thị Hà", "103", "S-3", "nguyen", "Friday, Lab B", "75"]]
    assert held == ["grace (flagged: cell 4: np.allclose patched)"]
    assert "submission 'ha.nguyen' is not on the roster: no LMS row written" in problems


def test_lms_moodle_participants_download_is_a_roster_as_it_is():
    roster = grading.read_roster(FIXTURES / "moodle-participants.csv")   # UTF-8 with a BOM, as Moodle writes
    assert [r["name"] for r in roster] == ["Lovelace, Ada", "Babbage, Charles", "Nguyễn, Thị Hà", "Hopper, Grace"]
    files, problems, held = grading.lms_exports("hw", TABLE, roster, 12, grading.LmsOptions(export_all=True))
    # with --lms-export-all the held rows go out too; grace has no ID number: left out and named
    assert files["hw-moodle.csv"] == [
        ["First name", "Last name", "ID number", "Email address", "hw"],
        ["Ada", "Lovelace", "A001", "Ada@Example.org", "12"],   # matched on the e-mail's user part, case kept
        ["Charles", "Babbage", "A002", "charles@example.org", "7"],
        ["Thị Hà", "Nguyễn", "A003", "ha.nguyen@example.org", "0"]]
    assert held == ["grace (flagged: cell 4: np.allclose patched)", "ha.nguyen (unreadable)"]
    assert any(p.startswith("'grace' has no ID number on the roster: left out of the Moodle file") for p in problems)
    assert not any("e-mail" in p for p in problems)   # Moodle's own address, never changed: nothing to warn of
    assert "submission 'nguyen' is not on the roster: no LMS row written" in problems
    assert not any("Turing" in p for p in problems)   # the course's teacher is not a student


def test_lms_roster_row_without_identity_is_left_out_and_named(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,name,id_number,email\nada,\"Lovelace, Ada\",A001,ada@example.org\n"
                      "charles,\"Babbage, Charles\",,\n", encoding="utf-8")
    files, problems, _ = grading.lms_exports("hw", TABLE, grading.read_roster(roster), 12)
    assert files["hw-moodle.csv"][1:] == [["Ada", "Lovelace", "A001", "ada@example.org", "12"]]
    assert any(p.startswith("'charles' has no ID number on the roster: left out of the Moodle file") for p in problems)
    with pytest.raises(ValueError, match="positive"):
        grading.lms_exports("hw", TABLE, grading.read_roster(roster), 12, grading.LmsOptions(points=0))


def test_every_csv_cell_that_starts_a_formula_is_neutralised():
    cells = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "plain", "a,b", 'say "hi"']
    text = grading.csv_text([cells])
    assert text == ('"\'=1+1","\'+1","\'-1","\'@SUM(A1)","\'\tx","\'\rx",plain,"a,b","say ""hi"""\r\n')
    import io
    [back] = list(csv.reader(io.StringIO(text, newline="")))
    assert [grading.unsafe_back(cell) for cell in back] == cells   # what re-grading reads back


def test_make_grade_passes_the_lms_options_through(tmp_path):
    """`make grade` with LMS_COLUMN (spaces, a colon, parentheses, quotes), LMS_POINTS, LMS_EXPORT_ALL: the
    arguments tools/grading/ gets (a stand-in python records them)."""
    import json
    import subprocess
    fake, recorded = stand_in_python(tmp_path)
    stamp = tmp_path / "stamp"
    stamp.touch()
    column = "HW1: Metrics (4242) don't \"panic\""
    result = subprocess.run(["make", "-s", "grade", f"BIN={fake}", f"STAMP={stamp}", f"BWRAP={stamp}",
                             "ROSTER=roster.csv", f"LMS_COLUMN={column}", "LMS_POINTS=100", "LMS_EXPORT_ALL=1"],
                            cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    argv = json.loads(recorded.read_text())
    assert argv[argv.index("--lms-column") + 1] == column
    assert argv[argv.index("--lms-points") + 1] == "100" and "--lms-export-all" in argv
    help_text = subprocess.run(["make", "-s", "help"], cwd=Path(__file__).resolve().parent.parent,
                               capture_output=True, text=True, timeout=60).stdout
    assert "LMS_COLUMN=" in help_text and "LMS_POINTS=" in help_text and "LMS_EXPORT_ALL=" in help_text
