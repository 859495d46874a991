"""The student's path (tools/study.py): the study folder never loses a student's work, and the self-check.

A tiny two-notebook course (the first with two graded exercises, the second
linking to it and to a glossary) is handed out, edited as a student would,
changed by the instructor and handed out again; then copies of its first
notebook are checked with the hidden tests. The last test checks the
instructor's notebook 01 of the real course, which must get every point.
Tests that release with nbgrader or grade are marked slow (10-40 s each).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402
import links  # noqa: E402
import study  # noqa: E402

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def nbgrader(grade_id: str, *, solution: bool = False, grade: bool = False, points: int = 0) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return {"nbgrader": meta}


SQUARE_TESTS = ('assert square(3) == 9, "square(3) should be 9"\n'
                "### BEGIN HIDDEN TESTS\nassert square(-4) == 16\n### END HIDDEN TESTS\n")
MEAN_TESTS = ('assert mean([1, 2, 3]) == 2, "mean([1, 2, 3]) should be 2: the sum divided by the count"\n'
              "### BEGIN HIDDEN TESTS\nassert mean([1, 2]) == 1.5\n### END HIDDEN TESTS\n")


def homework(extra: str = "") -> nbformat.NotebookNode:
    v4 = nbformat.v4
    notebook = v4.new_notebook(metadata={"kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    notebook.cells = [
        v4.new_markdown_cell("# 01 Homework\n\nTerms: [the glossary](glossary.md). Next: [02](02_next.ipynb)." + extra),
        v4.new_code_cell("import math"),
        v4.new_markdown_cell("## Practice\n\n**Exercise 1 (2 points).** Write `square(x)`."),
        v4.new_code_cell("def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION\n",
                         metadata=nbgrader("square-answer", solution=True)),
        v4.new_code_cell(SQUARE_TESTS, metadata=nbgrader("square-tests", grade=True, points=2)),
        v4.new_markdown_cell("**Exercise 2 (3 points).** Write `mean(values)`."),
        v4.new_code_cell("def mean(values):\n    ### BEGIN SOLUTION\n    return sum(values) / len(values)\n"
                         "    ### END SOLUTION\n", metadata=nbgrader("mean-answer", solution=True)),
        v4.new_code_cell(MEAN_TESTS, metadata=nbgrader("mean-tests", grade=True, points=3)),
    ]
    return notebook


def second(extra: str = "") -> nbformat.NotebookNode:
    notebook = homework()
    notebook.cells[0].source = "# 02 Next\n\nBack to [01](01_homework.ipynb#Practice)." + extra
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader")
        if meta:
            meta["grade_id"] = "b-" + meta["grade_id"]
    return notebook


@pytest.fixture
def course(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    nbformat.write(homework(), notebooks / "01_homework.ipynb")
    nbformat.write(second(), notebooks / "02_next.ipynb")
    (notebooks / "glossary.md").write_text("# Glossary\n\n- mean: see [01](01_homework.ipynb#Practice)\n")
    return {"notebooks": notebooks, "build": tmp_path / "build", "study": tmp_path / "study"}


def build(course, capsys, fresh=(), now=None) -> tuple[dict, str]:
    if now is None:
        report = study.build(course["build"], course["notebooks"], course["study"], list(fresh))
    else:  # a fixed clock for the backup names
        files = study.release_files(grading.Course(course["build"], course["notebooks"]),
                                    grading.find_assignments(course["notebooks"].resolve()))
        report = study.hand_out(files, course["study"], study.resolve_names(list(fresh), list(files)), now)
        study.print_report(report, course["study"])
    return report, capsys.readouterr().out


def sources(path: Path) -> str:
    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)


# --------------------------------------------------------------------------- build

@pytest.mark.slow  # releases with nbgrader (and grades)
def test_study_folder_is_flat_stripped_and_linked(course, capsys):
    report, out = build(course, capsys)
    folder = course["study"]
    assert sorted(report["new"]) == ["01_homework.ipynb", "02_next.ipynb", "glossary.md"]
    assert sorted(p.name for p in folder.iterdir()) == [".handed-out.json", "01_homework.ipynb",
                                                         "02_next.ipynb", "glossary.md"]
    text = sources(folder / "01_homework.ipynb")
    assert "return x * x" not in text and "square(-4)" not in text and "BEGIN SOLUTION" not in text
    assert "raise NotImplementedError" in text and "square(3) should be 9" in text
    state = json.loads((folder / ".handed-out.json").read_text())["files"]
    assert state == {name: study.sha256(folder / name) for name in report["new"]}
    problems, followed = links.broken_links([folder / n for n in report["new"]])
    assert problems == [] and followed == 4
    assert "handed out: 01_homework.ipynb, 02_next.ipynb, glossary.md" in out


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_rebuild_never_overwrites_an_edited_notebook(course, capsys):
    folder = course["study"]
    build(course, capsys)
    # the student answers exercise 1; the instructor then changes both notebooks
    mine = nbformat.read(folder / "01_homework.ipynb", as_version=4)
    mine.cells[3].source = "def square(x):\n    return x ** 2\n"
    nbformat.write(mine, folder / "01_homework.ipynb")
    edited = (folder / "01_homework.ipynb").read_bytes()
    nbformat.write(homework(" A new sentence."), course["notebooks"] / "01_homework.ipynb")
    nbformat.write(second(" Another new sentence."), course["notebooks"] / "02_next.ipynb")

    report, out = build(course, capsys)
    assert (folder / "01_homework.ipynb").read_bytes() == edited, "the student's work is untouched"
    assert report["kept-outdated"] == ["01_homework.ipynb"] and report["updated"] == ["02_next.ipynb"]
    assert "Another new sentence." in sources(folder / "02_next.ipynb"), "an unedited copy follows the release"
    assert "kept your edited copy of: 01_homework.ipynb" in out
    assert "the course has a newer version of 01_homework.ipynb" in out
    assert "make study FRESH=01_homework" in out

    # again, nothing changed: still kept, the rest left alone
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    report, out = build(course, capsys)
    assert report["kept-outdated"] == ["01_homework.ipynb"] and report["updated"] == report["new"] == []
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_fresh_copy_keeps_the_old_one_as_a_dated_backup(course, capsys):
    folder = course["study"]
    build(course, capsys)
    (folder / "01_homework.ipynb").write_text((folder / "01_homework.ipynb").read_text() + " ")
    edited = (folder / "01_homework.ipynb").read_bytes()
    released = (course["build"] / "release" / "01_homework.ipynb").read_bytes()
    now = datetime.datetime(2026, 3, 1, 9, 30, 5)

    report, out = build(course, capsys, fresh=["01"], now=now)
    backup = folder / "01_homework.backup-20260301-093005.ipynb"
    assert report["fresh"] == ["01_homework.ipynb"] and report["backups"] == [backup.name]
    assert backup.read_bytes() == edited and (folder / "01_homework.ipynb").read_bytes() == released
    assert backup.name in out
    state = json.loads((folder / ".handed-out.json").read_text())["files"]
    assert state["01_homework.ipynb"] == study.sha256(folder / "01_homework.ipynb")

    # a second fresh copy in the same second never overwrites the first backup
    (folder / "01_homework.ipynb").write_text("{}")
    report, _ = build(course, capsys, fresh=["01_homework.ipynb"], now=now)
    assert report["backups"] == ["01_homework.backup-20260301-093005-1.ipynb"]
    assert backup.read_bytes() == edited and (folder / report["backups"][0]).read_text() == "{}"
    # a fresh copy of an unedited file needs no backup
    report, _ = build(course, capsys, fresh=["glossary"], now=now)
    assert report["fresh"] == ["glossary.md"] and report["backups"] == []


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_a_file_of_unknown_origin_is_kept(course, capsys):
    folder = course["study"]
    build(course, capsys)
    (folder / ".handed-out.json").unlink()
    (folder / "02_next.ipynb").write_text("my own notes")
    report, out = build(course, capsys)
    assert report["kept-outdated"] == ["02_next.ipynb"] and (folder / "02_next.ipynb").read_text() == "my own notes"
    assert report["same"] == ["01_homework.ipynb", "glossary.md"]


def test_fresh_names(course):
    files = ["01_homework.ipynb", "02_next.ipynb", "glossary.md"]
    assert study.resolve_names(["02", "glossary"], files) == ["02_next.ipynb", "glossary.md"]
    assert study.resolve_names(["01_homework 02_next.ipynb"], files) == ["01_homework.ipynb", "02_next.ipynb"]
    assert study.resolve_names(["all"], files) == files
    with pytest.raises(SystemExit, match="FRESH=03: no such file; choose among 01_homework, 02_next, glossary"):
        study.resolve_names(["03"], files)


# --------------------------------------------------------------------------- check

def answered(course, square: str, mean: str) -> Path:
    """The study copy of 01 with the student's answers written in."""
    path = course["study"] / "01_homework.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[3].source, notebook.cells[6].source = square, mean
    target = path.with_name("answered.ipynb")
    nbformat.write(notebook, target)
    return target


def check(course, path, **kwargs) -> int:
    return study.check("01", path, course["build"] / "check", course["notebooks"], course["study"], **kwargs)


@pytest.fixture
def sandboxed(monkeypatch) -> list[bool]:
    """Whether each grading that check() started ran in the sandbox (grading.grade is wrapped, not replaced)."""
    seen, grade = [], grading.grade

    def spy(course, name, submissions, settings, *args, **kwargs):
        seen.append(settings.sandboxed)
        return grade(course, name, submissions, settings, *args, **kwargs)
    monkeypatch.setattr(grading, "grade", spy)
    return seen


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_check_prints_each_exercise_and_the_score_quietly_without_bubblewrap(course, capsys, monkeypatch,
                                                                               sandboxed):
    build(course, capsys)
    # passes the visible test of exercise 1 (3 * 3 == 9), not the hidden one; fails exercise 2's visible test
    path = answered(course, "def square(x):\n    return 3 * x\n", "def mean(values):\n    return 0\n")
    monkeypatch.setattr(grading.sandbox, "BWRAP", str(course["build"] / "no-bwrap"))
    assert check(course, path) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err
    lines = [line.strip() for line in out.splitlines()]
    assert "Exercise 1  FAILED  0 / 2" in lines and "Exercise 2  FAILED  0 / 3" in lines
    assert "passes the visible tests but fails a hidden test" in out
    assert "mean([1, 2, 3]) should be 2: the sum divided by the count" in out
    assert "score: 0 / 5" in lines
    assert "square(-4)" not in out and "1.5" not in out, "the hidden tests' code is never shown"
    assert "WARNING" not in out and "sandbox" not in out, "no warning: it is the student's own code"
    assert not (course["build"] / "grades.csv").exists(), "a teacher's grade table is never touched"
    assert sandboxed == [False]


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_check_of_a_correct_copy_in_the_sandbox_where_it_works(course, capsys, sandboxed):
    build(course, capsys)
    path = answered(course, "def square(x):\n    return x ** 2\n",
                    "def mean(values):\n    return sum(values) / len(values)\n")
    assert check(course, path) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert lines[1:] == ["Exercise 1  passed  2 / 2", "Exercise 2  passed  3 / 3", "score: 5 / 5"], lines
    assert sandboxed == [grading.sandbox.available() is None]


@pytest.mark.slow  # releases with nbgrader and grades, twice at once
def test_two_checks_at_once_do_not_interfere(course, capsys):
    """Two terminals: each run grades in its own temporary course folder, and removes it."""
    build(course, capsys)
    right = answered(course, "def square(x):\n    return x ** 2\n",
                     "def mean(values):\n    return sum(values) / len(values)\n").rename(course["study"] / "right.ipynb")
    wrong = answered(course, "def square(x):\n    return 3 * x\n",
                     "def mean(values):\n    return sum(values) / len(values)\n").rename(course["study"] / "wrong.ipynb")
    root = course["build"] / "checks"
    runs = [subprocess.Popen([sys.executable, str(ROOT / "tools" / "study.py"), "check", "01", "--file", str(path),
                              "--root", str(root), "--notebooks", str(course["notebooks"]),
                              "--study", str(course["study"]), "--no-sandbox"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for path in (right, wrong)]
    outs = [run.communicate(timeout=600)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    right_lines, wrong_lines = ([line.strip() for line in out.splitlines()] for out in outs)
    assert "score: 5 / 5" in right_lines and "Exercise 1  passed  2 / 2" in right_lines, outs[0]
    assert "score: 3 / 5" in wrong_lines and "Exercise 1  FAILED  0 / 2" in wrong_lines, outs[1]
    assert not any("Traceback" in out or "failed" in out for out in outs), outs
    assert list(root.iterdir()) == [], "each run removes its own course folder"


@pytest.mark.slow  # releases with nbgrader and grades
def test_a_student_alone_is_never_told_flagged(course, capsys, monkeypatch):
    """What the teacher's grading flags is said to a student as a warning with its consequence."""
    import dataclasses

    build(course, capsys)
    grade = grading.grade

    def flagging(*args, **kwargs):   # the real grading, with a flag as the grader would raise one
        return [dataclasses.replace(result, flags=["cell 4: square returned an object of optuna.trial.Trial"])
                for result in grade(*args, **kwargs)]
    monkeypatch.setattr(grading, "grade", flagging)
    path = answered(course, "def square(x):\n    return x ** 2\n",
                    "def mean(values):\n    return sum(values) / len(values)\n")
    assert check(course, path, sandboxed=False) == 0
    out = capsys.readouterr().out
    assert "flag" not in out.lower(), out
    assert "warning: cell 4: square returned an object of optuna.trial.Trial" in out
    assert "0 points to every exercise tested after this" in out
    assert list((course["build"] / "check").iterdir()) == [], "the run's own course folder is removed"


def test_check_without_a_copy_says_what_to_do(course, capsys):
    assert check(course, None) == 1
    err = capsys.readouterr().err
    assert "no notebook" in err and "01_homework.ipynb: run `make study` first" in err


@pytest.mark.slow  # releases with nbgrader (and grades)
def test_check_reports_an_assignment_grading_refuses(course, capsys, monkeypatch):
    build(course, capsys)
    monkeypatch.setitem(grading.UNSUPPORTED, "01_homework", "its exercises need something the sandbox lacks")
    assert check(course, course["study"] / "01_homework.ipynb") == 1
    err = capsys.readouterr().err
    assert "cannot check 01_homework yet: its exercises need something the sandbox lacks" in err


def test_make_targets_pass_the_arguments():
    def dry(*args: str) -> str:
        return subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "tools/study.py build --fresh 01_metrics" in dry("study-files", "FRESH=01_metrics")
    assert "jupyter lab study/" in dry("study")
    assert "tools/study.py check 01_metrics --file my.ipynb" in dry("check", "NB=01_metrics", "FILE=my.ipynb")
    plain = dry("check")
    assert "tools/study.py check" in plain and "notebooks/py" not in plain, "no NB: the tool asks which notebook"


@pytest.mark.slow
def test_check_of_the_course_notebook_01_gives_every_point(tmp_path, capsys):
    notebook = nbformat.read(ROOT / "notebooks" / "01_metrics.ipynb", as_version=4)
    points = [cell.metadata.nbgrader["points"] for cell in grading.nbgrader_cells(notebook)
              if cell.metadata.nbgrader.get("grade")]
    assert study.check("01_metrics", ROOT / "notebooks" / "01_metrics.ipynb", tmp_path / "check",
                       ROOT / "notebooks", tmp_path / "study") == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    exercises = [line for line in lines if line.startswith("Exercise")]
    assert len(exercises) == len(points) and all("  passed  " in line for line in exercises), lines
    assert f"score: {sum(points):g} / {sum(points):g}" in lines
