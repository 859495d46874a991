"""Odd identities into the LMS files, one file per student, every problem written down (issue 44).

A roster of odd identities (a leading -, +, =, @, spaces, accents, NFD) graded end to end on the fixture
homework of tests/test_grading.py, then both LMS files read back by the importers' documented rules:

- Moodle's CSV grade import (grade/import/csv, ``check_user_exists``) maps a column to "ID number" or
  "Email address" and compares it with the user's field exactly; a value matching no user aborts the import.
- Canvas's gradebook import matches a row on its ID, else SIS User ID, else SIS Login ID, as written; a row
  matching no one is listed as an unknown student.

So identity cells must reach the file exactly as the LMS exported them (never escaped, never lower-cased); a
value a spreadsheet would take for a formula holds its row back, named with why; free text (names, section)
stays neutralised. Names are compared in Unicode's NFC form (a macOS download writes file names in NFD).
"""

from __future__ import annotations

import csv
import html
import io
import json
import stat
import subprocess
import sys
import unicodedata
import uuid

import nbformat
import pytest

from conftest import grading_tests, release_homework

base = grading_tests()
grading = base.grading
pytestmark = pytest.mark.slow

NFD_ZOE = unicodedata.normalize("NFD", "zoë")
ROSTER = [
    ["submission", "name", "canvas_id", "sis_user_id", "sis_login_id", "section", "id_number", "email"],
    ["müller", "Müller, Anna", "201", "S-201", "amueller", "=Lab A", "-2013", "Anna.Mueller@Uni.example"],
    ["möller", "Möller, Jan", "202", "+44", "jmoeller", "Lab B", "+2014", "jan@uni.example"],
    ["=1+1", "@Risky, Formula", "", "=1+1", "", "Lab A", "@2015", "risky@uni.example"],
    ["zoë", "Ødegaard, Zoë", "204", "S-204", "zoe", "Lab B", " 2016", "zoe@uni.example"],
    ["ghost", "Nobody, Not", "205", "S-205", "ghost", "Lab B", "2017", "ghost@uni.example"],
]


def moodle_import(text: str, users: list[dict[str, str]], field: str) -> dict[str, str]:
    """Moodle's CSV grade import mapping ``field`` ("ID number" or "Email address"): each row's value compared
    exactly with a user's; a row matching no user aborts the import (raised)."""
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    key = {"ID number": "id_number", "Email address": "email"}[field]
    grades = {}
    for row in rows:
        found = [u for u in users if u[key] == row[field]]
        if not found:
            raise AssertionError(f"Moodle: user mapping error, no user with {field} {row[field]!r}")
        grades[found[0]["submission"]] = row[list(row)[-1]]
    return grades


def canvas_import(text: str, users: list[dict[str, str]]) -> tuple[dict[str, str], list[list[str]]]:
    """Canvas's gradebook import: ID, else SIS User ID, else SIS Login ID, compared as written; (grades by
    student, the rows matching no one)."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    grades, unknown = {}, []
    for row in rows[2:]:   # the header and the Points Possible row
        for column, key in ((1, "canvas_id"), (2, "sis_user_id"), (3, "sis_login_id")):
            found = [u for u in users if row[column] and u[key] == row[column]]
            if found:
                grades[found[0]["submission"]] = row[-1]
                break
        else:
            unknown.append(row)
    return grades, unknown


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("identities")
    build, flat, common, released = release_homework(base, tmp)
    flat.mkdir()
    good, stub = (base.GOOD_SQUARE, base.GOOD_MEAN), (None, None)
    for student, answers in {"müller": good, "möller": good, "=1+1": good, NFD_ZOE: good, "Möller": stub,
                             "stranger": good}.items():
        nbformat.write(base.submission(released, answers), flat / f"{student}.ipynb")
    roster = tmp / "roster.csv"
    with roster.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(ROSTER)
    uid_base = 64600 + (uuid.uuid4().int % 300) * 10
    args = ["grade", *common, "--assignment", "hw", "--submissions", str(flat), "--timeout", "20",
            "--uid-base", str(uid_base), "--roster", str(roster)]
    # Möller and möller differ only in case: on a case-insensitive disk they would share a page; refused
    result = subprocess.run([sys.executable, str(base.TOOL), *args], capture_output=True, text=True, timeout=600,
                            cwd=base.ROOT)
    return {"build": build, "flat": flat, "args": args, "first": result, "roster": grading.read_roster(roster)}


def test_names_differing_only_in_case_stop_the_run_and_nothing_is_written(graded):
    result = graded["first"]
    assert result.returncode != 0
    assert "students 'Möller' and 'möller' would share the file" in result.stderr + result.stdout
    assert not (graded["build"] / "grades.csv").exists() and not (graded["build"] / "feedback").exists()


@pytest.fixture(scope="module")
def regraded(graded):
    (graded["flat"] / "Möller.ipynb").unlink()
    result = base.run_tool(*graded["args"])
    assert result.returncode == 0, result.stderr
    return graded | {"stdout": result.stdout}


def test_every_student_has_their_own_feedback_page(regraded):
    folder = regraded["build"] / "feedback" / "hw"
    pages = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.html")}
    assert len(pages) == 5
    assert "feedback for Anna Müller" in pages["müller.html"] and "feedback for Jan Möller" in pages["möller.html"]
    assert "feedback for Zoë Ødegaard" in pages["zoë.html"]   # the NFD file name matched the NFC roster
    assert [name for name in pages if name.startswith("_1_1-")]   # =1+1: replaced characters, a hash added
    assert grading.safe_name("=1+1") != grading.safe_name("_1_1") != grading.safe_name("-1+1")
    assert grading.safe_name("zoë") != grading.safe_name("zoé")
    assert grading.safe_name(NFD_ZOE) == grading.safe_name("zoë") == "zoë"


def test_moodle_reads_the_file_by_id_number_with_no_mapping_error(regraded):
    text = (regraded["build"] / "lms" / "hw-moodle.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    # -2013 and +2014 exactly as the roster has them; the e-mail's case kept; names neutralised
    assert rows[1] == ["Anna", "Müller", "-2013", "Anna.Mueller@Uni.example", "5"]
    assert rows[2] == ["Jan", "Möller", "+2014", "jan@uni.example", "5"]
    assert len(rows) == 3   # @2015 (a formula) and " 2016" (spaces) held back
    assert moodle_import(text, regraded["roster"], "ID number") == {"müller": "5", "möller": "5"}
    assert moodle_import(text, regraded["roster"], "Email address") == {"müller": "5", "möller": "5"}


def test_canvas_reads_the_file_and_free_text_is_neutralised(regraded):
    text = (regraded["build"] / "lms" / "hw-canvas.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[2] == ["Müller, Anna", "201", "S-201", "amueller", "'=Lab A", "5"]
    assert rows[3] == ["Möller, Jan", "202", "+44", "jmoeller", "Lab B", "5"]
    assert rows[4] == ["Ødegaard, Zoë", "204", "S-204", "zoe", "Lab B", "5"]
    grades, unknown = canvas_import(text, regraded["roster"])
    assert grades == {"müller": "5", "möller": "5", "zoë": "5"} and unknown == []
    assert not any(cell.startswith(("=", "@")) for line in rows for cell in line)


def test_a_formula_like_identity_holds_the_row_back_with_why(regraded):
    out = regraded["stdout"]
    assert "'=1+1' held back from the Canvas file: its SIS User ID '=1+1' starts like a spreadsheet formula" in out
    assert "'=1+1' held back from the Moodle file: its ID number '@2015' starts like a spreadsheet formula" in out
    assert "'zoë' held back from the Moodle file: its ID number ' 2016' has spaces before or after it" in out
    assert grading.unsafe_identity("-2013") is None and grading.unsafe_identity("+44") is None
    for value in ("-1+1", "+A1", "=1", "@x", "\tx", "-", "2013 "):
        assert grading.unsafe_identity(value), value


def test_every_problem_is_on_the_summary_page_and_in_a_json_file(regraded):
    build = regraded["build"]
    found = json.loads((build / "problems-hw.json").read_text(encoding="utf-8"))["problems"]
    kinds = {(p["kind"], p["student"]) for p in found}
    assert {("not_on_roster", "stranger"), ("no_submission", "ghost"), ("unsafe_identity", "=1+1"),
            ("unsafe_identity", "zoë")} <= kinds
    assert ("not_on_roster", "zoë") not in kinds and ("no_submission", "zoë") not in kinds   # NFD matched NFC
    summary = (build / "grades-hw.html").read_text(encoding="utf-8")
    for problem in found:
        assert html.escape(problem["problem"]) in summary
    assert f"<p>{len(found)} problems to look at" in summary


def test_grades_files_and_the_gradebook_are_private(regraded):
    build = regraded["build"]
    for path in [build / "grades.csv", build / "problems-hw.json", build / "course" / "gradebook.db",
                 *(build / "lms").iterdir(), *(build / "feedback" / "hw").iterdir()]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_two_hand_ins_named_alike_but_for_unicode_form_are_refused(tmp_path):
    (tmp_path / "zoë.ipynb").write_text("{}")
    (tmp_path / f"{NFD_ZOE}.ipynb").write_text("{}")
    with pytest.raises(SystemExit, match="both named 'zoë'"):
        grading.find_submissions("hw", tmp_path)
    (tmp_path / "zoë.ipynb").unlink()
    [sub] = grading.find_submissions("hw", tmp_path)
    assert sub.student == "zoë" and unicodedata.is_normalized("NFC", sub.student)
