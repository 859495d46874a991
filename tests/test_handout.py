"""The student hand-out (`make student`, build/release/) runs on its own, on a student's machine.

The folder alone is copied to a fresh place (as a student downloads it, or as an nbgitpuller repository
holds it), a fresh environment is made from its requirements.txt alone (uv venv + uv pip install, with the
shared uv cache), and each student notebook runs up to its exercises with nbclient in that environment:
the kernel's Python is the fresh environment's and ``helpers`` comes from the hand-out folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import handout  # noqa: E402  (tools/handout.py)
from conftest import stand_in_python  # noqa: E402
import schedule  # noqa: E402  (tools/schedule.py)

COURSE = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
UV = ROOT / ".venv" / "bin" / "uv"
LOCK = (ROOT / "requirements.lock").read_text()


def canonical_pin(line: str) -> str:
    """``name==version`` with the name as PyPI compares them (jupyter_core and jupyter-core are one)."""
    name, _, version = line.strip().partition("==")
    return f"{handout.canonical(name)}=={version}"


def test_student_requirements_are_the_lock_closure_of_what_the_notebooks_need():
    pins = handout.student_requirements(LOCK)
    names = {handout.canonical(line.split("==")[0]) for line in pins}
    locked = handout.parse_lock(LOCK)
    assert all(line == locked[handout.canonical(line.split("==")[0])][0] for line in pins), "pins as in the lock"
    for needed in ("scikit-learn", "jupyterlab", "ipywidgets", "optuna", "scipy", "joblib", "sqlalchemy"):
        assert needed in names
    # the course's own tooling stays out: grading, the hub, tests, browsers, mutation testing
    for tooling in ("nbgrader", "jupyterhub", "pytest", "playwright", "mutmut", "nbval", "jupytext", "uv",
                    "psycopg", "hypothesis", "colorspacious"):
        assert tooling not in names, tooling
    assert len(pins) < len(locked)


def test_lock_parser_follows_requirements_through_several_levels():
    lock = ("a==1\n    # via -r requirements.in\nb==2\n    # via\n    #   a\n    #   z\n"
            "c[extra]==3\n    # via b\nd==4\n    # via -r requirements.in\nz==5\n    # via -r requirements.in\n")
    assert handout.student_requirements(lock, roots=("a",)) == ["a==1", "b==2", "c[extra]==3"]
    assert handout.student_requirements(lock, roots=("z", "d")) == ["b==2", "c[extra]==3", "d==4", "z==5"]
    with pytest.raises(ValueError, match="no pin for nope"):
        handout.student_requirements(lock, roots=("nope",))


def exercise_answers(name: str) -> dict[int, str]:
    """Exercise number -> the function its solution cell defines, read from the notebook's py:percent twin
    (the markdown cell "**Exercise N (...)**" and the next nbgrader solution cell)."""
    import jupytext

    found, number = {}, None
    for cell in jupytext.read(ROOT / "notebooks" / "py" / f"{name}.py").cells:
        heading = (re.search(r"^\*\*Exercise (\d+) \(", cell.source, re.MULTILINE)
                   if cell.cell_type == "markdown" else None)
        if heading:
            number = int(heading.group(1))
        elif number is not None and cell.metadata.get("nbgrader", {}).get("solution"):
            found[number] = re.search(r"^def (\w+)\(", cell.source, re.MULTILINE).group(1)
            number = None
    return found


def test_each_giveaway_names_an_exercise_and_the_helpers_code_that_answers_it():
    """tools/handout.py GIVEAWAYS: each entry's exercise asks for its answer function, and its helpers module
    defines each function it names; every notebook with an entry is a course notebook."""
    assert {entry.notebook for entry in handout.GIVEAWAYS} <= set(COURSE)
    for entry in handout.GIVEAWAYS:
        assert exercise_answers(entry.notebook).get(entry.exercise) == entry.answer, entry
        source = (ROOT / "helpers" / f"{entry.module}.py").read_text(encoding="utf-8")
        assert set(handout.definitions(source, entry.names)) == set(entry.names), entry
        assert all(f"def {name}(" in handout.giveaway_source(entry) or f"class {name}" in
                   handout.giveaway_source(entry) for name in entry.names), entry
    with pytest.raises(ValueError, match="defines no function or class no_such_helper"):
        handout.definitions("def a():\n    pass\n", ["a", "no_such_helper"])


GRADED_CHECK = """
import importlib, inspect, json, pkgutil, sys
import helpers
out = {"helpers": helpers.__file__, "modules": [], "names": {}}
for info in pkgutil.iter_modules(helpers.__path__):
    importlib.import_module(f"helpers.{info.name}")
    out["modules"].append(info.name)
for module, name in json.loads(sys.argv[1]):
    found = getattr(importlib.import_module(f"helpers.{module}"), name, None)
    try:
        inspect.getsource(found)
        source = True
    except (OSError, TypeError):
        source = False
    out["names"][f"{module}.{name}"] = {"callable": callable(found), "source": source}
import helpers.cv
out["t"] = helpers.cv.corrected_resampled_ttest([0.8, 0.9, 0.7, 0.85], [0.75, 0.8, 0.72, 0.7], 90, 10).t
print(json.dumps(out))
"""


def test_graded_handout_helpers_leave_the_answers_out_and_still_import(tmp_path):
    """write_kit(graded=True), what `make student GRADED=1` writes: each helpers module with giveaways no
    longer defines them in its source (no file of the hand-out does), yet every helpers module imports in the
    hand-out folder and each giveaway is callable there, with no source to read, and computes what the
    course's helpers do. Without the option the hand-out's helpers are the course's, file for file, and a
    later release that does not say (``grade``'s) keeps the hand-out's kind."""
    import ast

    from helpers.cv import corrected_resampled_ttest

    full, graded = tmp_path / "full", tmp_path / "graded"
    handout.write_kit(full)
    assert sorted(p.name for p in (full / "helpers").iterdir()) == sorted(p.name for p in (ROOT / "helpers").glob("*.py"))
    for path in (ROOT / "helpers").glob("*.py"):
        assert (full / "helpers" / path.name).read_bytes() == path.read_bytes(), path.name
    assert not handout.is_graded(full)

    handout.write_kit(graded, graded=True)
    assert handout.is_graded(graded)
    names = sorted({(entry.module, name) for entry in handout.GIVEAWAYS for name in entry.names})
    for path in (graded / "helpers").glob("*.py"):
        defined = {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        assert not defined & {name for module, name in names if module == path.stem}, path.name
        text = path.read_text(encoding="utf-8")
        assert not [name for _, name in names if f"def {name}(" in text or f"class {name}(" in text], path.name
    run = subprocess.run([sys.executable, "-c", GRADED_CHECK, json.dumps(names)], cwd=graded, capture_output=True,
                         text=True, timeout=300, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    assert Path(report["helpers"]) == graded / "helpers" / "__init__.py"
    assert set(report["modules"]) == ({p.stem for p in (ROOT / "helpers").glob("*.py") if p.stem != "__init__"}
                                      | {handout.COMPILED.format(module=m) for m, _ in names})
    assert report["names"] == {f"{m}.{n}": {"callable": True, "source": False} for m, n in names}
    expected = corrected_resampled_ttest([0.8, 0.9, 0.7, 0.85], [0.75, 0.8, 0.72, 0.7], 90, 10).t
    assert report["t"] == pytest.approx(expected, rel=1e-12)

    handout.write_kit(graded, graded=None)   # a release by `make grade`: the hand-out stays graded
    assert handout.is_graded(graded)
    handout.write_kit(graded)                 # `make student` without GRADED: the course's helpers again
    assert not handout.is_graded(graded)


def test_make_student_graded_is_the_teachers_option(tmp_path):
    """`make student GRADED=1` releases with --graded, `make student` (or GRADED=0) with --no-graded: the
    arguments tools/grading gets (a stand-in python records them); `make help` names the option."""
    fake, recorded = stand_in_python(tmp_path)
    stamp = tmp_path / "stamp"
    stamp.touch()
    for extra, flag in ((["GRADED=1"], "--graded"), ([], "--no-graded"), (["GRADED=0"], "--no-graded")):
        result = subprocess.run(["make", "-s", "student", f"BIN={fake}", f"STAMP={stamp}", *extra], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert json.loads(recorded.read_text()) == ["tools/grading", "release", flag], extra
    help_text = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "GRADED=1: for graded homework" in help_text


@pytest.mark.slow
def test_the_handout_runs_on_its_own_in_a_fresh_environment(tmp_path):
    build = tmp_path / "build"
    # what `make student GRADED=1` runs: the stricter hand-out (its helpers/ without the source of what the
    # exercises ask for); without GRADED, its helpers are the course's own, file for file (test above)
    result = subprocess.run([sys.executable, "tools/grading", "release", "--graded", "--root", str(build)], cwd=ROOT,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert handout.is_graded(build / "release") and "for graded homework" in result.stdout
    folder = tmp_path / "student" / "model-evaluation"
    shutil.copytree(build / "release", folder)    # only the hand-out folder

    contents = sorted(p.name for p in folder.iterdir())
    assert contents == sorted([f"{name}.ipynb" for name in COURSE] + [
        "glossary.md", "helpers", "data", "requirements.txt", "README.md", "LICENSE", "LICENSE-CONTENT"])
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix in (".ipynb", ".py", ".md"):
            text = path.read_text(encoding="utf-8")
            assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, f"{path.name} gives answers"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "-m pip install -r requirements.txt" in readme and "jupyter lab" in readme
    times = schedule.load()
    for name in COURSE:
        assert f"| [{name}.ipynb]({name}.ipynb) |" in readme
        assert f"| {times[name].teaching} min | {times[name].exercises} min |" in readme

    venv = tmp_path / "env"
    start = time.perf_counter()
    for command in ([str(UV), "venv", "--quiet", "--python", sys.executable, str(venv)],
                    [str(UV), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
                     "-r", str(folder / "requirements.txt")]):
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stdout + result.stderr
    installed = time.perf_counter() - start
    freeze = subprocess.run([str(UV), "pip", "freeze", "--python", str(venv / "bin" / "python")],
                            capture_output=True, text=True, check=True).stdout.split()
    pinned = {line.lower() for line in (folder / "requirements.txt").read_text().splitlines()
              if line and not line.startswith("#")}
    # exactly the pinned set: the lock's packages and the two pip adds (tools/handout.py PIP_EXTRAS)
    assert {canonical_pin(line) for line in freeze} == {canonical_pin(line) for line in pinned}
    assert {canonical_pin(line) for line in handout.PIP_EXTRAS} <= {canonical_pin(line) for line in pinned}
    # and what pip itself would install from requirements.txt alone (the README's command; its resolver, not
    # uv's): the same set, nothing unpinned
    report = tmp_path / "pip-report.json"
    result = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "pip", "install", "--dry-run",
                             "--ignore-installed", "--quiet", "--report", str(report), "-r",
                             str(folder / "requirements.txt")], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    by_pip = {canonical_pin(f"{item['metadata']['name']}=={item['metadata']['version']}")
              for item in json.loads(report.read_text())["install"]}
    assert by_pip == {canonical_pin(line) for line in pinned}, (sorted(by_pip - {canonical_pin(line) for line in pinned}),
                                                             sorted({canonical_pin(line) for line in pinned} - by_pip))
    assert "Run All\nstops, by design, at the first exercise" in readme and "`NotImplementedError`" in readme

    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8"}
    (tmp_path / "home").mkdir()
    run = subprocess.run([str(venv / "bin" / "python"), str(ROOT / "tests" / "handout_runner.py"), str(folder),
                          *COURSE], cwd=tmp_path / "home", env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    reports = {r["name"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert sorted(reports) == COURSE
    for name, report in reports.items():
        assert report["error"] is None, f"{name}: {report['error']}"
        assert report["stderr"] == [], f"{name} wrote to stderr: {report['stderr']}"
        assert report["code_cells"] >= 10, f"{name}: only {report['code_cells']} cells before its exercises"
        assert Path(report["probe"]["python"]).parent == venv / "bin", report["probe"]
        assert Path(report["probe"]["helpers"]) == folder / "helpers" / "__init__.py", report["probe"]
    print(f"\nhand-out: environment in {installed:.0f} s; notebooks up to their exercises: "
          + ", ".join(f"{name[:2]} {r['seconds']:.0f} s" for name, r in reports.items()))
