"""The committed notebooks: in sync with their py:percent twins, executed, quiet."""

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import execute  # noqa: E402  (tools/execute.py builds a notebook from its twin)

TWINS = sorted((ROOT / "notebooks" / "py").glob("*.py"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_every_notebook_has_a_twin_and_back():
    assert TWINS, "no notebook sources in notebooks/py/"
    assert [t.stem for t in TWINS] == [n.stem for n in NOTEBOOKS]


@pytest.mark.parametrize("twin", TWINS, ids=lambda p: p.stem)
def test_notebook_matches_its_twin(twin):
    built = execute.build(twin)
    committed = json.loads((ROOT / "notebooks" / f"{twin.stem}.ipynb").read_text())
    assert len(committed["cells"]) == len(built.cells), "re-run `make execute`: cell count differs"
    for index, (ours, theirs) in enumerate(zip(built.cells, committed["cells"])):
        assert theirs["cell_type"] == ours.cell_type, f"cell {index}"
        assert "".join(theirs["source"]) == ours.source, (
            f"cell {index} differs from the twin: `make execute NB={twin.stem[:2]}` if you edited the twin, "
            f"`make sync NB={twin.stem[:2]}` if you edited the notebook (`make check-notebook NB={twin.stem[:2]}` "
            "says which)")
        for key in ("nbgrader", "tags"):
            assert theirs["metadata"].get(key) == ours.metadata.get(key), f"cell {index} metadata {key}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_executed_in_order_without_warnings(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in cells]
    assert None not in counts, "some code cells were not executed"
    assert counts == list(range(1, len(counts) + 1)), "cells were not executed top to bottom once"
    noisy = [o for c in cells for o in c["outputs"]
             if o.get("name") == "stderr" or o["output_type"] == "error"]
    assert noisy == []


@pytest.mark.parametrize("twin", TWINS, ids=lambda p: p.stem)
def test_no_estimator_runs_on_threads(twin):
    """scikit-learn's thread-backed n_jobs (forests, for one) enters warnings.catch_warnings in several threads
    at once, which Python 3.11 does not make safe: the kernel's warning filters can be left empty, and every
    later parallel fit then prints a stray UserWarning (a live slideshow of 05 showed four). The course's fits
    run one after another (n_jobs left at its default) or in processes (Optuna's workers, 06)."""
    threaded = [f"cell {index}: n_jobs={ast.unparse(keyword.value)}"
                for index, cell in enumerate(execute.build(twin).cells) if cell.cell_type == "code"
                for keyword in ast.walk(ast.parse(cell.source)) if isinstance(keyword, ast.keyword)
                and keyword.arg == "n_jobs" and not (isinstance(keyword.value, ast.Constant)
                                                     and keyword.value.value in (None, 1))]
    assert not threaded, f"{twin.name}: {threaded}; leave n_jobs at its default (see this test's docstring)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_structure(path):
    cells = json.loads(path.read_text())["cells"]
    markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    assert markdown[0].startswith(f"# {path.stem[:2]}"), "the first cell is the numbered title"
    assert "**You will learn**" in markdown[0] and "**Prerequisites**" in markdown[0]
    headings = [line for m in markdown for line in m.splitlines() if line.startswith("## ")]
    assert any(h.startswith("## Practice") for h in headings)
    assert headings[-1] == "## Summary", "the notebook ends with its summary"
    graded = [c for c in cells if c["metadata"].get("nbgrader", {}).get("grade")]
    assert len(graded) >= 4, "at least four graded exercises"
    hidden = [c for c in graded if "### BEGIN HIDDEN TESTS" in "".join(c["source"])]
    assert len(hidden) >= 4, "graded exercises carry hidden tests"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_states_an_honest_time_and_marks_optional_deep_dives(path):
    """The introduction says how long reading and the exercises take, and the estimate is plausible.

    Reading and running: at least the words before the Practice section (prose and
    code) at 200 words a minute, at most three times that (running cells, figures,
    sliders). Exercises: 5 to 15 minutes each.
    """
    cells = json.loads(path.read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells]
    intro = sources[0]
    timing = [paragraph for paragraph in intro.split("\n\n") if "minutes" in paragraph]
    assert timing, "the introduction states how many minutes reading and the exercises take"
    minutes = [int(m) for m in re.findall(r"\d+", timing[0])]
    assert len(minutes) >= 2, "one paragraph gives the minutes of reading and running, then of the exercises"
    reading, exercises = minutes[:2]
    practice = next(i for i, s in enumerate(sources) if s.startswith("## Practice"))
    words = sum(len(s.split()) for s in sources[:practice])
    assert words / 200 <= reading <= 3 * words / 200, f"{words} words before the Practice section: {reading} minutes?"
    graded = sum(1 for c in cells if c["metadata"].get("nbgrader", {}).get("grade"))
    assert 5 * graded <= exercises <= 15 * graded, f"{graded} exercises in {exercises} minutes?"
    assert '"(optional)"' in intro, 'the introduction explains the sections marked "(optional)"'
    headings = [line for s, c in zip(sources, cells) if c["cell_type"] == "markdown"
                for line in s.splitlines() if line.startswith("#")]
    assert any(h.endswith("(optional)") for h in headings), "mark the optional deep-dives in their headings"
