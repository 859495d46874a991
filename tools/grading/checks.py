"""What is flagged (could fake a verdict) and what is only skipped or noted (honest habits)."""

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
from grading.plans import *  # noqa: F401, F403


# --------------------------------------------------------------------------- grade: static checks
#
# A flag zeroes every question tested after the flagged cell, so it is kept for what would fake a
# verdict if the sandboxes failed (the tests then ran where the student's code ran): patching the
# checks or the interpreter, code built at run time, shadowing modules, reaching the gradebook,
# the solutions or other processes. Honest habits that cannot change a verdict are not flagged:
# shell escapes and package installs (skipped, with a note: the grading environment has the
# course's packages and no network), a leftover input() or breakpoint() (answered empty or
# ignored, with a note), cells that raise (noted; the answers are graded as they stand), warning
# filters, output on stderr, plots, display options, sys.path additions, gc.collect() and
# importlib.reload() (run as they are).

WATCHED_ATTRIBUTES = {
    "input_transformers_cleanup", "input_transformers_post", "ast_transformers", "input_transformer_manager",
    "run_cell", "run_code", "run_ast_nodes", "run_cell_async", "transform_cell", "set_custom_exc",
    "showtraceback", "settrace", "setprofile", "meta_path", "path_hooks", "__code__", "__globals__",
    "__builtins__", "__subclasshook__", "__instancecheck__", "modules", "events",
}
STORED_ATTRIBUTES = {"__class__"}   # read by honest code (self.__class__.__name__); assigned, it fakes a type
DUNDER_COMPARISONS = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__float__",
                      "__abs__", "__sub__", "__rsub__", "__instancecheck__", "__array_ufunc__", "__array_function__"}
DYNAMIC = {"exec", "eval", "compile", "__import__"}
DANGEROUS_MODULES = {"ctypes", "subprocess", "signal", "pty", "socket", "builtins", "__builtin__", "atexit",
                     "_thread", "codeop", "site", "sqlite3"}
# Modules with an honest everyday use: importing them is fine, any other use of them is flagged.
HARMLESS_USES = {"gc": {"collect", "enable", "disable", "isenabled", "get_count", "get_threshold"},
                 "importlib": {"reload", "import_module", "metadata"},
                 "multiprocessing": {"cpu_count"},
                 "shutil": {"which", "get_terminal_size", "disk_usage"}}
SYS_INTERNALS = {"modules", "meta_path", "path_hooks", "settrace", "setprofile", "excepthook",
                 "displayhook", "addaudithook", "_getframe", "exit"}
DANGEROUS_CALLS = {"system", "popen", "fork", "forkpty", "kill", "killpg", "setsid", "execv", "execve", "execvp",
                   "spawnv", "spawnl", "posix_spawn"}
# Display settings a student may assign: they change what is printed, never a value a test checks.
DISPLAY_SETTINGS = ("pd.options.display.", "pandas.options.display.", "pd.options.mode.chained_assignment",
                    "pandas.options.mode.chained_assignment", "np.random.seed")
# IPython's escapes that run a program outside Python: skipped under grading.
SHELL_MAGICS = {"pip", "conda", "mamba", "micromamba", "uv", "system", "sx", "sc"}
SHELL_CELL_MAGICS = {"bash", "sh", "script", "system", "sx", "perl", "ruby", "python2", "python3", "pypy", "cmd"}
BODY_CELL_MAGICS = {"capture", "time", "timeit"}   # run their body: its shell escapes are skipped too
MAGIC_CALLS = {"system", "getoutput", "run_line_magic", "run_cell_magic"}   # get_ipython().X: magics spelled out


def skip_shell(source: str) -> tuple[str, list[str]]:
    """The cell with its shell escapes and package installs skipped, and what was skipped.

    ``!pip install x``, ``%pip install x``, ``x = !ls`` and ``%%bash`` cells cannot change a
    verdict (the grading environment has the course's packages and no network), so they are
    replaced by ``pass`` (``[]`` for an assignment), line for line, and the rest of the cell runs.
    """
    lines = source.split("\n")
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        magic = first[2:].split()[0] if first[2:].split() else ""
        if magic in SHELL_CELL_MAGICS:
            return "\n".join(["pass"] + [""] * (len(lines) - 1)), [short_command(source)]
        if magic in BODY_CELL_MAGICS:
            body, skipped = skip_shell("\n".join(lines[1:]))
            return (lines[0] + "\n" + body if skipped else source), skipped
        return source, []
    skipped: list[str] = []
    out: list[str] = []
    continued = False
    for line in lines:
        if continued:   # the continuation lines of a skipped escape
            out.append("")
            continued = line.rstrip().endswith("\\")
            continue
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        assign = re.match(r"([A-Za-z_][\w, ]*?)\s*=\s*(!.*)$", stripped)
        words = stripped[1:].split() if stripped.startswith("%") and not stripped.startswith("%%") else []
        if stripped.startswith("!") or (words and words[0] in SHELL_MAGICS):
            out.append(indent + "pass")
            skipped.append(short_command(stripped))
        elif assign:
            out.append(f"{indent}{assign.group(1)} = []")
            skipped.append(short_command(assign.group(2)))
        else:
            out.append(line)
            continue
        continued = line.rstrip().endswith("\\")
    if not skipped:
        return source, []
    # IPython's own reading of the cell must agree: an escape-looking line inside a string is no escape
    python = python_source(source)
    calls = len(re.findall(r"get_ipython\(\)\.(?:system|getoutput)\(", python)) + len(re.findall(
        r"get_ipython\(\)\.run_line_magic\('(?:%s)'" % "|".join(sorted(SHELL_MAGICS)), python))
    if calls != len(skipped):
        return source, []
    return "\n".join(out), skipped


def short_command(text: str) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return text if len(text) <= 60 else text[:57] + "..."


def static_flags(source: str) -> list[str]:
    """Reasons a student cell looks like it tampers with the grading (read, never run).

    ``source`` is the cell as it runs (shell escapes already skipped by skip_shell).
    """
    reasons: list[str] = []
    tree = parse(source)
    if tree is None:
        return reasons
    modules: set[str] = set()
    limited: dict[str, str] = {}   # a name bound to a module of HARMLESS_USES -> that module
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom):
                top = (node.module or "").split(".")[0]
                if top in DANGEROUS_MODULES:
                    reasons.append(f"imports {top}")
                elif top in HARMLESS_USES and node.level == 0:
                    for alias in node.names:
                        if node.module != top or alias.name not in HARMLESS_USES[top]:
                            reasons.append(f"imports {node.module}.{alias.name}")
            else:
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    if top in DANGEROUS_MODULES:
                        reasons.append(f"imports {top}")
                    elif top in HARMLESS_USES:
                        if alias.name != top and alias.name.split(".")[1] not in HARMLESS_USES[top]:
                            reasons.append(f"imports {alias.name}")
                        limited[alias.asname or top] = top
            for alias in node.names:
                modules.add(alias.asname or alias.name.split(".")[0])
    common = {"math", "np", "numpy", "pd", "pandas", "metrics", "sklearn", "pytest", "inspect", "operator",
              "IPython", "helpers", "os", "sys", "plt", "matplotlib"}
    harmless_reads: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in limited
                and node.attr in HARMLESS_USES[limited[node.value.id]] and isinstance(node.ctx, ast.Load)):
            harmless_reads.add(id(node.value))
    magic_receivers: set[int] = set()   # get_ipython() in get_ipython().run_line_magic(...) and the like
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MAGIC_CALLS
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "get_ipython"):
            magic_receivers.add(id(node.func.value.func))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr in WATCHED_ATTRIBUTES or (isinstance(node.value, ast.Name) and node.value.id == "sys"
                                                    and node.attr in SYS_INTERNALS):
                reasons.append(f"uses .{node.attr} (interpreter or IPython internals)")
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                if node.attr in STORED_ATTRIBUTES:
                    reasons.append(f"assigns .{node.attr} (an object pretending to be another type)")
                root = node.value
                while isinstance(root, ast.Attribute):
                    root = root.value
                text = ast.unparse(node)
                if (isinstance(root, ast.Name) and root.id in modules | common and root.id != "plt"
                        and not text.startswith(DISPLAY_SETTINGS)):
                    reasons.append(f"assigns {text} (patches a library)")
        elif isinstance(node, ast.Name):
            if node.id in DYNAMIC:
                reasons.append(f"uses {node.id}() (runs code built at run time)")
            elif node.id in ("__builtins__", "globals") or (node.id == "get_ipython" and id(node) not in magic_receivers):
                reasons.append(f"uses {node.id}")
            elif node.id in limited and id(node) not in harmless_reads:
                reasons.append(f"uses {limited[node.id]} beyond {', '.join(sorted(HARMLESS_USES[limited[node.id]]))}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in DUNDER_COMPARISONS:
            reasons.append(f"defines {node.name} (an object that can pass any comparison)")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("system", "getoutput", "popen")):   # `!` lines were skipped: this is Python
            reasons.append(f"runs a shell command from Python ({ast.unparse(node.func)})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DANGEROUS_CALLS:
            reasons.append(f"calls .{node.func.attr}() (processes or signals)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            target = node.args[0] if node.args else None
            root = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if not (isinstance(root, ast.Name) and root.id not in modules | common | {"get_ipython"}):
                reasons.append(f"calls {node.func.id}() on {ast.unparse(target) if target is not None else '?'}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if text.rstrip().endswith((".py", ".pth", ".pyc")) or any(
                    word in text for word in ("gradebook", "autograded", "submitted/", "source/", "nbgrader")):
                reasons.append(f"names the file {text[:60]!r}")
    return list(dict.fromkeys(reasons))
