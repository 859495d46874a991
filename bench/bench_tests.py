"""Where the test run's time goes: each test file given (default: the ten heaviest in tests/durations.json) run
alone with one pytest process, and its wall-clock seconds against the CPU seconds of every process it started
(JupyterLab, kernels, Chromium, the grader's sandboxes included, read from a cgroup of its own).

A file whose CPU seconds are well under its wall-clock seconds waits (a server starting, a browser idle, a
network of one machine); two such files run side by side at little cost, which is what `make test`'s xdist
workers do. Needs root (it makes a cgroup under /sys/fs/cgroup/cpuacct, or cgroup v2's cpu.stat); without it
the CPU seconds are those of the children pytest waited for (Chromium's not always among them).

    .venv/bin/python bench/bench_tests.py                      # the ten heaviest files
    .venv/bin/python bench/bench_tests.py tests/test_handout.py
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBVAL = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg",
         "--nbval-cell-timeout", "300"]


class CpuGroup:
    """A cgroup (v1 cpuacct, else v2) holding one command and all it starts; ``seconds()`` is their CPU time."""

    def __init__(self):
        name = f"bench-tests-{uuid.uuid4().hex[:8]}"
        v1, v2 = Path("/sys/fs/cgroup/cpuacct"), Path("/sys/fs/cgroup/unified")
        self.path = self.kind = None
        for base, kind in ((v1, "v1"), (v2, "v2"), (Path("/sys/fs/cgroup"), "v2")):
            if kind == "v1" and not (base / "cpuacct.usage").exists():
                continue
            if kind == "v2" and not (base / "cgroup.procs").exists():
                continue
            try:
                (base / name).mkdir()
            except OSError:
                continue
            self.path, self.kind = base / name, kind
            break

    def enter(self) -> None:  # called in the child before exec
        if self.path:
            (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float | None:
        if self.kind == "v1":
            return int((self.path / "cpuacct.usage").read_text()) / 1e9
        if self.kind == "v2":
            stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines())
            return int(stat["usage_usec"]) / 1e6
        return None

    def close(self) -> None:
        if self.path:
            try:
                self.path.rmdir()
            except OSError:
                pass


def measure(target: str) -> dict:
    group = CpuGroup()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider", target]
    if target.endswith(".ipynb"):
        command[-1:-1] = NBVAL
    done = subprocess.run(command, cwd=ROOT, preexec_fn=group.enter, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = group.seconds()
    group.close()
    if cpu is None:
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    return {"file": target, "wall": wall, "cpu": cpu, "result": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--top", type=int, default=10, help="without files: how many of the heaviest")
    args = parser.parse_args()
    files = args.files
    if not files:
        recorded = json.loads((ROOT / "tests" / "durations.json").read_text())
        files = sorted(recorded, key=recorded.get, reverse=True)[:args.top]
    print(f"{'file':48s} {'wall s':>8s} {'CPU s':>8s} {'CPU/wall':>9s}  result", flush=True)
    rows = []
    for target in files:
        row = measure(target)
        rows.append(row)
        print(f"{row['file']:48s} {row['wall']:8.1f} {row['cpu']:8.1f} {row['cpu'] / row['wall']:9.2f}  {row['result']}",
              flush=True)
    wall, cpu = sum(r["wall"] for r in rows), sum(r["cpu"] for r in rows)
    print(f"{'all':48s} {wall:8.1f} {cpu:8.1f} {cpu / wall:9.2f}")
    print(f"load average now: {os.getloadavg()[0]:.1f} (wall-clock seconds are only comparable on an idle machine)")


if __name__ == "__main__":
    main()
