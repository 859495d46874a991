"""The grader is one package (issue 44): its command line, sandbox and sandboxed worker live in tools/grading/.

No module beside the package shares a name with it or with one of its modules (``import grading`` from
tools/ would find one or the other). The worker (tools/grading/worker.py) imports only the standard
library at start-up and is started as a file with ``python -I``: the command the sandbox builds binds
that file alone into the sandbox, and in a real sandbox (and without one, ``--no-sandbox``) the worker's
interpreter is isolated and has no module of the package loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
PACKAGE = TOOLS / "grading"
sys.path.insert(0, str(TOOLS))
import grading  # noqa: E402  (tools/grading/)

sys.path.pop(0)

MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))
NAMES = ["grading", *(name for name in MODULES if not name.startswith("__"))]   # importable names of its modules
# What the worker imports inside its functions, once it runs a notebook's cells: the course's
# environment (IPython runs the cells; traitlets configures it; optuna for 06's trials).
RUNS_CELLS_WITH = {"IPython", "traitlets", "optuna"}


def test_the_command_line_sandbox_and_worker_are_modules_of_the_package_and_none_sits_beside_it():
    assert {"__main__", "cli", "sandbox", "worker"} <= set(MODULES), MODULES
    beside = [name for name in ["grading", "grade_worker", *MODULES] if (TOOLS / f"{name}.py").exists()]
    assert beside == [], f"modules beside tools/grading/: {beside}"
    assert Path(grading.sandbox.__file__).resolve() == PACKAGE / "sandbox.py"
    assert grading.WORKER == PACKAGE / "worker.py"
    # the command line as the Makefile runs it (make student, make grade): the folder itself
    result = subprocess.run([sys.executable, "tools/grading", "grade", "--help"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and "--no-sandbox" in result.stdout, result.stdout + result.stderr
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(BIN)/python tools/grading release" in makefile and "$(BIN)/python tools/grading grade" in makefile


def imports(tree: ast.AST, in_function: bool = False):
    """(root module name or None for a relative import, inside a function?) of each import in ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name.split(".")[0], in_function) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield (None if node.level else node.module.split(".")[0]), in_function
        yield from imports(node, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                     ast.Lambda)))


def test_the_worker_imports_only_the_standard_library_at_start_up():
    found = list(imports(ast.parse((PACKAGE / "worker.py").read_text(encoding="utf-8"))))
    at_start = {name for name, in_function in found if not in_function}
    later = {name for name, in_function in found if in_function}
    assert None not in at_start | later, "a relative import: the worker runs as a file, not in the package"
    assert at_start and at_start <= sys.stdlib_module_names, sorted(at_start - sys.stdlib_module_names)
    assert later - sys.stdlib_module_names <= RUNS_CELLS_WITH, sorted(later - sys.stdlib_module_names)
    assert not (at_start | later) & set(NAMES), "the worker imports a module of the package"


class Started(Exception):
    """Raised by the stand-in Popen: the command was recorded, nothing started."""


def started_command(monkeypatch, role: str, sandboxed: bool) -> list[str]:
    """The command line grading.start_worker hands to subprocess.Popen (recorded, not run)."""
    seen = []

    def record(cmd, **kwargs):
        seen.append(list(cmd))
        raise Started

    monkeypatch.setattr(grading.sandbox.subprocess, "Popen", record)
    with pytest.raises(Started):
        grading.start_worker(role, 71999, grading.sandbox.Limits(), sandboxed)
    return seen[0]


def test_the_worker_is_started_with_python_isolated_its_file_alone_bound_into_the_sandbox(monkeypatch):
    inside = f"{grading.sandbox.GRADER_DIR}/worker.py"
    for role in ("student", "tests"):
        cmd = started_command(monkeypatch, role, sandboxed=True)
        assert cmd[0] == grading.sandbox.BWRAP
        assert cmd[-5:] == [sys.executable, "-I", "-B", inside, role], cmd[-5:]
        binds = [(cmd[i + 1], cmd[i + 2]) for i, part in enumerate(cmd) if part == "--ro-bind"]
        assert (str(PACKAGE / "worker.py"), inside) in binds
        assert [source for source, target in binds if Path(source).is_relative_to(TOOLS)] == \
            [str(PACKAGE / "worker.py")], binds   # no other file of tools/ in the sandbox
        assert any(cmd[i:i + 2] == ["--unsetenv", "PYTHONPATH"] for i in range(len(cmd)))
        unsandboxed = started_command(monkeypatch, role, sandboxed=False)   # --no-sandbox: the file in place
        assert unsandboxed == [sys.executable, "-I", "-B", str(PACKAGE / "worker.py"), role]


STATE = ("import sys\nisolated = sys.flags.isolated\n"
         f"package = sorted(m for m in sys.modules if m.split('.')[0] in {NAMES!r})\n"
         f"tools = [p for p in sys.path if {str(TOOLS)!r} in p or p in ('', '.')]")


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandbox", "no-sandbox"])
def test_the_started_worker_runs_isolated_without_the_package(sandboxed):
    if sandboxed:
        reason = grading.sandbox.available()
        assert reason is None, reason   # the grading tests need bubblewrap (make test installs it)
    process = grading.start_worker("student", 72000 + (uuid.uuid4().int % 500) * 10, grading.sandbox.Limits(),
                                   sandboxed)
    lines = grading.Lines(process.stdout)

    def ask(message: dict) -> dict:
        assert grading.send(process, message)
        reply = lines.read(time.monotonic() + 60)
        while reply is not None and reply.get("op") == "running":
            reply = lines.read(time.monotonic() + 60)
        assert reply is not None, "the worker did not answer"
        return reply

    try:
        ready = ask({"cells": [{"index": 0, "source": STATE}], "cell_timeout": 30, "call_timeout": 30,
                     "sandboxed": sandboxed})
        assert ready["op"] == "ready" and ready["cells"][0]["error"] is None, ready
        assert ask({"op": "get", "name": "isolated"})["value"] == 1
        assert ask({"op": "get", "name": "package"})["value"] == {"__t": "list", "v": []}
        assert ask({"op": "get", "name": "tools"})["value"] == {"__t": "list", "v": []}
    finally:
        grading.send(process, {"op": "bye"})
        grading.sandbox.kill(process)


def test_a_python_reached_through_a_symlink_has_its_real_folder_in_the_sandbox(tmp_path, monkeypatch):
    """The hub's students' environment is /opt/model-evaluation -> /opt/model-evaluation.d/BUILD, and its
    course-helpers.pth names the real folder: bound only at the symlink's path, `import helpers` failed in every
    sandbox the hub's teacher graded in (tests/test_hub.py: 0 of 12 for a right answer)."""
    from grading import sandbox

    real = tmp_path / "builds" / "one" / "venv"
    real.mkdir(parents=True)
    (tmp_path / "live").symlink_to(tmp_path / "builds" / "one")
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "live" / "venv"))
    command = sandbox.command(["/bin/true"], uid=sandbox.SANDBOX_UID_BASE + 5)
    binds = {(command[i + 1], command[i + 2]) for i, word in enumerate(command) if word == "--ro-bind"}
    assert (str(tmp_path / "live" / "venv"),) * 2 in binds and (str(real),) * 2 in binds
