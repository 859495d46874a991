"""The browser tests' own machinery (tests/browser_support.py): a JupyterLab server a test starts stops with its
kernels whether the test passes, fails or its process is killed (review N1), and the browser tests' waits
scale with how busy and fast the machine is (review N2).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

import browser_support
from browser_support import ROOT, machine_slowdown, patience, serve_lab

pytestmark = pytest.mark.slow


def start_kernel(base: str, token: str) -> int:
    """Start a kernel through the server's REST API, as opening a notebook does; return its process id."""
    request = urllib.request.Request(f"{base}/api/kernels?token={token}", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        kernel = json.loads(answer.read())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for process in psutil.process_iter(["cmdline"]):
            if any(kernel["id"] in part for part in process.info["cmdline"] or []):
                return process.pid
        time.sleep(0.2)
    raise AssertionError("the kernel's process never appeared")


def server_pid(base: str) -> int:
    port = base.rsplit(":", 1)[1]
    return next(p.pid for p in psutil.process_iter(["cmdline"])
                if f"--port={port}" in (p.info["cmdline"] or []) and "jupyterlab" in (p.info["cmdline"] or []))


def gone(pid: int, within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.2)
    return False


def test_a_failing_test_leaves_no_server_and_no_kernel(tmp_path):
    """A test that fails inside ``serve_lab`` with a kernel running: the server and the kernel both stop."""
    with pytest.raises(RuntimeError, match="the test failed"):
        with serve_lab(tmp_path) as (base, token, _):
            server, kernel = server_pid(base), start_kernel(base, token)
            assert psutil.pid_exists(server) and psutil.pid_exists(kernel)
            raise RuntimeError("the test failed")
    assert gone(server), "the JupyterLab server still runs after the test failed"
    assert gone(kernel), "its kernel still runs after the test failed"


CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
import browser_support, json, test_browser_support as t
from pathlib import Path
with browser_support.serve_lab(Path({root!r})) as (base, token, _):
    print(json.dumps([t.server_pid(base), t.start_kernel(base, token)]), flush=True)
    time.sleep(600)
"""


def test_a_killed_test_process_leaves_no_server_and_no_kernel(tmp_path):
    """The test process itself is killed (SIGKILL: no `finally` runs, as when a run is interrupted hard): the
    server it started gets SIGTERM from the kernel (Linux's parent-death signal) and stops its kernel."""
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(tests=str(ROOT / "tests"), root=str(tmp_path))],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT / "tests")
    try:
        server, kernel = json.loads(child.stdout.readline())
        assert psutil.pid_exists(server) and psutil.pid_exists(kernel)
    finally:
        child.kill()
        child.wait()
    assert gone(server), "the JupyterLab server outlived the killed test process"
    assert gone(kernel), "its kernel outlived the killed test process"


def test_waits_scale_with_a_slow_or_busy_machine():
    """A quiet machine that does the reference work far within the reference time counts as quick (1, never
    less); a load of three processes per core triples the waits; one that takes far longer gets the largest
    factor; the browser tests' waits use the factor."""
    assert machine_slowdown(iterations=10, reference=10.0, load=0.5) == 1.0
    assert machine_slowdown(iterations=10, reference=10.0, load=3.0) == 3.0
    assert machine_slowdown(iterations=200_000, reference=1e-6, most=5.0, load=0.0) == 5.0
    assert 1.0 <= browser_support.SLOWDOWN <= 8.0
    assert patience(30_000) == int(30_000 * browser_support.SLOWDOWN) >= 30_000


def test_every_browser_wait_is_scaled():
    """No browser test caps a wait on a page at a fixed number of milliseconds (review N2): each goes through
    patience()."""
    fixed = []
    for path in sorted(p for p in (ROOT / "tests").glob("*.py") if p.name != Path(__file__).name):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if "timeout=" in line and ("expect(" in line or "wait_for_" in line or ".to_" in line) \
                    and "patience(" not in line and "SLOWDOWN" not in line:
                fixed.append(f"{path.name}:{number}: {line.strip()}")
    assert fixed == [], "\n".join(fixed)
