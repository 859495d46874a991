"""Visible tests that teach: plausible wrong answers fail them with the message meant for them.

For every notebook, tests/wrong_answers/NN_name.py lists wrong answers to its
graded exercises, at least one per rule the instructions state (the value for a
zero denominator, ties, cloning, using the arguments, the return type...), each
with a fragment of the visible assertion message that should tell the student
what to fix. The harness runs each notebook in one subprocess: it executes only
the set-up statements the visible tests need (found backwards from them with
tools/grading's AST helpers), every instructor answer, and the test cells
with their hidden part removed, as the student release has them. It checks that
the instructor's answers pass; then, for each wrong answer, it defines it, runs
the visible tests of its exercise, records the exception and restores the
instructor's answer (and the data the tests read). Then it runs the wrong answer
against the hidden tests alone (each visible statement on its own, failures
skipped, then the hidden part, as grading runs it after the visible part passed):
hidden tests vary the inputs, not the rules, so they must reject every wrong
answer too, with a message (grading shows a student only that message).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import linecache
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG = Path(__file__).resolve().parent / "wrong_answers"
TWINS = ROOT / "notebooks" / "py"
NOTEBOOK_NAMES = sorted(path.stem for path in TWINS.glob("[0-9][0-9]_*.py"))
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS.*?### END HIDDEN TESTS\n?", re.DOTALL)
HIDDEN_PART = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)


def load_module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def load_grading():
    """The grading package (tools/grading/), imported from tools/ as its command line does."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import grading
    finally:
        sys.path.pop(0)
    return grading


# --------------------------------------------------------------------------- the subprocess

def visible(source: str) -> str:
    """A test cell as the student release has it: the hidden part removed."""
    return HIDDEN.sub("", source)


def hidden_only(source: str) -> str:
    """A test cell whose visible assertions cannot stop it: each top-level statement before the hidden
    part runs on its own (what fails is skipped), then the hidden part runs as grading runs it."""
    import ast

    found = HIDDEN_PART.search(source)
    if found is None:
        return ""
    before = source[:found.start()]
    lines = []
    for statement in ast.parse(before).body:
        lines += ["try:", f"    exec(compile({ast.get_source_segment(before, statement)!r}, '<visible>', 'exec'))",
                  "except BaseException:", "    pass"]
    return "\n".join(lines) + "\n" + found.group(1)


def plan(cells, grading, extra: dict[str, set[str]]) -> list[dict]:
    """The steps one notebook needs: set-up statements, answers and visible tests, in order.

    The first code cell (imports, settings, small definitions) runs whole. Backwards
    from the test cells, another code cell's statement is kept when it binds a name a
    later test, answer or kept statement reads (``extra``: the names the wrong answers
    to an exercise read), or may change one in place (as grading.make_plan does for
    the grading sandbox).
    """
    kinds = [grading.cell_kind(cell) for cell in cells]
    sources = [visible(cell.source) if kind == "test" else cell.source for cell, kind in zip(cells, kinds)]
    trees = [grading.parse(source) for source in sources]
    unchanged = grading.unchanging_names(trees)
    needed: set[str] = set()
    kept: dict[int, str] = {}
    for i in reversed(range(len(cells))):
        tree = trees[i]
        if kinds[i] == "test":   # the hidden part's names too: the harness runs it alone
            needed |= grading.free_names(tree) | grading.free_names(grading.parse(grading.python_source(cells[i].source)))
        elif kinds[i] == "answer":
            grade_id = cells[i].metadata["nbgrader"]["grade_id"]
            needed = (needed - grading.defined_names(tree)) | grading.free_names(tree) | extra.get(grade_id, set())
        elif i == 0 and tree is not None:
            kept[i] = grading.python_source(sources[i])
            needed = (needed - grading.defined_names(tree)) | grading.free_names(tree)
        elif tree is not None:
            source, needed = grading.slice_cell(sources[i], tree, needed, unchanged)
            if source is not None:
                kept[i] = source
    steps, answer = [], None
    for i, cell in enumerate(cells):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if kinds[i] == "answer":
            answer = grade_id
            steps.append({"kind": "answer", "grade_id": grade_id, "source": grading.python_source(sources[i])})
        elif kinds[i] == "test":
            steps.append({"kind": "test", "grade_id": grade_id, "answer": answer,
                          "source": grading.python_source(sources[i]), "names": sorted(grading.free_names(trees[i])),
                          "hidden": grading.python_source(hidden_only(cell.source)),
                          "hidden_names": sorted(grading.free_names(grading.parse(grading.python_source(cell.source))))})
        elif i in kept:
            steps.append({"kind": "setup", "index": i, "source": kept[i]})
    return steps


def outcome(source: str, namespace: dict, name: str) -> dict:
    """Run a cell's source; the exception it raised (type and message), if any."""
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)  # for inspect.getsource
    try:
        exec(compile(source, name, "exec"), namespace)
    except BaseException as error:  # a wrong answer may raise anything
        return {"error": type(error).__name__, "message": str(error),
                "where": traceback.format_exc(limit=-2)[-600:]}
    return {"error": None, "message": "", "where": ""}


def snapshot(namespace: dict, names: list[str]) -> dict:
    """Copies of the data a test reads, so a wrong answer that changes it cannot affect the next one."""
    saved = {}
    for name in names:
        value = namespace.get(name)
        if name in namespace and not callable(value) and type(value).__name__ != "module":
            try:
                saved[name] = copy.deepcopy(value)
            except Exception:
                pass
    return saved


def run_notebook(name: str) -> dict:
    import jupytext
    import matplotlib

    matplotlib.use("Agg")
    grading = load_grading()
    wrong = load_module(f"wrong_{name}", WRONG / f"{name}.py").WRONG_ANSWERS
    cells = [cell for cell in jupytext.read(TWINS / f"{name}.py").cells if cell.cell_type == "code"]
    extra: dict[str, set[str]] = {}
    for item in wrong:
        extra.setdefault(item["exercise"], set()).update(grading.free_names(grading.parse(item["source"])))
    steps = plan(cells, grading, extra)
    os.chdir(ROOT / "notebooks")
    namespace = {"__name__": "__main__"}
    report = {"setup": [], "solution": {}, "hidden_solution": {}, "wrong": [], "hidden": []}
    answers, tests = {}, {}
    for step in steps:
        if step["kind"] == "setup":
            result = outcome(step["source"], namespace, f"<cell {step['index']}>")
            if result["error"]:
                report["setup"].append({"index": step["index"], **result})
        elif step["kind"] == "answer":
            answers[step["grade_id"]] = step["source"]
            outcome(step["source"], namespace, step["grade_id"])
        else:
            tests[step["answer"]] = step
            report["solution"][step["grade_id"]] = outcome(step["source"], namespace, step["grade_id"])
            report["hidden_solution"][step["grade_id"]] = outcome(step["hidden"], namespace, step["grade_id"] + "-hidden")
    for index, item in enumerate(wrong):
        test = tests.get(item["exercise"])
        if test is None:
            report["wrong"].append({"index": index, "error": "NoExercise", "message": item["exercise"], "where": ""})
            continue
        saved = snapshot(namespace, test["names"])
        defined = outcome(item["source"], namespace, f"<wrong answer {index}>")
        result = defined if defined["error"] else outcome(test["source"], namespace, test["grade_id"])
        report["wrong"].append({"index": index, **result})
        namespace.update(saved)
        if not defined["error"]:   # the hidden tests alone, as if every visible one had passed
            saved = snapshot(namespace, test["hidden_names"])
            outcome(item["source"], namespace, f"<wrong answer {index}>")
            report["hidden"].append({"index": index, **outcome(test["hidden"], namespace, test["grade_id"] + "-hidden")})
            namespace.update(saved)
        else:
            report["hidden"].append({"index": index, **defined})
        outcome(answers[item["exercise"]], namespace, item["exercise"])
    return report


if __name__ == "__main__":
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):  # what the cells print
        result = run_notebook(sys.argv[1])
    print(json.dumps(result))
    sys.exit(0)


# --------------------------------------------------------------------------- the tests

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

import pytest  # noqa: E402


_RUNS: dict = {}


def run_in_subprocess(name: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env=env)


def selected_notebooks(items) -> list[str]:
    """The notebooks whose reports the selected tests use (`make check-notebook NB=03` selects one)."""
    names = {item.callspec.params["report"] for item in items
             if "report" in getattr(getattr(item, "callspec", None), "params", {})}
    return [name for name in NOTEBOOK_NAMES if name in names]


@pytest.fixture(scope="module", params=NOTEBOOK_NAMES)
def report(request):
    """One notebook's results; the subprocesses of the selected notebooks (all six in a whole run) start
    together, two at a time (the tests run in one worker). Only those: one notebook's check waits for no
    other's harness, neither before its own nor at exit."""
    if not _RUNS:
        pool = ThreadPoolExecutor(max_workers=2)
        names = selected_notebooks(request.session.items) or [request.param]
        _RUNS.update({name: pool.submit(run_in_subprocess, name) for name in names})
        pool.shutdown(wait=False)
    name = request.param
    result = _RUNS[name].result() if name in _RUNS else run_in_subprocess(name)
    assert result.returncode == 0, f"the harness failed on {name}:\n{result.stderr[-3000:]}"
    data = json.loads(result.stdout.strip().splitlines()[-1])
    data["name"] = name
    data["answers"] = load_module(f"wrong_{name}", WRONG / f"{name}.py").WRONG_ANSWERS
    return data


def test_a_check_of_one_notebook_runs_only_its_harness():
    """`make check-notebook NB=03` selects 03's tests: the harness runs 03 alone, not all six."""
    def item(**params):
        return type("Item", (), {"callspec": type("CallSpec", (), {"params": params})()})()
    chosen = [item(report=NOTEBOOK_NAMES[2]), item(name=NOTEBOOK_NAMES[0]), item(report=NOTEBOOK_NAMES[2]), object()]
    assert selected_notebooks(chosen) == [NOTEBOOK_NAMES[2]]
    assert selected_notebooks([item(report=name) for name in reversed(NOTEBOOK_NAMES)]) == NOTEBOOK_NAMES


def test_every_notebook_has_wrong_answers():
    assert NOTEBOOK_NAMES and [p.stem for p in sorted(WRONG.glob("[0-9][0-9]_*.py"))] == NOTEBOOK_NAMES


def test_set_up_runs_and_the_solutions_pass_the_visible_tests(report):
    assert report["setup"] == [], f"set-up statements failed: {report['setup']}"
    assert len(report["solution"]) >= 4, "a notebook has at least four graded exercises"
    failing = {grade_id: r for grade_id, r in report["solution"].items() if r["error"]}
    assert failing == {}, "the instructor's answers should pass the visible tests"


def test_every_exercise_has_wrong_answers(report):
    exercises = {grade_id.replace("-tests", "-answer") for grade_id in report["solution"]}
    covered = {item["exercise"] for item in report["answers"]}
    assert covered == exercises, f"exercises without wrong answers: {sorted(exercises - covered)}"
    for item in report["answers"]:
        assert item["rule"] and item["message"] and item["source"].strip(), item


def failures(report: dict, kind: str) -> list[str]:
    """The wrong answers the visible (or the hidden) tests let through, or reject without the right message:
    the visible tests with the message meant for the mistake, the hidden ones with any message."""
    problems = []
    for item, result in zip(report["answers"], report["wrong" if kind == "visible" else "hidden"], strict=True):
        label = f"{item['exercise']} ({item['rule']})"
        if result["error"] is None:
            problems.append(f"{label}: passed every {kind} test")
        elif result["error"] != "AssertionError":
            problems.append(f"{label}: the {kind} tests crashed with a bare {result['error']}: {result['message']}"
                            f"\n{result['where']}")
        elif kind == "visible" and item["message"] not in result["message"]:
            problems.append(f"{label}: failed with {result['message']!r}, expected {item['message']!r}")
        elif not result["message"].strip():
            problems.append(f"{label}: the {kind} tests failed with a bare AssertionError\n{result['where']}")
    return problems


def test_each_wrong_answer_fails_the_visible_tests_with_its_message(report):
    problems = failures(report, "visible")
    assert problems == [], f"{report['name']}:\n" + "\n".join(problems)


def test_the_solutions_pass_the_hidden_tests(report):
    failing = {grade_id: r for grade_id, r in report["hidden_solution"].items() if r["error"]}
    assert failing == {}, f"{report['name']}: the instructor's answers should pass the hidden tests: {failing}"


def test_each_wrong_answer_fails_the_hidden_tests_too_with_a_message(report):
    """Hidden tests vary the inputs, not the rules: run alone, they reject every wrong answer, saying why."""
    problems = failures(report, "hidden")
    assert problems == [], f"{report['name']}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_every_hidden_assertion_says_what_to_fix(name):
    """A hidden failure reaches the student as its message alone: never a bare AssertionError."""
    import ast

    import jupytext

    bare = []
    for cell in jupytext.read(TWINS / f"{name}.py").cells:
        found = HIDDEN_PART.search(cell.source) if cell.cell_type == "code" else None
        if found:
            for node in ast.walk(ast.parse(found.group(1))):
                if isinstance(node, ast.Assert) and node.msg is None:
                    bare.append(f"{cell.metadata['nbgrader']['grade_id']}: {ast.unparse(node.test)[:90]}")
    assert bare == [], f"{name}: hidden assertions without a message:\n" + "\n".join(bare)


def test_the_exercises_doc_lists_every_wrong_answer_under_its_notebook():
    """docs/exercises.md is the audit of the rules (issue 45): each wrong answer's rule, word for word, in the
    table of its notebook, so a new wrong answer is added there too."""
    text = (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (\d\d) [^\n]*\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL))
    assert sorted(sections) == sorted(name[:2] for name in NOTEBOOK_NAMES), "one section per notebook"
    missing = [f"{name} {item['exercise']}: {item['rule']}" for name in NOTEBOOK_NAMES
               for item in load_module(f"wrong_{name}", WRONG / f"{name}.py").WRONG_ANSWERS
               if item["rule"] not in sections[name[:2]]]
    assert missing == [], "wrong answers missing from docs/exercises.md:\n" + "\n".join(missing)

