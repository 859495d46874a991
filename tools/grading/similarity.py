"""Similar hand-ins, for the teacher: pairs of students whose answer code is most alike (copydetect's winnowing).

`make grade` writes ``build/similarity-NAME.html`` and ``build/similarity-NAME.csv`` beside the grade table.
Only the answer cells are compared (the cells nbgrader marks as solution cells), after removing what the
release gives every student (the stub's signature, docstring, imports, ``raise NotImplementedError()``),
comments, docstrings and blank lines. copydetect then normalises what is left (every name becomes one
placeholder character, layout and comments vanish), fingerprints it (k-grams chosen by winnowing) and drops
the fingerprints of the released cell (its boilerplate filter). The course's own solution, from the
instructor notebook, is one more hand-in, so that a copied answer key shows up; so are the course's helpers
functions that answer an exercise (tools/handout.py GIVEAWAYS, listed as "(course helpers)"), which the
hand-out's helpers/ holds unless it was made for graded homework.

Pairs are ranked by the length of what they share over every exercise (in characters of normalised code,
a name counting as one): short exercises have few ways to be right, and a three-line answer shared by two
students means little. A pair is above the threshold when, overall or on one exercise, it shares at least
``MIN_SHARED`` characters and at least ``MIN_SHARE`` of one of its two students' answer code (the shorter's;
the README says how these were measured). Nothing here changes a score or reaches a student's feedback page.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import html
import io
import itertools
import re
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grading.course import TOOLS, Course
from grading.plans import Plan, python_source
from grading.submissions import Submission, find_submissions, load_submission

# copydetect's defaults: k-grams of 25 normalised characters, a match of 30 or more is always found
# (winnowing window 30 - 25 + 1 = 6)
NOISE = 25
GUARANTEE = 30
# A pair is above the threshold, overall or on one exercise, from this much shared normalised code and this
# share of the shorter student's answers. Measured on twenty honest answers per exercise of 01, 02 and 05
# (README, bench/bench_similarity.py, tests/test_grading_similar.py): honest pairs reach 39% overall and, on one
# exercise with at least 100 characters shared, 64% (two loops over the bins of 02's calibration error, as
# the notes write it); copies reach 85% and more.
MIN_SHARED = 100
MIN_SHARE = 0.75
SOLUTION = "(course solution)"   # the instructor notebook's answers, compared as one more hand-in
HELPERS = "(course helpers)"     # the helpers functions that answer an exercise (tools/handout.py GIVEAWAYS)
LISTED = 20                      # pairs the page's table lists at least (all above the threshold, up to MOST)
MOST = 200                       # pairs the page lists at most (the CSV has every pair)
DETAILED = 30                    # pairs whose shared passages the page shows side by side, at most


# --------------------------------------------------------------------------- the code compared

def comment_free(source: str) -> str:
    """``source`` without its comments and docstrings (lines kept where they were, emptied)."""
    lines = source.splitlines()
    try:
        comments = [token.start for token in tokenize.generate_tokens(io.StringIO(source).readline)
                    if token.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        comments = [(n + 1, line.index("#")) for n, line in enumerate(lines) if line.lstrip().startswith("#")]
    for row, column in comments:
        lines[row - 1] = lines[row - 1][:column].rstrip()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "\n".join(lines)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                for row in range(first.lineno, first.end_lineno + 1):
                    lines[row - 1] = ""
    return "\n".join(lines)


def answer_code(source: str, released: str = "") -> str:
    """An answer cell's code as it is compared: IPython magics made Python, comments, docstrings and blank
    lines removed, and every line that the released cell ``released`` also has (stub signature, imports,
    ``raise NotImplementedError()``) left out."""
    given = released_lines(released)
    kept = [line.rstrip() for line in comment_free(plain_python(source)).splitlines()
            if line.strip() and line.strip() not in given]
    return "\n".join(kept) + "\n" if kept else ""


@functools.lru_cache(maxsize=256)
def released_lines(released: str) -> frozenset[str]:
    """The lines of a released cell (comments and docstrings removed), stripped: every student has them."""
    return frozenset(line.strip() for line in comment_free(plain_python(released)).splitlines() if line.strip())


def plain_python(source: str) -> str:
    """``source`` with IPython's magics turned into Python (plans.python_source), which only a cell with a
    line starting with % or ! needs (IPython's transformer costs milliseconds a cell)."""
    if any(line.lstrip().startswith(("%", "!")) for line in source.splitlines()):
        return python_source(source)
    return source


def answer_cells(notebook: nbformat.NotebookNode | None, answer_ids: list[str]) -> dict[str, str]:
    """The source of each answer cell (by nbgrader grade_id) of a notebook; the first cell of an id counts."""
    found: dict[str, str] = {}
    for cell in notebook.cells if notebook is not None else []:
        meta = cell.get("metadata", {}).get("nbgrader")
        if cell.get("cell_type") == "code" and isinstance(meta, dict) and meta.get("grade_id") in answer_ids:
            found.setdefault(meta["grade_id"], cell.get("source", ""))
    return found


def helpers_notebook(plan: Plan, released: nbformat.NotebookNode, repo: Path | None = None
                     ) -> nbformat.NotebookNode | None:
    """The course's helpers code that answers this assignment's exercises (tools/handout.py GIVEAWAYS), as a
    hand-in: one answer cell per exercise that has some (found by the function its released answer cell
    defines), the functions' source in it. None when no exercise of the assignment has any."""
    sys.path.insert(0, str(TOOLS))
    try:
        import handout  # tools/handout.py
    finally:
        sys.path.pop(0)
    given = answer_cells(released, plan.answer_ids)
    cells = []
    for grade_id, text in given.items():
        code = [handout.giveaway_source(entry, **({"repo": repo} if repo else {}))
                for entry in handout.GIVEAWAYS if entry.notebook == plan.name
                and re.search(rf"^def {re.escape(entry.answer)}\(", text, re.MULTILINE)]
        if code:
            cells.append(nbformat.v4.new_code_cell("\n".join(code), metadata={"nbgrader": {"grade_id": grade_id}}))
    return nbformat.v4.new_notebook(cells=cells) if cells else None


# --------------------------------------------------------------------------- fingerprints and pairs

@dataclass
class Hand:
    """One student's answers as compared: per exercise, the code and copydetect's fingerprint."""
    student: str
    code: dict[str, str]
    prints: dict[str, object]

    def length(self, exercise: str) -> int:
        """The normalised length of the answer to ``exercise`` (0 when blank)."""
        fingerprint = self.prints.get(exercise)
        return len(fingerprint.filtered_code) if fingerprint is not None else 0


@dataclass
class Shared:
    """What a pair shares on one exercise: the normalised length and the passages (slices) in each code."""
    length: int
    share_a: float
    share_b: float
    slices_a: object = None
    slices_b: object = None


@dataclass
class Pair:
    a: str
    b: str
    exercises: dict[str, Shared] = field(default_factory=dict)
    shared: int = 0
    share_a: float = 0.0
    share_b: float = 0.0

    @property
    def worth_a_look(self) -> bool:
        """Above the threshold: overall, or on one exercise, at least MIN_SHARED characters shared and at least
        MIN_SHARE of one of the two students' answer code."""
        return any(shared >= MIN_SHARED and max(a, b) >= MIN_SHARE
                   for shared, a, b in [(self.shared, self.share_a, self.share_b)]
                   + [(s.length, s.share_a, s.share_b) for s in self.exercises.values()])


def stable_kgram_hashes(string: str, k: int):
    """copydetect's hashed_kgrams with a hash that is the same in every process: copydetect uses Python's
    hash(), salted per process (PYTHONHASHSEED), so the fingerprints winnowing keeps, and the figures of the
    report, would change from one run to the next."""
    import numpy as np
    return np.array([int.from_bytes(hashlib.blake2b(string[i:i + k].encode(), digest_size=8).digest(), "little",
                                    signed=True) for i in range(len(string) - k + 1)], dtype=np.int64)


@contextlib.contextmanager
def stable_hashes():
    """copydetect fingerprints with :func:`stable_kgram_hashes` inside the block (its own function after)."""
    from copydetect import utils
    original = utils.hashed_kgrams
    utils.hashed_kgrams = stable_kgram_hashes
    try:
        yield
    finally:
        utils.hashed_kgrams = original


def fingerprints(code: dict[str, str], boilerplate: dict[str, object]) -> dict:
    """copydetect's fingerprint of each non-empty answer, the released cell's fingerprints left out."""
    from copydetect import CodeFingerprint
    return {exercise: CodeFingerprint(f"{exercise}.py", NOISE, GUARANTEE - NOISE + 1,
                                      boilerplate=boilerplate.get(exercise), language="python",
                                      fp=io.StringIO(text))
            for exercise, text in code.items() if text}


def hands(plan: Plan, released: nbformat.NotebookNode, students: dict[str, nbformat.NotebookNode | None]
          ) -> list[Hand]:
    """Every student's compared answers (``students``: name -> notebook, None when there is none to read)."""
    import numpy as np
    from copydetect import CodeFingerprint

    given = answer_cells(released, plan.answer_ids)
    boilerplate = {}
    for exercise, text in given.items():
        stub = CodeFingerprint(f"{exercise}.py", NOISE, GUARANTEE - NOISE + 1, language="python",
                               fp=io.StringIO(plain_python(text)))
        boilerplate[exercise] = np.array(sorted(stub.hashes), dtype=np.int64)
    found = []
    for student, notebook in students.items():
        code = {exercise: answer_code(text, given.get(exercise, ""))
                for exercise, text in answer_cells(notebook, plan.answer_ids).items()}
        found.append(Hand(student, code, fingerprints(code, boilerplate)))
    return found


def compare(hands_: list[Hand], exercises: list[str]) -> list[Pair]:
    """Every pair of hands, with what it shares per exercise and overall, most shared first.

    Only pairs holding a fingerprint in common are compared (an index of the fingerprints per exercise);
    the others share nothing. Overall, each student's share is the shared length over the length of all
    their answers."""
    from copydetect import compare_files

    pairs = {(i, j): Pair(hands_[i].student, hands_[j].student)
             for i, j in itertools.combinations(range(len(hands_)), 2)}
    for exercise in exercises:
        holders: dict[int, list[int]] = {}
        for i, hand in enumerate(hands_):
            fingerprint = hand.prints.get(exercise)
            for value in fingerprint.hashes if fingerprint is not None else ():
                holders.setdefault(int(value), []).append(i)
        candidates = {pair for group in holders.values() for pair in itertools.combinations(group, 2)}
        for i, j in sorted(candidates):
            first, second = hands_[i].prints[exercise], hands_[j].prints[exercise]
            overlap, (share_a, share_b), (slices_a, slices_b) = compare_files(first, second)
            # copydetect's overlap counts the first's normalised characters; the second's is its share
            # times its fingerprinted length: what both hold is the smaller
            length = int(min(overlap, round(share_b * second.token_coverage)))
            if length:
                pairs[i, j].exercises[exercise] = Shared(length, length / len(first.filtered_code),
                                                         length / len(second.filtered_code), slices_a, slices_b)
    for (i, j), pair in pairs.items():
        pair.shared = sum(s.length for s in pair.exercises.values())
        total_a = sum(hands_[i].length(e) for e in exercises)
        total_b = sum(hands_[j].length(e) for e in exercises)
        pair.share_a = pair.shared / total_a if total_a else 0.0
        pair.share_b = pair.shared / total_b if total_b else 0.0
    return sorted(pairs.values(), key=lambda p: (-p.shared, -max(p.share_a, p.share_b), p.a, p.b))


# --------------------------------------------------------------------------- the CSV and the page

def csv_rows(pairs: list[Pair], exercises: list[str]) -> list[list[str]]:
    """One row per pair, most alike first: the two students, per exercise and overall the shared length
    and each student's share, and whether the pair is above the threshold."""
    header = ["student_a", "student_b"]
    for exercise in exercises + ["total"]:
        header += [f"{exercise} shared", f"{exercise} share_a", f"{exercise} share_b"]
    rows = [header + ["above_threshold"]]
    for pair in pairs:
        row = [pair.a, pair.b]
        for exercise in exercises:
            shared = pair.exercises.get(exercise)
            row += [str(shared.length), f"{shared.share_a:.2f}", f"{shared.share_b:.2f}"] if shared else ["0", "0", "0"]
        row += [str(pair.shared), f"{pair.share_a:.2f}", f"{pair.share_b:.2f}", "yes" if pair.worth_a_look else "no"]
        rows.append(row)
    return rows


def marked(code: str, slices) -> str:
    """``code`` as HTML, its shared passages in <mark>."""
    if slices is None or len(slices) == 0 or len(slices[0]) == 0:
        return html.escape(code)
    out, at = [], 0
    for start, end in sorted(zip(*slices)):
        start, end = max(int(start), at), int(end)
        if end <= start:
            continue
        out.append(html.escape(code[at:start]) + "<mark>" + html.escape(code[start:end]) + "</mark>")
        at = end
    return "".join(out) + html.escape(code[at:])


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def page(name: str, pairs: list[Pair], hands_: list[Hand], exercises: list[str]) -> str:
    """The teacher's similarity page: the pairs ranked, the best pairs per exercise, shared passages side
    by side (tools/grading/report.py's page shell, which axe-core passes)."""
    from grading.report import html_page

    by_name = {hand.student: hand for hand in hands_}
    above = [pair for pair in pairs if pair.worth_a_look]
    shown = [pair for pair in pairs if pair.shared][:min(MOST, max(LISTED, len(above)))]
    n = len(hands_) - (SOLUTION in by_name) - (HELPERS in by_name)
    head = ("<tr><th scope=\"col\">rank</th><th scope=\"col\">student A</th><th scope=\"col\">student B</th>"
            "<th scope=\"col\">shared (normalised characters)</th><th scope=\"col\">share of A's answers</th>"
            "<th scope=\"col\">share of B's answers</th><th scope=\"col\">exercises sharing code</th>"
            "<th scope=\"col\">above the threshold</th></tr>")
    def row(rank: int, p: Pair) -> str:
        first = html.escape(p.a) if rank > DETAILED else f"<a href=\"#pair-{rank}\">{html.escape(p.a)}</a>"
        return (f"<tr><td>{rank}</td><th scope=\"row\">{first}</th><td>{html.escape(p.b)}</td><td>{p.shared}</td>"
                f"<td>{percent(p.share_a)}</td><td>{percent(p.share_b)}</td>"
                f"<td>{html.escape(', '.join(e for e in exercises if e in p.exercises))}</td>"
                f"<td>{'yes' if p.worth_a_look else 'no'}</td></tr>\n")

    rows = "".join(row(rank, p) for rank, p in enumerate(shown, 1))
    per_exercise = []
    for exercise in exercises:
        top = sorted((p for p in pairs if exercise in p.exercises),
                     key=lambda p: (-p.exercises[exercise].length, p.a, p.b))[:5]
        items = "".join(f"<li>{html.escape(p.a)} and {html.escape(p.b)}: {p.exercises[exercise].length} characters "
                        f"({percent(p.exercises[exercise].share_a)} and {percent(p.exercises[exercise].share_b)} "
                        "of their answers)</li>" for p in top)
        per_exercise.append(f"<h3>{html.escape(exercise)}</h3>\n"
                            + (f"<ol>{items}</ol>" if items else "<p>No two hand-ins share a passage.</p>"))
    details = []
    for rank, pair in enumerate(shown[:DETAILED], 1):
        blocks = []
        for exercise in exercises:
            shared = pair.exercises.get(exercise)
            if shared is None:
                continue
            left = marked(by_name[pair.a].code.get(exercise, ""), shared.slices_a)
            right = marked(by_name[pair.b].code.get(exercise, ""), shared.slices_b)
            a, b = html.escape(pair.a), html.escape(pair.b)
            blocks.append(f"""<table class="side"><caption>{html.escape(exercise)}: {shared.length} characters shared
({percent(shared.share_a)} of {a}'s answer, {percent(shared.share_b)} of {b}'s)</caption>
<thead><tr><th scope="col">{a}</th><th scope="col">{b}</th></tr></thead>
<tbody><tr><td><pre>{left}</pre></td><td><pre>{right}</pre></td></tr></tbody></table>""")
        details.append(f"<section aria-labelledby=\"pair-{rank}\"><h3 id=\"pair-{rank}\">{rank}. "
                       f"{html.escape(pair.a)} and {html.escape(pair.b)}</h3>\n" + "\n".join(blocks) + "</section>")
    helpers_said = (f", with the course's helpers functions that answer an exercise (listed as {html.escape(HELPERS)}: "
                    "a hand-in may copy them from helpers/)" if HELPERS in by_name else "")
    style = ("max-width:90em;margin:2em auto;padding:0 1em}"
             "mark{background:#fff3a0;color:#111;font-weight:bold;text-decoration:underline}"
             ".side{width:100%;table-layout:fixed;margin-bottom:1em}.side td{width:50%;font-size:.9em")
    return html_page(f"{name}: similar hand-ins", style, f"""\
<h1>{html.escape(name)}: similar hand-ins</h1>
<p>For you, not for grading: nothing here changes a score or appears on a feedback page. {n} hand-in{'s' if n != 1
else ''} and the course's own solution (listed as {html.escape(SOLUTION)}){helpers_said} are compared, answer cells only, after
removing what the release gives everyone (stubs, docstrings, imports), comments and layout; names are normalised,
so renamed variables still match. Pairs are ranked by the length of code they share over every exercise, in
characters of normalised code (a name counts as one). Short exercises have few ways to be right: identical code on
a three-line answer means little. A pair is above the threshold when, overall or on one exercise, it shares at least
{MIN_SHARED} characters and at least {percent(MIN_SHARE)} of one student's answers; read the shared passages before
concluding anything.</p>
<p>{len(above)} pair{'s' if len(above) != 1 else ''} above the threshold. The CSV beside this page
(similarity-{html.escape(name)}.csv) has every pair.</p>
<h2>Pairs most alike</h2>
<div class="scroll" role="region" aria-label="pairs most alike" tabindex="0">
<table><caption>The {len(shown)} pairs sharing the most code, most first</caption>
<thead>{head}</thead>
<tbody>
{rows}</tbody></table>
</div>
<h2>Per exercise</h2>
{chr(10).join(per_exercise)}
<h2>Shared passages side by side</h2>
<p>The first {min(DETAILED, len(shown))} pairs of the table, exercise by exercise. Shared passages are
<mark>highlighted, bold and underlined</mark>.</p>
{chr(10).join(details)}
""")


# --------------------------------------------------------------------------- from grade()

def similarity_report(plan: Plan, released: nbformat.NotebookNode, solution: nbformat.NotebookNode | None,
                      students: dict[str, nbformat.NotebookNode | None]) -> tuple[list[list[str]], str, list[Pair]]:
    """The CSV's rows, the page and the pairs of a class (``solution``: the instructor notebook, one more
    hand-in)."""
    everyone = dict(students)
    for name, notebook in ((SOLUTION, solution), (HELPERS, helpers_notebook(plan, released))):
        if notebook is not None:
            while name in everyone:   # a student's folder of that name keeps it
                name += "'"
            everyone[name] = notebook
    with stable_hashes():
        compared = hands(plan, released, everyone)
    exercises = [e for e in plan.answer_ids]
    pairs = compare(compared, exercises)
    return csv_rows(pairs, exercises), page(plan.name, pairs, compared, exercises), pairs


def similarity_files(course: Course, plan: Plan, subs: list[Submission], folder: Path | None,
                     whole_class: bool = True) -> tuple[dict[Path, object], str, list[Pair]]:
    """``build/similarity-NAME.csv`` and ``.html`` of the hand-ins ``subs`` (loaded), or of every hand-in in
    ``folder`` when ``whole_class`` is False (one student re-graded), the line grade() prints and the pairs
    above the threshold. Whatever goes wrong here, the grades are still written: no file then, and the line
    says why."""
    try:
        if not whole_class:
            subs = find_submissions(plan.name, folder or course.course / "submitted")
            for sub in subs:
                load_submission(sub)
        released = nbformat.read(course.nbgrader_release(plan.name), as_version=4)
        solution = nbformat.read(course.source(plan.name), as_version=4)
        rows, text, pairs = similarity_report(plan, released, solution, {sub.student: sub.notebook for sub in subs})
    except Exception as exc:  # noqa: BLE001 (a report for the teacher never stops the grades)
        return {}, f"(similarity report not written: {exc!r})", []
    page = course.root / f"similarity-{plan.name}.html"
    said = (f"similar hand-ins: {sum(p.worth_a_look for p in pairs)} pair(s) above the threshold, for you to read "
            f"(no score changed): {page}")
    return {course.root / f"similarity-{plan.name}.csv": rows, page: text}, said, [p for p in pairs if p.worth_a_look]
