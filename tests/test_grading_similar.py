"""The similarity report of `make grade` (tools/grading/similarity.py): similar hand-ins, for the teacher.

The classes are built from per-exercise answer files, tests/similarity/ASSIGNMENT/EXERCISE/answer_NN.py:
twenty honest, independently written correct answers to each exercise of notebooks 01, 02 and 05 (different
algorithms, loops or NumPy or pandas, helper functions...). Hand-in NN of the honest class holds answer NN of
every exercise, put into the released student version. They are checked to be correct first: each answer
is run against its exercise's whole test cell, hidden tests included (a subprocess per notebook, as
tests/test_wrong_answers.py runs its wrong answers). Then:

- the honest class (twenty hand-ins and the course's solution): no pair above the report's threshold;
- the copied class (the honest class, plus one student who copied hand-in 07's answers and one who copied the
  course's solution, both renaming the variables, moving blank lines and changing the comments): those two
  pairs are the top two, above the threshold, and no other pair is;
- the CSV's columns and order; the page passes axe-core (tests/test_accessibility.py's audit);
- through the grading command line (what `make grade` runs) on a small class in the sandboxes: the report is
  written, grades.csv and the feedback pages are byte for byte the same with and without it
  (``--no-similarity``), no feedback page mentions it, and re-grading one student keeps the class's report.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = Path(__file__).resolve().parent / "similarity"
ASSIGNMENTS = sorted(path.name for path in ANSWERS.iterdir() if path.is_dir())


def answers(assignment: str) -> dict[str, list[str]]:
    """The honest answers to each exercise (by answer cell id), in file order."""
    return {folder.name: [path.read_text() for path in sorted(folder.glob("answer_*.py"))]
            for folder in sorted((ANSWERS / assignment).iterdir()) if folder.is_dir()}


# --------------------------------------------------------------------------- the answers are correct (subprocess)

def check_answers(assignment: str) -> dict:
    """Run every honest answer against its exercise's whole test cell (hidden tests included): for each
    exercise, the failures (answer file, exception)."""
    import jupytext
    import matplotlib

    matplotlib.use("Agg")
    import test_wrong_answers as harness   # its notebook harness (plan, outcome, snapshot)

    grading = harness.load_grading()
    cells = [cell for cell in jupytext.read(ROOT / "notebooks" / "py" / f"{assignment}.py").cells
             if cell.cell_type == "code"]
    full = {cell.metadata["nbgrader"]["grade_id"]: grading.python_source(cell.source) for cell in cells
            if grading.cell_kind(cell) == "test"}
    honest = answers(assignment)
    # the set-up the hidden tests need too (simulations, curves...): the names the answers and the whole
    # test cell read
    extra = {exercise: set().union(*(grading.free_names(grading.parse(s)) for s in sources),
                                   grading.free_names(grading.parse(full[exercise.replace("-answer", "-tests")])))
             for exercise, sources in honest.items()}
    steps = harness.plan(cells, grading, extra)
    os.chdir(ROOT / "notebooks")
    namespace = {"__name__": "__main__"}
    solutions, tests, report = {}, {}, {"setup": [], "failures": {}, "checked": 0}
    for step in steps:
        if step["kind"] == "setup":
            result = harness.outcome(step["source"], namespace, f"<cell {step['index']}>")
            if result["error"]:
                report["setup"].append(result)
        elif step["kind"] == "answer":
            solutions[step["grade_id"]] = step["source"]
            harness.outcome(step["source"], namespace, step["grade_id"])
        else:
            tests[step["answer"]] = step
    for exercise, sources in honest.items():
        test = tests[exercise]
        for number, source in enumerate(sources, 1):
            saved = harness.snapshot(namespace, test["names"])
            result = harness.outcome(grading.python_source(source), namespace, f"<{exercise} answer {number}>")
            if not result["error"]:
                result = harness.outcome(full[test["grade_id"]], namespace, test["grade_id"])
            report["checked"] += 1
            if result["error"]:
                report["failures"].setdefault(exercise, []).append(
                    f"answer_{number:02d}.py: {result['error']}: {result['message'][:200]}")
            namespace.update(saved)
            harness.outcome(solutions[exercise], namespace, exercise)
    return report


if __name__ == "__main__":
    import contextlib
    import warnings

    warnings.simplefilter("ignore")
    with contextlib.redirect_stdout(io.StringIO()):   # what the cells print
        outcome = check_answers(sys.argv[1])
    print(json.dumps(outcome))
    sys.exit(0)


# --------------------------------------------------------------------------- the classes

sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/)
import handout  # noqa: E402  (tools/handout.py: GIVEAWAYS)
from grading import similarity  # noqa: E402

sys.path.pop(0)


def hand_in(released: nbformat.NotebookNode, code: dict[str, str]) -> nbformat.NotebookNode:
    """The student version with the answer cells ``code`` (by grade id) filled in."""
    notebook = nbformat.from_dict(released)
    for cell in notebook.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in code:
            cell.source = code[grade_id]
    return notebook


def disguise(source: str, tag: str) -> str:
    """A copy as a student hides it: the variables renamed (not the function's name or parameters, which
    the tests call), blank lines moved (removed, and added after every other statement), comments changed."""
    tree = ast.parse(source)
    fixed = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    fixed |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
              for arg in node.args.args}
    local = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    renames = {name: f"{tag}_{name[::-1]}" for name in local - fixed}
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string in renames:
            token = token._replace(string=renames[token.string])
        elif token.type == tokenize.COMMENT:
            token = token._replace(string="# my own work")
        tokens.append(token)
    lines = [line for line in tokenize.untokenize(tokens).splitlines() if line.strip()]
    spaced = []
    for number, line in enumerate(lines):
        spaced.append(line)
        if number % 2 and not line.rstrip().endswith((":", ",", "(", "[")):
            spaced.append("")
    return "\n".join(spaced) + "\n"


class Classes:
    """An assignment released once (module scope), its plan, and the classes built from the answer files."""

    def __init__(self, assignment: str, folder: Path):
        self.course = grading.Course(folder / "build", ROOT / "notebooks")
        grading.release(self.course, [assignment])
        self.plan = grading.make_plan(self.course, assignment)
        self.released = nbformat.read(self.course.nbgrader_release(assignment), as_version=4)
        self.solution = nbformat.read(self.course.source(assignment), as_version=4)
        self.answers = answers(assignment)
        assert sorted(self.answers) == sorted(self.plan.answer_ids), (sorted(self.answers), self.plan.answer_ids)

    def honest(self) -> dict[str, nbformat.NotebookNode]:
        count = min(len(sources) for sources in self.answers.values())
        return {f"student_{n:02d}": hand_in(self.released, {e: s[n - 1] for e, s in self.answers.items()})
                for n in range(1, count + 1)}

    def copied(self) -> dict[str, nbformat.NotebookNode]:
        """The honest class, plus `copier` (hand-in 07's answers, disguised) and `key_copier` (the course's
        solution cells, disguised)."""
        students = self.honest()
        students["copier"] = hand_in(self.released, {e: disguise(s[6], "c") for e, s in self.answers.items()})
        key = similarity.answer_cells(self.solution, self.plan.answer_ids)
        students["key_copier"] = hand_in(self.released, {e: disguise(s, "k") for e, s in key.items()})
        return students

    def report(self, students):
        return similarity.similarity_report(self.plan, self.released, self.solution, students)


_BUILT: dict[str, Classes] = {}


def built(assignment: str, tmp_path_factory) -> Classes:
    """Each assignment released once per test file."""
    if assignment not in _BUILT:
        _BUILT[assignment] = Classes(assignment, tmp_path_factory.mktemp(assignment))
    return _BUILT[assignment]


@pytest.fixture(scope="module", params=ASSIGNMENTS)
def classes(request, tmp_path_factory) -> Classes:
    return built(request.param, tmp_path_factory)


def test_similar_answer_files_are_twenty_per_exercise_and_pass_every_test():
    """Each exercise has twenty different answer files, and each passes its exercise's visible and hidden
    tests (one subprocess per notebook, both at once)."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}
    runs = {name: subprocess.Popen([sys.executable, __file__, name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, cwd=ROOT, env=env) for name in ASSIGNMENTS}
    for name, run in runs.items():
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, f"{name}: the check failed:\n{err[-3000:]}"
        report = json.loads(out.strip().splitlines()[-1])
        assert report["setup"] == [], report["setup"]
        assert report["failures"] == {}, f"{name}: honest answers failing their tests: {report['failures']}"
        sources = answers(name)
        assert report["checked"] == sum(len(s) for s in sources.values())
        for exercise, texts in sources.items():
            assert len(texts) == 20 and len({similarity.answer_code(t) for t in texts}) == 20, exercise


def test_similar_answer_code_leaves_out_what_the_release_gives_and_layout():
    """The compared code: no stub signature, docstring, import the release has, comment or blank line; a copy
    with renamed variables and moved blank lines normalises (copydetect) to the same text as its original."""
    released = ('import numpy as np\n\n\ndef f(values):\n    """Mean of values."""\n    # YOUR CODE HERE\n'
                '    raise NotImplementedError()\n')
    answer = ('import numpy as np\n\n\ndef f(values):\n    """Mean of values."""\n    # a loop, as in the notes\n'
              '    total = 0.0\n\n    for value in values:  # every value\n        total += value\n'
              '    """not a docstring: kept"""\n    return total / len(values)\n')
    assert similarity.answer_code(answer, released) == ('    total = 0.0\n    for value in values:\n'
                                                        '        total += value\n    """not a docstring: kept"""\n'
                                                        '    return total / len(values)\n')
    assert similarity.answer_code(released, released) == ""
    copy = disguise(answer, "x")
    assert "x_latot" in copy and "\n\n" in copy and "total" not in copy.replace("x_latot", "")
    with similarity.stable_hashes():
        prints = similarity.fingerprints({"a": similarity.answer_code(answer, released),
                                          "b": similarity.answer_code(copy, released)}, {})
    assert prints["a"].filtered_code == prints["b"].filtered_code and prints["a"].hashes


def test_similar_honest_class_has_no_pair_above_the_threshold(classes):
    students = classes.honest()
    rows, page, pairs = classes.report(students)
    assert len(pairs) == 22 * 21 // 2   # twenty hand-ins, the course's solution and its helpers (GIVEAWAYS)
    above = [(p.a, p.b, p.shared) for p in pairs if p.worth_a_look]
    assert above == [], f"honest pairs above the threshold: {above}"
    # honest answers do share idioms: the report is not blind, but they are a small share of the answers
    assert pairs[0].shared > 0 and max(pairs[0].share_a, pairs[0].share_b) < similarity.MIN_SHARE / 2
    assert "0 pairs above the threshold" in page
    # the grading guide's figures (docs/grading.md): the threshold, and this class's most alike pair
    readme = " ".join((ROOT / "docs" / "grading.md").read_text(encoding="utf-8").split())
    assert (f"it shares at least {similarity.MIN_SHARED} characters and at least "
            f"{similarity.MIN_SHARE:.0%} of one student's answers") in readme
    top = pairs[0]
    assert (f"{top.shared} characters, {max(top.share_a, top.share_b):.0%}, in {classes.plan.name[:2]}"
            in readme), "update docs/grading.md's figures (bench/bench_similarity.py prints them)"


def test_similar_copied_pairs_are_the_top_pairs(classes):
    """The student who copied hand-in 07 and the one who copied the course's solution: the top two pairs,
    above the threshold, and the only ones; the page shows their shared passages side by side."""
    rows, page, pairs = classes.report(classes.copied())
    assert {frozenset((p.a, p.b)) for p in pairs[:2]} == {frozenset(("student_07", "copier")),
                                                          frozenset(("key_copier", similarity.SOLUTION))}
    assert [p for p in pairs if p.worth_a_look] == pairs[:2]
    for pair in pairs[:2]:
        assert min(pair.share_a, pair.share_b) > 0.8, (pair.a, pair.b, pair.share_a, pair.share_b)
    third = pairs[2]
    assert pairs[1].shared > 1.5 * third.shared, (pairs[1].shared, third.a, third.b, third.shared)
    assert '<section aria-labelledby="pair-1">' in page and page.count("<mark>") >= 6
    assert "2 pairs above the threshold" in page
    if classes.plan.name == "01_metrics":   # the grading guide's figure
        copied = next(p for p in pairs if {p.a, p.b} == {"student_07", "copier"})
        readme = " ".join((ROOT / "docs" / "grading.md").read_text(encoding="utf-8").split())
        assert f"({copied.shared} characters, {min(copied.share_a, copied.share_b):.0%}, in 01)" in readme


def test_similar_hand_in_pasting_the_course_helpers_is_flagged(classes):
    """A student who pastes, renamed, the course's helpers code that answers an exercise (tools/handout.py
    GIVEAWAYS: a hand-out not made for graded homework holds it) and calls it from the answer: the one pair
    above the threshold is that student and "(course helpers)"; no honest hand-in comes near it."""
    students = classes.honest()
    given = similarity.answer_cells(classes.released, classes.plan.answer_ids)
    code = {}
    for grade_id, text in given.items():
        for entry in (e for e in handout.GIVEAWAYS if e.notebook == classes.plan.name):
            if f"def {entry.answer}(" in text:
                code[grade_id] = (disguise(handout.giveaway_source(entry), "h")
                                  + f"\n\ndef {entry.answer}(*args):\n    return {entry.names[-1]}(*args)\n")
    assert code, f"{classes.plan.name}: no exercise with helpers that answer it"
    students["helper_copier"] = hand_in(classes.released, code)
    rows, page, pairs = classes.report(students)
    flagged = [p for p in pairs if p.worth_a_look]
    assert [frozenset((p.a, p.b)) for p in flagged] == [frozenset(("helper_copier", similarity.HELPERS))], \
        [(p.a, p.b, p.shared) for p in flagged]
    assert min(flagged[0].share_a, flagged[0].share_b) > 0.8, (flagged[0].share_a, flagged[0].share_b)
    assert "1 pair above the threshold" in page and "listed as (course helpers)" in page
    honest = [p for p in pairs if similarity.HELPERS in (p.a, p.b) and "helper_copier" not in (p.a, p.b)]
    assert max(p.shared for p in honest) < similarity.MIN_SHARED / 2, max(p.shared for p in honest)


def test_similar_csv_has_one_row_per_pair_most_alike_first(classes):
    rows, _, pairs = classes.report(classes.copied())
    exercises = classes.plan.answer_ids
    header = rows[0]
    assert header == (["student_a", "student_b"]
                      + [f"{e} {c}" for e in exercises + ["total"] for c in ("shared", "share_a", "share_b")]
                      + ["above_threshold"])
    assert len(rows) == 1 + 24 * 23 // 2 and len({frozenset(row[:2]) for row in rows[1:]}) == len(rows) - 1
    column = {name: i for i, name in enumerate(header)}
    totals = [int(row[column["total shared"]]) for row in rows[1:]]
    assert totals == sorted(totals, reverse=True) and totals[0] > 0
    for row in rows[1:]:
        assert sum(int(row[column[f"{e} shared"]]) for e in exercises) == int(row[column["total shared"]])
        assert 0 <= float(row[column["total share_a"]]) <= 1 and 0 <= float(row[column["total share_b"]]) <= 1
    assert [row[-1] for row in rows[1:4]] == ["yes", "yes", "no"]
    assert {frozenset(rows[1][:2]), frozenset(rows[2][:2])} == {frozenset(("student_07", "copier")),
                                                                 frozenset(("key_copier", similarity.SOLUTION))}


def test_similar_pages_pass_axe(tmp_path, tmp_path_factory, browser):
    """The report page of each copied class, with a name to escape, as `make grade` writes it (the worker's
    browser, tests/conftest.py)."""
    import test_accessibility as audit

    pages = []
    for assignment in ASSIGNMENTS:
        made = built(assignment, tmp_path_factory)
        students = made.copied()
        students["<eve & \"co\">"] = students.pop("student_07")   # in the top pair, with copier
        _, text, _ = made.report(students)
        assert "&lt;eve &amp; &quot;co&quot;&gt;" in text and "<eve" not in text
        pages.append(tmp_path / f"similarity-{assignment}.html")
        grading.write_files_atomically({pages[-1]: text})
    for page in pages:
        violations = audit.axe_violations(page, browser)
        assert not violations, f"{page.name}:\n{audit.report(violations)}"


# --------------------------------------------------------------------------- through `make grade`

LOOP_SQUARE = ("def square(x):\n    result = 0\n    for _ in range(abs(x)):\n        result = result + abs(x)\n"
               "    return result\n")
LOOP_MEAN = ("def mean(values):\n    total = 0.0\n    count = 0\n    for value in values:\n"
             "        total = total + value\n        count = count + 1\n    if count == 0:\n"
             "        raise ValueError('no values')\n    return total / count\n")


def test_similar_report_through_grade_changes_no_score_and_no_feedback(tmp_path):
    """The fixture homework of tests/test_grading.py, four hand-ins graded in the sandboxes by the tool's
    command line (what `make grade` runs): alice, bob who copied her (renamed, blank lines moved), carol (her
    own answers) and dave (blank). With --no-similarity first, then without: grades.csv and every feedback
    page are byte for byte the same, and the report is written, alice and bob first. Re-grading bob alone
    (--student) rewrites the report of the whole class, the same."""
    from conftest import grading_tests, release_homework

    base = grading_tests()
    build, submitted, common, released = release_homework(base, tmp_path)
    hand_ins = {"alice": (LOOP_SQUARE, LOOP_MEAN), "bob": (disguise(LOOP_SQUARE, "b"), disguise(LOOP_MEAN, "b")),
                "carol": (base.GOOD_SQUARE, base.GOOD_MEAN), "dave": (None, None)}
    for student, pair in hand_ins.items():
        (submitted / student / "hw").mkdir(parents=True)
        nbformat.write(base.submission(released, pair), submitted / student / "hw" / "hw.ipynb")
    args = ["grade", *common, "--assignment", "hw", "--submissions", str(submitted), "--timeout", "10"]

    def outputs() -> dict[str, bytes]:
        return {str(p.relative_to(build)): p.read_bytes() for p in [build / "grades.csv",
                                                                     *sorted((build / "feedback").rglob("*.html"))]}

    quiet = base.run_tool(*args, "--no-similarity")
    assert not list(build.glob("similarity-*")) and "similar hand-ins" not in quiet.stdout
    without = outputs()
    assert {s: r["total"] for s, r in base.read_grades(build / "grades.csv").items()} == {
        "alice": "5", "bob": "5", "carol": "5", "dave": "0"}
    loud = base.run_tool(*args)
    assert outputs() == without
    for name, page in without.items():
        if name.endswith(".html"):
            text = page.decode("utf-8").lower()
            assert "similar" not in text and "copied" not in text and "solution" not in text, name
    assert f"similar hand-ins: 0 pair(s) above the threshold, for you to read (no score changed): " \
           f"{build / 'similarity-hw.html'}" in loud.stdout

    with (build / "similarity-hw.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:2] == ["student_a", "student_b"] and len(rows) == 1 + 5 * 4 // 2   # four and the solution
    column = {name: i for i, name in enumerate(rows[0])}
    assert set(rows[1][:2]) == {"alice", "bob"}
    assert float(rows[1][column["total share_a"]]) > 0.9 and float(rows[1][column["total share_b"]]) > 0.9
    assert int(rows[1][column["mean-answer shared"]]) > 40
    assert all(int(row[column["total shared"]]) == 0 for row in rows[1:] if "dave" in row[:2])
    page = (build / "similarity-hw.html").read_text(encoding="utf-8")
    assert "<h1>hw: similar hand-ins</h1>" in page and "<mark>" in page
    report = (build / "similarity-hw.csv").read_bytes()

    base.run_tool(*args, "--student", "bob")
    assert (build / "similarity-hw.csv").read_bytes() == report and outputs() == without
