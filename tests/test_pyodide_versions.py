"""The course on the package versions JupyterLite's Pyodide runs (issue 42).

`make lite` puts the notebooks in the browser, where Pyodide's own builds of numpy, scipy,
scikit-learn, pandas and matplotlib run: older than the course's lock (scikit-learn 1.8 against 1.9),
on Python 3.14. Those builds cannot be installed here, but the same versions from PyPI can, on CPython
3.13 or 3.14: `make pyodide-env` builds build/pyodide-env from requirements-pyodide.lock, and these tests
run all six instructor notebooks there (solutions and hidden tests included), top to bottom.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import elsewhere  # noqa: E402  (tools/publishing/elsewhere.py: the lock's pins, as Colab's first cell reads them)

from helpers.widgets import DECK_ENV  # noqa: E402  (a kernel with it set draws every slider position)
ENV_PYTHON = ROOT / "build" / "pyodide-env" / "bin" / "python"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
# the npm Pyodide core (`make lite-deps`, which `make test` runs: tools/publishing/lite/package-lock.json)
PYODIDE_LOCK = ROOT / "build" / "lite" / "npm" / "node_modules" / "pyodide" / "pyodide-lock.json"
# the compiled stack whose versions must be Pyodide's: what JupyterLite's kernel loads from Pyodide's release
PYODIDE_BUILT = ("numpy", "scipy", "scikit-learn", "matplotlib", "pandas", "joblib", "threadpoolctl",
                 "sqlalchemy", "tqdm", "pyyaml", "markupsafe")
# the pure packages the JupyterLite site bundles, at the course lock's versions
PURE = ("imbalanced-learn", "optuna", "ipywidgets", "anywidget", "markdown-it-py")

# Cells whose printed numbers differ on Pyodide's versions, and why: everything else prints the same digits
# as the committed notebooks (nbval strict). A student in JupyterLite sees these differences.
DIFFERENT_ON_PYODIDE = {  # (notebook, the cell's first line): what differs
    ("05", "depths = [1, 2, 3, 4, 6, 8, 10, 12, 15, 20]"):
        "the depth curve's alt: RMSE 4.63 against 4.61 at depth 20 (scikit-learn 1.8's regression trees)",
    ("05", "forests = {"): "the forests' learning-curve table: 4.08 and 4.10 against 4.09 and 4.11",
    ("05", "variance_rows = {}"): "the variance table: 17.98, 4.11 and 13.87 against 17.97, 4.12 and 13.85",
}


def lock_pins(path: Path, names=PYODIDE_BUILT + PURE) -> dict[str, str]:
    """``{name: version}`` of ``names`` as the lock file ``path`` pins them (tools/publishing/elsewhere.py's reader)."""
    return elsewhere.pins(path.read_text(), names)


def test_the_pinned_compiled_stack_is_pyodides():
    """requirements-pyodide.lock pins the versions of the npm Pyodide core's own lock, which `make lite` uses."""
    packages = json.loads(PYODIDE_LOCK.read_text())["packages"]
    pins = lock_pins(ROOT / "requirements-pyodide.lock")
    differ = {name: (pins.get(name), packages[name]["version"]) for name in PYODIDE_BUILT
              if pins.get(name) != packages[name]["version"]}
    assert not differ, f"requirements-pyodide.in must pin Pyodide's versions (ours, Pyodide's): {differ}"
    # the pure packages the site bundles come from the course's own lock: what runs in the browser was tested
    course = lock_pins(ROOT / "requirements.lock", PURE)
    for name in PURE:
        assert pins[name] == course[name], f"{name}: {pins[name]} here, {course[name]} in requirements.lock"


def test_the_helpers_install_on_python_3_11_to_3_14():
    """pip refuses a package whose requires-python excludes the interpreter: 3.11 (the course), 3.13 (the
    environment below) and 3.14 (Pyodide's) must be admitted, and 3.10 and 3.15 (untested) not. The course's
    .venv (3.11) and build/pyodide-env (3.13) have it installed by pip's rule; tests/test_lite.py checks that
    every requirement of the site's wheels is met on Pyodide's 3.14."""
    admitted = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    assert [v for v in ("3.10", "3.11", "3.12", "3.13", "3.14", "3.15") if Version(v) in admitted] == [
        "3.11", "3.12", "3.13", "3.14"]
    version = subprocess.run([ENV_PYTHON, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert version in (["3", "13"], ["3", "14"]), f"build/pyodide-env runs Python {'.'.join(version)}"
    # installed by `make pyodide-env` with pip's own rule (uv pip install -e .): the work tree's helpers, beside
    # Pyodide's versions of the compiled stack
    script = ("import sklearn, scipy, pandas, matplotlib, numpy, helpers; print(sklearn.__version__, "
              "scipy.__version__, pandas.__version__, matplotlib.__version__, numpy.__version__, helpers.__file__)")
    pins = lock_pins(ROOT / "requirements-pyodide.lock")
    assert subprocess.run([ENV_PYTHON, "-c", script], capture_output=True, text=True, check=True,
                          cwd="/").stdout.split() == [pins["scikit-learn"], pins["scipy"], pins["pandas"],
                                                      pins["matplotlib"], pins["numpy"],
                                                      str(ROOT / "helpers" / "__init__.py")]
    shown = subprocess.run([ROOT / ".venv" / "bin" / "uv", "pip", "show", "--python", ENV_PYTHON,
                            "model-evaluation-helpers"], capture_output=True, text=True)
    assert shown.returncode == 0 and "Name: model-evaluation-helpers" in shown.stdout, shown.stderr


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[path.stem[:2] for path in NOTEBOOKS])
def test_the_notebook_runs_on_pyodides_versions(notebook, tmp_path):
    """nbval strict on scikit-learn 1.8 and Python 3.13 or 3.14: every cell runs, with no error and no warning,
    and prints what the committed notebook shows, but for the cells of DIFFERENT_ON_PYODIDE (marked
    nbval-ignore-output in the copy that runs; they must still run without an error).

    The kernel runs as the decks' does (``COURSE_DECK=1``), so every explorer draws its figure at every
    position of its sliders: what a student's slider does in the browser. The notebook runs in a copy
    (06 writes its Optuna studies beside itself) with the work tree's helpers.
    """
    copy = nbformat.read(notebook, as_version=4)
    for (name, first_line), why in DIFFERENT_ON_PYODIDE.items():
        if notebook.stem.startswith(name):
            [cell] = [cell for cell in copy.cells if cell.cell_type == "code"
                      and cell.source.split("\n", 1)[0] == first_line]
            tags = cell.metadata.setdefault("tags", [])
            assert "nbval-ignore-output" not in tags, f"{name}'s cell {first_line!r} is not compared anyway"
            tags.append("nbval-ignore-output")
    nbformat.write(copy, tmp_path / notebook.name)
    result = subprocess.run([ENV_PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", os.devnull,
                             "--rootdir", tmp_path, "--nbval", "--nbval-current-env", "--nbval-sanitize-with",
                             ROOT / "tests" / "nbval_sanitize.cfg", "--nbval-cell-timeout", "300", notebook.name],
                            capture_output=True, text=True, timeout=900, cwd=tmp_path,
                            env={**os.environ, DECK_ENV: "1"})
    assert result.returncode == 0, result.stdout[-6000:]
    assert re.search(r"\b\d+ passed", result.stdout), result.stdout[-2000:]


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
