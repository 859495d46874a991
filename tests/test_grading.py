"""The grading tooling (tools/grading/) on a tiny fixture and on the course notebooks.

A fixture assignment with two questions is released, then a class of careless
and hostile submissions is graded in one batch with short limits: correct,
wrong, crashing, looping, blank, warnings and logging on stderr, a huge output,
deleted and edited test cells, a memory hog, a fork bomb, a process left
running, a kernel killer, many slow cells, and broken files. Every score,
status and flag is asserted, the CSV agrees with the printed table and no
process outlives the grading; re-grading gives the same table. The student's
worker, driven directly in a real sandbox, leaves no process behind a cell or a
call (a setsid fork bomb over the cell limit included). Then every
course notebook with nbgrader cells is released (no solution or hidden test
may survive, the visible tests must) and its instructor version, submitted as
is, must get full marks. tests/test_grading_cheats.py grades cheats and
sabotage against notebook 01.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "grading"   # the package's command line (its __main__.py)
NOTEBOOKS = ROOT / "notebooks"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}

sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/)

sys.path.pop(0)

pytestmark = pytest.mark.slow


def run_tool(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                            timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, f"tools/grading {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result


def read_grades(path: Path) -> dict[str, dict[str, str]]:
    with path.open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def printed_table_matches_csv(stdout: str, path: Path) -> bool:
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    return grading.format_table(rows) in stdout


def leftover_processes(uid_base: int, marker: str | None = None) -> list[str]:
    """Processes of the grading's sandbox users (or carrying a marker) still alive."""
    alive = []
    for proc in psutil.process_iter(["uids", "cmdline", "pid"]):
        try:
            uid = proc.info["uids"].real if proc.info["uids"] else None
            cmdline = " ".join(proc.info["cmdline"] or [])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if (uid is not None and uid_base <= uid < uid_base + 10) or (marker and marker in cmdline):
            alive.append(f"{proc.info['pid']} uid={uid} {cmdline[:100]}")
    return alive


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


GOOD_SQUARE = "def square(x):\n    return x * x\n"
GOOD_MEAN = "def mean(values):\n    return sum(values) / len(values)\n"
MARKER = f"grading-test-{uuid.uuid4().hex[:12]}"   # in the command line of a process a submission leaves running

# What each student writes in the two solution cells (None: the released stub).
SUBMISSIONS = {
    "correct": (GOOD_SQUARE, GOOD_MEAN),
    # integer division passes the visible test mean([1, 2, 3]) == 2, fails the hidden one
    "wrong": (GOOD_SQUARE, "def mean(values):\n    return sum(values) // len(values)\n"),
    "crashing": ("import no_such_module_for_grading\n\n" + GOOD_SQUARE, GOOD_MEAN),
    "looping": (GOOD_SQUARE, "while True:\n    pass\n" + GOOD_MEAN),
    "slow_function": (GOOD_SQUARE, "def mean(values):\n    while True:\n        pass\n"),
    "blank": (None, None),
    # correct, but writing to stderr inside the tested functions: costs nothing
    "stderr": ("import warnings\n\ndef square(x):\n    warnings.warn('squaring', UserWarning)\n    return x * x\n",
               "import logging, sys\n\ndef mean(values):\n    logging.warning('averaging')\n"
               "    print('to stderr', file=sys.stderr)\n    return sum(values) / len(values)\n"),
    "huge_output": ("print('x' * 50_000_000)\n" + GOOD_SQUARE, GOOD_MEAN),
    # exhausts memory: the allocation fails in that cell only
    "memory_hog": ("block = bytearray(64 * 1024**3)\n" + GOOD_SQUARE, GOOD_MEAN),
    # a fork bomb: capped by the process limit, killed at the cell limit (before the tests run)
    "fork_bomb": (GOOD_SQUARE, "import os\nwhile True:\n    try:\n        os.fork()\n"
                               "    except OSError:\n        pass\n" + GOOD_MEAN),
    # starts a process meant to outlive the grading: killed when its cell ends
    "background": (GOOD_SQUARE, "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', "
                                f"'import time; time.sleep(300)', '{MARKER}'], start_new_session=True)\n"
                                + GOOD_MEAN),
    # kills its own process: nothing of it can be tested
    "dying": ("import os\nos._exit(1)\n", GOOD_MEAN),
    # kills PID 1 of its namespace (the sandbox's init): only its own sandbox ends
    "init_killer": (GOOD_SQUARE, "import os, signal\nos.kill(1, signal.SIGKILL)\n" + GOOD_MEAN),
}
EXPECTED = {  # student: (square-tests, mean-tests, total, status, flagged)
    "correct": ("2", "3", "5", "graded", False),
    "wrong": ("2", "0", "2", "graded", False),
    "crashing": ("0", "3", "3", "graded", False),
    "looping": ("2", "0", "2", "timeout", False),
    "slow_function": ("2", "0", "2", "timeout", False),
    "blank": ("0", "0", "0", "graded", False),
    "stderr": ("2", "3", "5", "graded", False),
    "huge_output": ("2", "3", "5", "graded", False),
    "memory_hog": ("0", "3", "3", "graded", False),
    "dying": ("0", "0", "0", "crashed", False),
}


def submission(student_version: nbformat.NotebookNode, answers) -> nbformat.NotebookNode:
    notebook = nbformat.from_dict(student_version)
    cells = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell for cell in notebook.cells}
    for grade_id, answer in zip(["square-answer", "mean-answer"], answers):
        if answer is not None:
            cells[grade_id].source = answer
    return notebook


def without_tests(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    notebook = nbformat.from_dict(notebook)
    notebook.cells = [c for c in notebook.cells if not c.metadata.get("nbgrader", {}).get("grade")]
    return notebook


def test_grades_a_class_of_careless_and_hostile_submissions(tmp_path):
    notebooks, build, submitted = tmp_path / "notebooks", tmp_path / "build", tmp_path / "submitted"
    notebooks.mkdir()
    nbformat.write(fixture_notebook(), notebooks / "hw.ipynb")
    common = ["--root", str(build), "--notebooks", str(notebooks)]

    run_tool("release", *common)
    student_version = nbformat.read(build / "release" / "hw.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in student_version.cells)
    assert "return x * x" not in text and "square(-4)" not in text and "mean([1, 2])" not in text
    assert "raise NotImplementedError" in text and "assert square(3) == 9" in text

    def put(student: str, notebook: nbformat.NotebookNode | None = None, raw: bytes | None = None,
            filename: str = "hw.ipynb") -> Path:
        folder = submitted / student / "hw"
        folder.mkdir(parents=True)
        path = folder / filename
        if raw is not None:
            path.write_bytes(raw)
        elif notebook is not None:
            nbformat.write(notebook, path)
        return path

    for student, answers in SUBMISSIONS.items():
        put(student, submission(student_version, answers))
    correct = submission(student_version, SUBMISSIONS["correct"])
    # test cells deleted: restored from the release, full marks
    put("deleted_tests", without_tests(correct))
    # test cells edited to pass anything: the original tests run, the wrong answers score 0
    edited = submission(student_version, ("def square(x):\n    return 0\n", "def mean(values):\n    return 0\n"))
    for cell in edited.cells:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            cell.source = "pass"
    put("edited_tests", edited)
    # many slow cells the answers need: the wall-clock limit per student stops it (cells x cell limit
    # would be longer); cells the answers do not need are not run at all
    slow = submission(student_version, ("def square(x):\n    assert len(pauses) == 40\n    return x * x\n",
                                        GOOD_MEAN))
    slow.cells[1:1] = ([nbformat.v4.new_code_cell("import time\npauses = []")]
                       + [nbformat.v4.new_code_cell("pauses = pauses + [time.sleep(1.8)]") for _ in range(40)])
    put("many_slow_cells", slow)
    # broken files
    put("invalid_json", raw=b'{"cells": [')
    put("empty", raw=b"")
    put("nbformat3", raw=json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {},
                                     "worksheets": [{"cells": []}]}).encode())
    put("renamed", correct, filename="hw (1).ipynb")
    (submitted / "missing" / "hw").mkdir(parents=True)
    originals = {p: p.read_bytes() for p in submitted.rglob("*") if p.is_file()}

    uid_base = 62000 + (uuid.uuid4().int % 500) * 10
    args = ["grade", *common, "--assignment", "hw", "--submissions", str(submitted), "--timeout", "2",
            "--call-timeout", "2", "--student-timeout", "15", "--uid-base", str(uid_base), "--memory", "1536"]
    start = time.perf_counter()
    result = run_tool(*args, timeout=600)
    seconds = time.perf_counter() - start
    print(result.stdout)
    print(f"grading {len(originals) + 1} submissions took {seconds:.1f} s")
    assert not leftover_processes(uid_base, MARKER), leftover_processes(uid_base, MARKER)

    grades = read_grades(build / "grades.csv")
    assert list(next(iter(grades.values()))) == ["student", "square-tests", "mean-tests", "total", "max",
                                                 "status", "flag", "note"]
    assert printed_table_matches_csv(result.stdout, build / "grades.csv")
    assert {r["max"] for r in grades.values()} == {"5"}
    got = {s: (r["square-tests"], r["mean-tests"], r["total"], r["status"], bool(r["flag"]))
           for s, r in grades.items() if s in EXPECTED}
    assert got == EXPECTED

    def row(student):
        r = grades[student]
        return r["square-tests"], r["mean-tests"], r["total"], r["status"]

    assert row("deleted_tests") == ("2", "3", "5", "graded")
    assert row("edited_tests") == ("0", "0", "0", "graded")
    assert row("renamed") == ("2", "3", "5", "graded") and "hw (1).ipynb" in grades["renamed"]["note"]
    for student, words in [("invalid_json", "invalid JSON"), ("empty", "empty"), ("nbformat3", "nbformat 3")]:
        assert row(student) == ("0", "0", "0", "unreadable") and words in grades[student]["note"], grades[student]
    assert row("missing") == ("0", "0", "0", "missing")
    # the wall-clock limit, not 40 cells x 2 s: every question is lost with the run
    assert row("many_slow_cells") == ("0", "0", "0", "timeout")
    assert "15 s limit" in grades["many_slow_cells"]["note"]
    # hostile but contained: flagged, and what ran after the flagged cell scores 0
    assert row("fork_bomb")[3] == "timeout" and row("background")[3] == row("init_killer")[3] == "graded"
    for student in ["fork_bomb", "background", "init_killer"]:
        assert grades[student]["square-tests"] == "2" and grades[student]["mean-tests"] == "0", grades[student]
        assert grades[student]["flag"], grades[student]
    assert "fork" in grades["fork_bomb"]["flag"] and "subprocess" in grades["background"]["flag"]
    assert "kill" in grades["init_killer"]["flag"]
    # what a cell started is stopped when the cell ends, and the note says so, naming the cell as the student
    # finds it (their answer cell)
    assert re.search(r"the code of mean-answer \(your answer\) outside any function ran over 2 s and was stopped, "
                     r"with the \d+ processes it started",
                     grades["fork_bomb"]["note"]), grades["fork_bomb"]
    assert "mean-answer (your answer) left 1 process running; it was stopped" in grades["background"]["note"], \
        grades["background"]
    assert "left" not in grades["correct"]["note"] and "process" not in grades["init_killer"]["note"]
    assert "timeout" in grades["looping"]["note"] or "stopped" in grades["looping"]["note"]

    # the submitted files are never modified
    assert {p: p.read_bytes() for p in originals} == originals
    # feedback: the visible test's message, never the hidden tests' code
    page = (build / "feedback" / "hw" / "wrong.html").read_text()
    assert "fails a hidden test" in page and "mean([1, 2])" not in page and "1.5" not in page
    page = (build / "feedback" / "hw" / "edited_tests.html").read_text()
    assert "square(3) should be 9" in page
    page = (build / "feedback" / "hw" / "crashing.html").read_text()
    assert "your answer cell raised ModuleNotFoundError" in page
    assert (build / "grades-hw.png").stat().st_size > 1000

    assert not list(build.glob(".grades.csv.*"))   # written to a temporary file, then renamed


def test_refuses_to_grade_without_a_sandbox_unless_told(tmp_path, monkeypatch):
    notebooks, build = tmp_path / "notebooks", tmp_path / "build"
    notebooks.mkdir()
    nbformat.write(fixture_notebook(), notebooks / "hw.ipynb")
    folder = tmp_path / "submitted" / "alice" / "hw"
    folder.mkdir(parents=True)
    run_tool("release", "--root", str(build), "--notebooks", str(notebooks))
    student_version = nbformat.read(build / "release" / "hw.ipynb", as_version=4)
    nbformat.write(submission(student_version, SUBMISSIONS["correct"]), folder / "hw.ipynb")
    # a process in a session of its own, left running: outside a sandbox too, killed when its cell ends
    (tmp_path / "submitted" / "bob" / "hw").mkdir(parents=True)
    nbformat.write(submission(student_version, SUBMISSIONS["background"]),
                   tmp_path / "submitted" / "bob" / "hw" / "hw.ipynb")
    course = grading.Course(build, notebooks)
    monkeypatch.setattr(grading.sandbox, "BWRAP", str(tmp_path / "no-bwrap"))
    with pytest.raises(SystemExit, match="(?s)cannot grade safely.*--no-sandbox"):
        grading.grade(course, "hw", tmp_path / "submitted", grading.Settings(), build / "grades.csv", jobs=1)
    assert not (build / "grades.csv").exists()
    results = grading.grade(course, "hw", tmp_path / "submitted",
                            grading.Settings(sandboxed=False, cell_timeout=5, student_timeout=60),
                            build / "grades.csv", jobs=1)
    assert [(r.student, r.status, r.scores) for r in results] == [
        ("alice", "graded", {"square-tests": 2.0, "mean-tests": 3.0}),
        ("bob", "graded", {"square-tests": 2.0, "mean-tests": 0.0})]   # flagged: imports subprocess
    assert results[1].note == "mean-answer (your answer) left 1 process running; it was stopped" and results[0].note == ""
    assert not leftover_processes(10**9, MARKER), leftover_processes(10**9, MARKER)


def released_homework(tmp_path):
    """The fixture homework released into tmp_path/build, an empty flat folder of hand-ins, the
    tool's common arguments and the student version."""
    notebooks, build, flat = tmp_path / "notebooks", tmp_path / "build", tmp_path / "flat"
    notebooks.mkdir()
    flat.mkdir()
    nbformat.write(fixture_notebook(), notebooks / "hw.ipynb")
    common = ["--root", str(build), "--notebooks", str(notebooks)]
    run_tool("release", *common)
    return build, flat, common, nbformat.read(build / "release" / "hw.ipynb", as_version=4)


def test_flat_folder_of_files_named_by_student(tmp_path):
    build, flat, common, student_version = released_homework(tmp_path)
    nbformat.write(submission(student_version, SUBMISSIONS["correct"]), flat / "alice.ipynb")
    nbformat.write(submission(student_version, SUBMISSIONS["wrong"]), flat / "bob.ipynb")
    run_tool("grade", *common, "--assignment", "hw", "--submissions", str(flat), "--timeout", "5")
    grades = read_grades(build / "grades.csv")
    assert {s: r["total"] for s, r in grades.items()} == {"alice": "5", "bob": "2"}
    assert (build / "feedback" / "hw" / "alice.html").is_file()
    # the teacher's summary: the CSV's table and the figure, described from the same counts as its bars
    summary = (build / "grades-hw.html").read_text(encoding="utf-8")
    assert '<th scope="row">alice</th><td>2</td><td>3</td><td>5</td><td>5</td><td>graded</td>' in summary
    assert '<th scope="row">bob</th><td>2</td><td>0</td><td>2</td><td>5</td><td>graded</td>' in summary
    assert ("square-tests (max 2): 2 students scored 2; mean-tests (max 3): 1 student scored 3, 1 scored 0; "
            "total (max 5): 1 student scored 5, 1 scored 2.") in summary
    assert (build / "grades-hw.png").read_bytes().startswith(b"\x89PNG")
    # Re-grading gives the same table.
    first = (build / "grades.csv").read_bytes()
    run_tool("grade", *common, "--assignment", "hw", "--submissions", str(flat), "--timeout", "5")
    assert (build / "grades.csv").read_bytes() == first


# --------------------------------------------------------------------------- course notebooks

COURSE_NOTEBOOKS = [name for name in grading.find_assignments(NOTEBOOKS) if name not in grading.UNSUPPORTED]


def test_every_course_notebook_is_gradable_and_a_refusal_says_why(tmp_path, monkeypatch):
    """06 (Optuna trials) is graded like the others; an assignment marked unsupported is refused with its reason."""
    assert "06_hyperparameter_search" in COURSE_NOTEBOOKS and not grading.UNSUPPORTED
    course = grading.Course(tmp_path / "build", tmp_path)
    monkeypatch.setitem(grading.UNSUPPORTED, "hw", "its exercises need a service the sandbox lacks")
    with pytest.raises(SystemExit, match="cannot grade hw yet: its exercises need a service the sandbox lacks"):
        grading.grade(course, "hw", tmp_path, grading.Settings(), tmp_path / "grades.csv", jobs=1)
    assert not (tmp_path / "grades.csv").exists()


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
    student = nbformat.read(build / "release" / f"{name}.ipynb", as_version=4)

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

    # The instructor notebook, submitted unchanged, gets every point (a blank one scores 0: see
    # test_grading_cheats.py).
    submitted = tmp_path / "submitted"
    (submitted / "instructor" / name).mkdir(parents=True)
    nbformat.write(instructor, submitted / "instructor" / name / f"{name}.ipynb")
    result = run_tool("grade", *common, "--assignment", name, "--submissions", str(submitted), timeout=1200)
    row = read_grades(build / "grades.csv")["instructor"]
    assert row["status"] == "graded" and not row["flag"] and not row["note"], (row, result.stdout)
    graded = [cell.metadata.nbgrader for cell in grading.nbgrader_cells(instructor)
              if cell.metadata.nbgrader.get("grade")]
    assert graded, "no graded question"
    for meta in graded:
        if meta.get("solution"):  # a manually graded answer: a teacher scores it
            assert row[meta["grade_id"]] == "", (meta["grade_id"], row)
        else:                     # an autograded test cell: every point
            assert float(row[meta["grade_id"]]) == meta["points"], (meta["grade_id"], row)


FORKING_HOG = ("import os, time\n\ndef mean(values):\n    children = []\n    for _ in range(4):\n"
               "        pid = os.fork()\n        if pid == 0:\n            block = b'x' * (400 * 1024**2)\n"
               "            time.sleep(60)\n            os._exit(0)\n        children.append(pid)\n"
               "    for pid in children:\n        os.waitpid(pid, 0)\n    return sum(values) / len(values)\n")


def orphan_cgroups() -> set[str]:
    """Grading cgroups (named grading-PID-...) whose grading process is gone."""
    return {p.name for c in ("memory", "pids") for p in grading.sandbox._own_cgroup(c).glob("grading-*")
            if not psutil.pid_exists(int(p.name.split("-")[1]))}


def test_memory_cap_for_the_whole_submission(tmp_path):
    """Children each under the per-process limit but together over the cap: stopped, the next student graded."""
    build, flat, common, student_version = released_homework(tmp_path)
    nbformat.write(submission(student_version, (GOOD_SQUARE, FORKING_HOG)), flat / "a_hog.ipynb")
    nbformat.write(submission(student_version, SUBMISSIONS["correct"]), flat / "b_next.ipynb")
    uid_base = 70000 + (uuid.uuid4().int % 500) * 10   # a range no other test of the suite uses
    result = run_tool("grade", *common, "--assignment", "hw", "--submissions", str(flat), "--jobs", "1",
                      "--memory", "1024", "--call-timeout", "30", "--uid-base", str(uid_base))
    print(result.stdout)
    assert not leftover_processes(uid_base), leftover_processes(uid_base)
    grades = read_grades(build / "grades.csv")
    assert (grades["b_next"]["total"], grades["b_next"]["status"]) == ("5", "graded")
    reason = grading.sandbox.cgroups_available()
    if reason is None:   # root with cgroup v1: 4 x 400 MB > 1024 MB, each child under 1024 MB of address space
        hog = grades["a_hog"]
        assert (hog["square-tests"], hog["mean-tests"], hog["status"]) == ("2", "0", "crashed"), hog
        assert "went over the 1024 MB memory cap and were stopped" in hog["note"], hog
        assert not orphan_cgroups()   # removed after each student
        assert "no cgroup per submission" not in result.stdout
    else:                # said once, the per-process limits remain
        assert result.stdout.count(f"no cgroup per submission here ({reason})") == 1


# --------------------------------------------------------------------------- the student's processes in a sandbox

SETSID_BOMB = ("import os\nwhile True:\n    try:\n        if os.fork() == 0:\n            os.setsid()\n"
               "    except OSError:\n        pass\n")
ALIVE = "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())"   # the PIDs the sandbox's /proc shows
LEAVING = ("import os, subprocess\n\ndef leave():\n    subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
           f"    return 1\n\ndef alive():\n    return {ALIVE}\n\ndef bomb():\n"
           + "".join("    " + line + "\n" for line in SETSID_BOMB.splitlines()))


def test_a_cell_or_call_leaves_no_process_behind_in_the_sandbox():
    """The student's worker in a real sandbox: a setsid fork bomb stopped at the cell limit, processes
    a cell or a function leaves running: all killed before the next cell or test, the worker kept."""
    reason = grading.sandbox.available()
    assert reason is None, reason   # the grading tests need bubblewrap (make test installs it)
    uid = 71000 + (uuid.uuid4().int % 500) * 10
    limits = grading.sandbox.Limits()
    group = None
    if grading.sandbox.cgroups_available() is None:
        group = grading.sandbox.Cgroup(f"grading-{os.getpid()}-test-{uuid.uuid4().hex[:8]}", limits.memory,
                                       limits.processes + 16)
    student = grading.start_worker("student", uid, limits, True, group)
    lines = grading.Lines(student.stdout)

    def ask(message: dict) -> dict:
        assert grading.send(student, message)
        reply = lines.read(time.monotonic() + 60)
        while reply is not None and reply.get("op") == "running":   # the cell it is about to run (issue 44)
            reply = lines.read(time.monotonic() + 60)
        assert reply is not None, "the worker did not answer"
        return reply

    def students_processes() -> list[int]:   # of the sandbox's user: the worker and what it started
        return [p.pid for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]

    def call(name: str) -> dict:
        return ask({"op": "call", "id": ask({"op": "get", "name": name})["value"]["id"], "args": [], "kwargs": {}})

    try:
        cells = [SETSID_BOMB, f"import os\nseen = {ALIVE}",
                 "import subprocess\nsubprocess.Popen(['sleep', '300'], start_new_session=True)\n"
                 "subprocess.Popen(['sleep', '300'])", LEAVING]
        ready = ask({"cells": [{"index": i, "source": s} for i, s in enumerate(cells)], "cell_timeout": 2,
                     "call_timeout": 2, "sandboxed": True})
        # right after the cells: nothing of the student's but the worker, in the sandbox or its cgroup
        assert len(students_processes()) == 1, students_processes()
        if group is not None:   # bwrap outside, bwrap's init (PID 1) and the worker
            assert len(group.pids()) == 3, group.pids()
        assert ready["op"] == "ready"
        bomb, after, leaving, _ = ready["cells"]
        assert bomb["timeout"] is True and bomb["stopped"] > 5, bomb
        assert after["error"] is None and after["stopped"] == 0 and leaving["stopped"] == 2, ready["cells"]
        # the next cell saw only the sandbox's init and the worker
        assert ask({"op": "get", "name": "seen"})["value"] == {"__t": "list", "v": [1, 2]}
        # a function a test calls: what it leaves running is stopped before the reply
        reply = call("leave")
        assert (reply["value"], reply["stopped"]) == (1, 1) and len(students_processes()) == 1
        # over the call limit: stopped with all its processes, and the worker still answers
        reply = call("bomb")
        assert "CellTimeout" in reply["error"] and reply["stopped"] > 5, reply
        assert len(students_processes()) == 1, students_processes()
        reply = call("alive")
        assert reply["value"] == {"__t": "list", "v": [1, 2]} and "stopped" not in reply, reply
    finally:
        grading.send(student, {"op": "bye"})
        grading.sandbox.kill(student)
        if group is not None:
            group.close()
    assert students_processes() == []

