"""Binder and Colab (tools/publishing/elsewhere.py): the addresses, Binder's environment files and Colab's first
cell, run here as Colab would run it (its `google.colab` module stood in for; pip and the restart recorded)."""

from __future__ import annotations

import contextlib
import io
import os
import stat
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import elsewhere  # noqa: E402
import handout  # noqa: E402  (tools/handout.py, on the path elsewhere set)

LOCK = (ROOT / "requirements.lock").read_text()
WHEEL = "https://example.org/course/downloads/model_evaluation_helpers-0.1.0-py3-none-any.whl"


def test_the_addresses_open_the_published_branch():
    repository = "https://github.com/model-evaluation-course/model-evaluation"
    assert elsewhere.binder_url(repository, "02_roc_by_hand") == (
        "https://mybinder.org/v2/gh/model-evaluation-course/model-evaluation/gh-pages"
        "?urlpath=lab/tree/handout/02_roc_by_hand.ipynb")
    assert elsewhere.colab_url(repository + ".git", "03_cross_validation", branch="site") == (
        "https://colab.research.google.com/github/model-evaluation-course/model-evaluation/blob/site/colab/"
        "03_cross_validation.ipynb")
    for bad in ("https://gitlab.com/a/b", "github.com/a/b", "https://github.com/a", "https://github.com/a/b/c"):
        with pytest.raises(ValueError, match="not https://github.com/OWNER/NAME"):
            elsewhere.github(bad)


def test_binders_environment_is_the_hand_outs():
    """binder/requirements.txt is what the hand-out pins (`make lock` rewrites both from requirements.lock), on
    the hand-out's Python; postBuild is a valid bash script Binder can execute."""
    assert (ROOT / "binder" / "requirements.txt").read_text() == handout.requirements_text(LOCK), (
        "binder/requirements.txt is stale: run `.venv/bin/python tools/handout.py --binder` (make lock does)")
    assert (ROOT / "binder" / "runtime.txt").read_text() == f"python-{handout.PYTHON}\n"
    post_build = ROOT / "binder" / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR, "repo2docker runs postBuild only when it is executable"
    subprocess.run(["bash", "-n", post_build], check=True)


def test_the_colab_pins_are_the_locks():
    pins = elsewhere.pins(LOCK)
    assert set(pins) == set(elsewhere.COLAB_PACKAGES)
    for name, version in pins.items():
        assert f"\n{name}=={version}\n" in "\n" + LOCK, f"{name}=={version} is not requirements.lock's pin"
    with pytest.raises(ValueError, match="no pin for nonexistent-package"):
        elsewhere.pins(LOCK, ("numpy", "nonexistent-package"))


def run_colab_cell(source: str, monkeypatch) -> tuple[list, list, list, str]:
    """Run the cell here as Colab would: a stand-in google.colab module; pip and os.kill recorded, not done."""
    enabled, installs, kills = [], [], []
    colab = types.ModuleType("google.colab")
    colab.output = types.SimpleNamespace(enable_custom_widget_manager=lambda: enabled.append(True))
    google = types.ModuleType("google")
    google.colab = colab
    monkeypatch.setitem(sys.modules, "google", google)
    monkeypatch.setitem(sys.modules, "google.colab", colab)
    monkeypatch.setattr(subprocess, "run", lambda command, check: installs.append(command))
    monkeypatch.setattr(os, "kill", lambda pid, signal: kills.append((pid, signal)))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "colab-setup", "exec"), {"__name__": "__main__"})
    return enabled, installs, kills, printed.getvalue()


def test_colabs_first_cell_with_the_course_versions_installed_only_turns_on_the_widgets(monkeypatch):
    # this environment has the lock's versions and the helpers (editable), as Colab has after the first run
    enabled, installs, kills, printed = run_colab_cell(elsewhere.colab_cell(elsewhere.pins(LOCK), WHEEL),
                                                       monkeypatch)
    assert (enabled, installs, kills) == ([True], [], [])
    assert printed.startswith("Ready")


def test_colabs_first_cell_installs_what_differs_and_restarts_once(monkeypatch):
    pins = dict(elsewhere.pins(LOCK), numpy="1.26.4", optuna="4.0.0")
    enabled, installs, kills, printed = run_colab_cell(elsewhere.colab_cell(pins, WHEEL), monkeypatch)
    assert installs == [[sys.executable, "-m", "pip", "install", "--quiet", "numpy==1.26.4", "optuna==4.0.0",
                         WHEEL]]
    assert kills == [(os.getpid(), 9)] and enabled == [], "the runtime restarts before anything else"
    assert "run this cell again" in printed


def test_a_colab_notebook_is_the_student_notebook_after_its_set_up_cell():
    student = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("See [the glossary](glossary.md#recall) and [02](02_roc_by_hand.ipynb), "
                                      "[§3](#3.-Folds), [docs](https://scikit-learn.org/x.md)."),
        nbformat.v4.new_code_cell("x = 1")])
    before = nbformat.writes(student)
    colab = elsewhere.colab_notebook(student, {"numpy": "2.4.4"}, WHEEL, "https://example.org/course/")
    assert nbformat.writes(student) == before, "the student notebook is not modified"
    assert colab.cells[0].metadata["tags"] == [elsewhere.COLAB_TAG]
    assert '"numpy": "2.4.4"' in colab.cells[0].source and WHEEL in colab.cells[0].source
    assert colab.cells[1].source == (
        "See [the glossary](https://example.org/course/glossary.html#recall) and "
        "[02](https://example.org/course/02_roc_by_hand.html), [§3](#3.-Folds), [docs](https://scikit-learn.org/x.md).")
    assert colab.cells[2].source == "x = 1"
    nbformat.validate(colab)
