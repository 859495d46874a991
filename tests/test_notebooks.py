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


# --------------------------------------------------------------------------- numbers written as words
UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
TEENS = {"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
NUMBER_WORD = re.compile(r"\b(?:(?P<teen>" + "|".join(TEENS) + r")|(?P<tens>" + "|".join(TENS) + r")"
                         r"(?:[- ](?P<unit>" + "|".join(UNITS) + r"))?)\b", re.IGNORECASE)


def number_words(text: str) -> list[tuple[str, int]]:
    """The numbers from 11 to 99 written as words in ``text`` ("thirty", "Thirty-one"), with their values."""
    found = []
    for match in NUMBER_WORD.finditer(text):
        if match["teen"]:
            found.append((match[0], TEENS[match["teen"].lower()]))
        else:
            found.append((match[0], TENS[match["tens"].lower()] + UNITS.get((match["unit"] or "").lower(), 0)))
    return found


def code_text(cell) -> str:
    """A code cell's source and its text outputs: where the code states or prints a number."""
    outputs = []
    for output in cell.get("outputs", []):
        outputs.append("".join(output.get("text", "")))
        outputs.append("".join(output.get("data", {}).get("text/plain", "")))
    return "".join(cell["source"]) + "\n" + "\n".join(outputs)


def numbers_as_words_unbacked(cells) -> list[str]:
    """Each number word (11-99) in a cell whose value, in digits, is in neither that cell's code nor the code
    cells just before and after it: a word the code no longer backs ("thirty" seeds after the code became 40)."""
    code = [code_text(cell) if cell["cell_type"] == "code" else "" for cell in cells]
    problems = []
    for index, cell in enumerate(cells):
        text = "".join(cell["source"])
        nearby = [code[index]]
        nearby += [code[j] for j in range(index - 1, -1, -1) if cells[j]["cell_type"] == "code"][:1]
        nearby += [code[j] for j in range(index + 1, len(cells)) if cells[j]["cell_type"] == "code"][:1]
        for word, value in number_words(text):
            if not any(re.search(rf"(?<![\d.]){value}(?![\d])", block) for block in nearby):
                problems.append(f"cell {index}: '{word}' ({value}) is not in the code or output next to it")
    return problems


def test_number_words_are_read_and_an_unbacked_one_is_found():
    assert number_words("then for thirty seeds; Thirty-one numbers; sixteen data sets; one, ten") == [
        ("thirty", 30), ("Thirty-one", 31), ("sixteen", 16)]
    markdown = {"cell_type": "markdown", "source": ["the same split for thirty seeds"]}
    code_30 = {"cell_type": "code", "source": ["seeds = np.arange(30)"], "outputs": []}
    code_40 = {"cell_type": "code", "source": ["seeds = np.arange(40)"],
               "outputs": [{"output_type": "stream", "text": ["40 seeds: from 0.62 to 0.71\n"]}]}
    assert numbers_as_words_unbacked([markdown, code_30]) == []
    assert numbers_as_words_unbacked([code_30, markdown]) == []
    assert numbers_as_words_unbacked([markdown, code_40]) == [
        "cell 0: 'thirty' (30) is not in the code or output next to it"]
    title = {"cell_type": "code", "source": ['ax.set(title="thirty random splits")\nseeds = np.arange(40)'],
             "outputs": []}
    assert numbers_as_words_unbacked([title]) == ["cell 0: 'thirty' (30) is not in the code or output next to it"]
    assert numbers_as_words_unbacked([markdown, code_30 | {"source": ["x = 0.30"]}]) != []  # 0.30 is not 30


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_numbers_written_as_words_agree_with_the_code_next_to_them(path):
    problems = numbers_as_words_unbacked(json.loads(path.read_text())["cells"])
    assert problems == [], f"{path.name}: write the number in digits printed by the code, or fix it: {problems}"


# --------------------------------------------------------------------------- leaving a widget by keyboard
EXPLORER_CALL = re.compile(r"^\w+_explorer\(", re.MULTILINE)
WAY_OUT = ("To leave a slider or a number box, press Escape", "Tab or", "Shift+Tab")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_notebook_says_how_to_leave_a_widget_once_just_before_its_first_slider(path):
    cells = json.loads(path.read_text())["cells"]
    sources = ["".join(cell["source"]) for cell in cells]
    explorers = [i for i, (cell, source) in enumerate(zip(cells, sources))
                 if cell["cell_type"] == "code" and EXPLORER_CALL.search(source)]
    saying = [i for i, source in enumerate(sources) if all(phrase in source for phrase in WAY_OUT)]
    if not explorers:
        assert saying == [], f"{path.name} has no slider, so no way out of one to explain"
        return
    assert len(saying) == 1, f"{path.name}: say once how to leave a widget (Tab / Shift+Tab); found {saying}"
    before_first = max(i for i in range(explorers[0]) if cells[i]["cell_type"] == "markdown")
    assert saying == [before_first], f"{path.name}: say it in the text just before the first slider"


def test_the_accessibility_guide_gives_the_way_out_of_a_widget():
    guide = (ROOT / "docs" / "accessibility.md").read_text()
    assert all(phrase in guide for phrase in ("To leave a slider or a number box, press Escape", "Tab or Shift+Tab"))
