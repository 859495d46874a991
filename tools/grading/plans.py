"""What the two sandboxed processes run: the plan built from the trusted notebooks, and the student's
cells cut to what the answers need (slicing)."""

from __future__ import annotations

import argparse
import ast
import builtins
import concurrent.futures
import csv
import html
import json
import math
import multiprocessing
import os
import queue
import re
import select
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil

from grading import sandbox  # noqa: F401  (tools/grading/sandbox.py)

from grading.course import *  # noqa: F401, F403


# --------------------------------------------------------------------------- grade: the plan

@dataclass
class Plan:
    """What the two sandboxed processes of every student run, built from the trusted notebooks."""
    name: str
    questions: list[str]                      # graded test cells, in order
    points: dict[str, float]                  # grade_id -> max score
    manual: list[str]                         # graded answer cells (a teacher scores them)
    answer_ids: list[str]                     # solution cells, in order
    test_ids: set[str]                        # grade ids of every test cell
    steps: list[dict]                         # the tests process's program
    question_answer: dict[str, str | None]    # test grade_id -> the answer cell before it
    released: set[str] = field(default_factory=set)   # code cells as handed out (the instructor's code)
    labels: dict[str, str] = field(default_factory=dict)   # grade_id -> "Exercise 2: best_candidate"

    def label(self, grade_id: str) -> str:
        """What a student calls a question: its exercise ("Exercise 2: best_candidate"), else its grade id."""
        return self.labels.get(grade_id, grade_id)

    @property
    def maximum(self) -> float:
        """The assignment's points: every graded test cell and manually graded answer."""
        return sum(self.points[q] for q in self.questions + self.manual)


def python_source(source: str) -> str:
    """A cell's source as plain Python (IPython's magics turned into calls)."""
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        return TransformerManager().transform_cell(source)
    except Exception:
        return source


# CPython 3.11 can fail with "SystemError: AST constructor recursion depth mismatch" when two
# threads parse at once; students are graded in threads, so parsing is serial.
AST_LOCK = threading.Lock()


def parse(source: str) -> ast.Module | None:
    """The syntax tree of a cell's Python (IPython magics blanked), or None when it does not parse."""
    try:
        with AST_LOCK:
            return ast.parse(python_source(source))
    except (SyntaxError, ValueError):
        return None


def unchanging_names(trees) -> set[str]:
    """Names whose use never changes them: builtins, imported modules, and the functions and
    classes the cells define (calling ``np.sort`` or ``helper(x)`` changes neither ``np`` nor
    ``helper``); any other name a statement uses may be an object it changes in place."""
    unchanged = set(dir(builtins))
    for tree in trees:
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                unchanged.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                unchanged.add(node.name)
    return unchanged


def defined_names(tree: ast.Module | None) -> set[str]:
    """Names a cell binds at module level (assignments, defs, imports, loop targets...)."""
    names: set[str] = set()
    if tree is None:
        return names

    def visit(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        if isinstance(node, ast.Lambda):
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in tree.body:
        visit(statement)
    return names


def loaded_names(tree: ast.Module | None) -> set[str]:
    if tree is None:
        return set()
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def free_names(tree: ast.AST | None) -> set[str]:
    """Names a piece of code reads that it does not bind itself (loop variables, parameters... excluded)."""
    if tree is None:
        return set()
    loads, bound, augmented = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            augmented.add(node.target.id)   # `total += x` needs an earlier total
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return (loads - bound) | augmented


def needs(tree: ast.Module | None) -> set[str]:
    """Names a cell or statement reads from earlier code, statement by statement backwards:
    `x = x + 1` needs the earlier x (free_names alone would say it binds x); `s = f(); assert s`
    needs f, not an earlier s."""
    if tree is None:
        return set()
    names: set[str] = set()
    for statement in reversed(tree.body):
        module = ast.Module(body=[statement], type_ignores=[])
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            own = set().union(*(free_names(t) for t in targets))
            if statement.value is not None:
                own |= free_names(statement.value)
        else:
            own = free_names(module)
        names = (names - defined_names(module)) | own
    return names


def changed_names(tree: ast.AST) -> set[str]:
    """Names whose object a statement may change in place: `x.fit(...)`, `x.append(...)`, `x[i] = v`, `x += 1`."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            names.add(node.func.value.id)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
            while isinstance(root, (ast.Subscript, ast.Attribute)):
                root = root.value
            if isinstance(root, ast.Name):
                names.add(root.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def slice_cell(source: str, tree: ast.Module, needed: set[str], unchanged: set[str],
               keep=lambda statement: False) -> tuple[str | None, set[str]]:
    """One cell's statements that later code needs, found backwards: a statement is kept when it
    defines a needed name, may change one in place (`model.fit(X, y)`, a loop appending to a
    list; names in ``unchanged`` do not count), is an enabling import (`from sklearn.experimental
    import ...` works by side effect) or ``keep(statement)`` says so. Returns the kept source
    (None when nothing is kept) and the names still needed before this cell."""
    lines = python_source(source).splitlines()
    chosen: set[int] = set()
    for statement in reversed(tree.body):
        module = ast.Module(body=[statement], type_ignores=[])
        defs = defined_names(module)
        enabling = isinstance(statement, ast.ImportFrom) and "experimental" in (statement.module or "")
        if defs & needed or (changed_names(module) & needed) - unchanged or enabling or keep(statement):
            first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
            chosen.update(range(first, statement.end_lineno + 1))
            needed = (needed - defs) | needs(module)
    kept = "\n".join(lines[n - 1] for n in sorted(chosen)) + "\n" if chosen else None
    return kept, needed


def cell_kind(cell) -> str:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if meta.get("solution"):
        return "answer"
    if meta.get("grade"):
        return "test"
    return "other"


def make_plan(course: Course, name: str) -> Plan:
    source = nbformat.read(course.source(name), as_version=4)
    labels = exercise_labels(source)
    released = nbformat.read(course.nbgrader_release(name), as_version=4)
    visible = {cell.metadata.nbgrader["grade_id"]: cell.source for cell in nbgrader_cells(released)}
    cells = [cell for cell in source.cells if cell.cell_type == "code"]
    trees = [parse(cell.source) for cell in cells]
    kinds = [cell_kind(cell) for cell in cells]

    # The set-up statements the tests need, found backwards from the tests (imports, data,
    # helper functions): the tests process runs only those, not the whole notebook.
    needed: set[str] = set()
    kept: dict[int, str] = {}
    unchanged = unchanging_names(trees)
    for i in reversed(range(len(cells))):
        tree = trees[i]
        if kinds[i] == "test":
            needed |= needs(tree)
        elif kinds[i] == "answer":
            needed -= defined_names(tree)
        elif tree is not None:
            source, needed = slice_cell(cells[i].source, tree, needed, unchanged)
            if source is not None:
                kept[i] = source

    steps, questions, points, manual, answers, tests = [], [], {}, [], [], set()
    question_answer, last_answer = {}, None
    for i, cell in enumerate(cells):
        meta = cell.metadata.get("nbgrader", {})
        if kinds[i] == "answer":
            last_answer = meta["grade_id"]
            answers.append(last_answer)
            if meta.get("grade"):
                manual.append(meta["grade_id"])
                points[meta["grade_id"]] = float(meta.get("points", 0))
            steps.append({"kind": "bind", "grade_id": meta["grade_id"], "names": sorted(defined_names(trees[i]))})
        elif kinds[i] == "test":
            grade_id = meta["grade_id"]
            tests.add(grade_id)
            questions.append(grade_id)
            points[grade_id] = float(meta.get("points", 0))
            question_answer[grade_id] = last_answer
            steps.append({"kind": "test", "grade_id": grade_id, "full": cell.source,
                          "visible": visible.get(grade_id, cell.source), "points": points[grade_id]})
        elif i in kept:
            steps.append({"kind": "setup", "index": i, "source": kept[i]})
    handed_out = {cell.source.strip() for cell in released.cells if cell.cell_type == "code"}
    return Plan(name, questions, points, manual, answers, tests, steps, question_answer, handed_out,
                labels)


EXERCISE = re.compile(r"\bExercise\s+(\d+[a-z]?)\b")


def exercise_labels(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """Each graded or answer cell's exercise as the student reads it: "Exercise 2: best_candidate" (the
    number from the last markdown cell saying "Exercise N" before it, the name the answer cell defines
    first). A test cell gets its answer's label; cells before any "Exercise N" get none."""
    labels: dict[str, str] = {}
    number_, answer_label = None, None
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            found = EXERCISE.search(cell.source)
            if found:
                number_, answer_label = found.group(1), None
            continue
        meta = cell.get("metadata", {}).get("nbgrader", {})
        grade_id = meta.get("grade_id")
        if not grade_id or number_ is None:
            continue
        if meta.get("solution"):
            tree = parse(cell.source) if cell.cell_type == "code" else None
            names = [node.name for node in (tree.body if tree is not None else [])
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
            answer_label = f"Exercise {number_}" + (f": {names[0]}" if names else "")
            labels[grade_id] = answer_label
        elif meta.get("grade"):
            labels[grade_id] = answer_label or f"Exercise {number_}"
    return labels


KEPT_CALLS = {"seed", "set_config", "set_option", "set_printoptions", "filterwarnings", "simplefilter"}


def needed_statements(sources: list[str], answers: set[int]) -> list[str | None]:
    """Each cell's source cut to what the answer cells can reach (None: nothing of it is needed).

    The student's process runs the answer cells whole and, of the other cells, only the
    statements defining (or changing in place) a name the answers use, directly or through
    other kept statements, found backwards as in make_plan; also global set-up calls
    (seeds, scikit-learn's set_config, warning filters) and enabling imports. A cell that
    cannot be analysed (star import, exec, globals(), a syntax error) is kept whole. The
    cells nothing depends on (plots, widgets, long demonstrations) are not run: grading
    is faster, and what they would print is not graded.
    """
    trees = [parse(source) for source in sources]
    needed: set[str] = set()
    kept: list[str | None] = [None] * len(sources)
    unchanged = unchanging_names(trees)
    for i in reversed(range(len(sources))):
        tree = trees[i]
        if i in answers:
            kept[i] = sources[i]
            needed = (needed - defined_names(tree)) | needs(tree)
            continue
        opaque = tree is None or any(
            (isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names))
            or (isinstance(node, ast.Name) and node.id in ("exec", "eval", "globals", "locals", "vars", "__import__"))
            for node in ast.walk(tree))
        if opaque:
            kept[i] = sources[i]
            needed |= loaded_names(tree)
            continue
        kept[i], needed = slice_cell(sources[i], tree, needed, unchanged, keep=is_setting_call)
    return kept


def is_setting_call(statement: ast.stmt) -> bool:
    """A global set-up call kept whatever depends on it: a seed, scikit-learn's set_config, a warning filter."""
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr in KEPT_CALLS)


def student_cells(plan: Plan, notebook: nbformat.NotebookNode):
    """The student's code cells without the test cells, the answers' defs, where answers and tests are."""
    cells, answer_at, test_at, defs = [], {}, {}, {}
    for index, cell in enumerate(notebook.cells):
        if cell.get("cell_type") != "code":
            continue
        meta = cell.metadata.get("nbgrader", {}) if isinstance(cell.metadata.get("nbgrader"), dict) else {}
        grade_id = meta.get("grade_id")
        if grade_id in plan.test_ids or (meta.get("grade") and not meta.get("solution")):
            test_at.setdefault(grade_id, index)
            continue   # test cells are the instructor's: run by the tests process only
        if grade_id in plan.answer_ids:
            answer_at.setdefault(grade_id, index)
        cells.append({"index": index, "source": cell.source})
        tree = parse(cell.source)
        for node in tree.body if tree else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[node.name] = {"text": cell.source, "lineno": node.lineno}
    return cells, defs, answer_at, test_at


def cells_to_run(cells: list[dict], answer_at: dict[str, int]) -> list[dict]:
    """The student's cells cut to what the answers need (see needed_statements)."""
    answers = {n for n, cell in enumerate(cells) if cell["index"] in set(answer_at.values())}
    sources = needed_statements([cell["source"] for cell in cells], answers)
    return [{"index": cell["index"], "source": source} for cell, source in zip(cells, sources) if source is not None]
