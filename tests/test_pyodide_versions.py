"""The course on the package versions JupyterLite's Pyodide runs (issue 42).

`make lite` puts the notebooks in the browser, where Pyodide's own builds of numpy, scipy,
scikit-learn, pandas and matplotlib run: older than the course's lock (scikit-learn 1.8 against 1.9),
on Python 3.14. Those builds cannot be installed here, but the same versions from PyPI can, on CPython
3.13 or 3.14: `make pyodide-env` builds build/pyodide-env from requirements-pyodide.lock, and these tests
run all six instructor notebooks there (solutions and hidden tests included), top to bottom.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
ENV_PYTHON = ROOT / "build" / "pyodide-env" / "bin" / "python"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
# the npm Pyodide core (`make slides` installs it with the other vendored JavaScript)
PYODIDE_LOCK = ROOT / "build" / "slides" / "vendor" / "node_modules" / "pyodide" / "pyodide-lock.json"
# the compiled stack whose versions must be Pyodide's: what JupyterLite's kernel loads from Pyodide's release
PYODIDE_BUILT = ("numpy", "scipy", "scikit-learn", "matplotlib", "pandas", "joblib", "threadpoolctl",
                 "sqlalchemy", "tqdm", "pyyaml", "markupsafe")

RUN = r"""
import json, os, sys
import nbformat
from nbclient import NotebookClient

os.environ["COURSE_DECK"] = "1"  # each explorer draws every position of its sliders, as a student moves them

notebook = nbformat.read(sys.argv[1], as_version=4)
notebook.cells.append(nbformat.v4.new_code_cell(
    "import sys, sklearn, scipy, pandas, matplotlib, helpers\n"
    "print(sys.version_info[:2], sklearn.__version__, scipy.__version__, pandas.__version__,"
    " matplotlib.__version__, helpers.__file__)"))
NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
               resources={"metadata": {"path": sys.argv[2]}}).execute()
problems = []
for index, cell in enumerate(notebook.cells[:-1]):
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            problems.append(f"cell {index}: {output.ename}: {output.evalue[:500]}")
        elif output.output_type == "stream" and output.name == "stderr":
            problems.append(f"cell {index} wrote to its error stream (a warning?): {output.text[:500]}")
versions = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
print(json.dumps({"problems": problems, "versions": versions}))
"""


def lock_pins(path: Path) -> dict[str, str]:
    """``name: version`` of a pip requirements file's ``name==version`` lines."""
    pins = {}
    for line in path.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?==([^\s;#]+)", line)
        if match:
            pins[match.group(1).lower()] = match.group(3)
    return pins


def test_the_pinned_compiled_stack_is_pyodides():
    """requirements-pyodide.lock pins the versions of the npm Pyodide core's own lock, which `make lite` uses."""
    packages = json.loads(PYODIDE_LOCK.read_text())["packages"]
    pins = lock_pins(ROOT / "requirements-pyodide.lock")
    differ = {name: (pins.get(name), packages[name]["version"]) for name in PYODIDE_BUILT
              if pins.get(name) != packages[name]["version"]}
    assert not differ, f"requirements-pyodide.in must pin Pyodide's versions (ours, Pyodide's): {differ}"
    # the pure packages the site bundles come from the course's own lock: what runs in the browser was tested
    course = lock_pins(ROOT / "requirements.lock")
    for name in ("imbalanced-learn", "optuna", "ipywidgets", "anywidget", "markdown-it-py"):
        assert pins[name] == course[name], f"{name}: {pins[name]} here, {course[name]} in requirements.lock"


def test_the_helpers_install_on_python_3_11_to_3_14():
    """pip refuses a package whose requires-python excludes the interpreter: 3.11 (the course), 3.13 (the
    environment below) and 3.14 (Pyodide's) must be admitted."""
    admitted = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    assert [v for v in ("3.11", "3.12", "3.13", "3.14") if Version(v) not in admitted] == []
    version = subprocess.run([ENV_PYTHON, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert version in (["3", "13"], ["3", "14"]), f"build/pyodide-env runs Python {'.'.join(version)}"
    # installed by `make pyodide-env` with pip's own rule (uv pip install -e .), and importable there
    shown = subprocess.run([ROOT / ".venv" / "bin" / "uv", "pip", "show", "--python", ENV_PYTHON,
                            "model-evaluation-helpers"], capture_output=True, text=True)
    assert shown.returncode == 0 and "Name: model-evaluation-helpers" in shown.stdout, shown.stderr


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem[:2] for path in NOTEBOOKS])
def test_the_notebook_runs_on_pyodides_versions(notebook, tmp_path):
    """Every cell, top to bottom, with no error and no warning, on scikit-learn 1.8 and Python 3.13 or 3.14.

    The kernel runs as the decks' does (``COURSE_DECK=1``), so every explorer draws its figure at every
    position of its sliders: what a student's slider does in the browser. The notebook runs in a copy
    (06 writes its Optuna studies beside itself) with the work tree's helpers.
    """
    shutil.copy(notebook, tmp_path / notebook.name)
    result = subprocess.run([ENV_PYTHON, "-c", RUN, tmp_path / notebook.name, tmp_path], capture_output=True,
                            text=True, timeout=900, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    pins = lock_pins(ROOT / "requirements-pyodide.lock")
    expected = (f"{pins['scikit-learn']} {pins['scipy']} {pins['pandas']} {pins['matplotlib']} "
                f"{ROOT / 'helpers' / '__init__.py'}")
    assert re.fullmatch(r"\(3, 1[34]\) " + re.escape(expected) + r"\n", report["versions"]), report["versions"]
    assert report["problems"] == [], "\n".join(report["problems"])


def test_seeded_target_encoder_encodes_alike_on_both_versions():
    """helpers.cv.seeded_target_encoder takes 1.9's splitter or 1.8's shuffle and random_state: the
    cross-fitted encodings must be the same numbers on both (03's leak demonstration prints one AUC)."""
    script = ("import numpy as np, sklearn; from helpers.cv import seeded_target_encoder\n"
              "rng = np.random.default_rng(4); X = rng.integers(0, 30, 200).reshape(-1, 1)\n"
              "y = rng.integers(0, 2, 200)\n"
              "print(sklearn.__version__, *seeded_target_encoder(n_splits=4, random_state=7)"
              ".fit_transform(X, y).round(12).ravel())")
    ours, pyodides = (subprocess.run([python, "-c", script], capture_output=True, text=True, check=True,
                                     cwd=ROOT).stdout.split() for python in (ROOT / ".venv" / "bin" / "python",
                                                                              ENV_PYTHON))
    assert (Version(ours[0]).release[:2], Version(pyodides[0]).release[:2]) == ((1, 9), (1, 8))
    assert len(ours) == 201 and ours[1:] == pyodides[1:]
