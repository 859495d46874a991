"""`make grade` (and every make target installing a Debian package) waits for another apt-get instead of failing.

Every apt line of the Makefile goes through tools/apt_install.sh, which retries ``apt-get update`` while the
package lists are locked and lets apt wait for the dpkg lock (``DPkg::Lock::Timeout``). The second test holds
both locks for real (POSIX locks, as apt and dpkg take them) on a copy of the machine's package state
(``Dir::State::status``, ``Dir::State::Lists``, no package source, nothing downloaded or installed) and
checks that the script waits for each one and then succeeds, where plain apt-get fails at once.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "apt_install.sh"


def test_every_apt_line_of_the_makefile_waits_for_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    commands = [line for line in makefile.splitlines()
                if ("apt-get" in line or "apt_install" in line) and not line.lstrip().startswith("#")]
    installing = [line for line in commands if "apt_install.sh" in line]
    # bubblewrap (make grade), chromium, postgresql, nodejs/npm once (the need_npm macro: decks, hub proxy, lite,
    # the lecture JupyterLab's extension), python3.11 (hub-student-env), nginx, systemd; tools/python3.13.sh
    # installs CPython's build packages the same way
    assert len(installing) == 7 and any("apt_install.sh bubblewrap" in line for line in installing)
    assert sum("apt_install.sh nodejs npm" in line for line in installing) == 1
    assert makefile.count("$(call need_npm,") == 4
    assert "apt_install.sh\" build-essential" in (ROOT / "tools" / "python3.13.sh").read_text()
    # the only apt-get left in the Makefile is in the messages telling a non-root user what to run
    for line in commands:
        if "apt_install.sh" not in line:
            assert re.search(r'echo ".*sudo apt-get install', line), line
    assert "DPkg::Lock::Timeout=$wait" in SCRIPT.read_text()


@pytest.mark.skipif(shutil.which("apt-get") is None or os.geteuid() != 0, reason="needs apt-get, as root")
def test_apt_install_waits_for_a_held_package_lock(tmp_path):
    dpkg, lists, cache = tmp_path / "dpkg", tmp_path / "lists", tmp_path / "cache"
    for folder in (dpkg, lists / "partial", cache / "archives" / "partial", tmp_path / "sources.d"):
        folder.mkdir(parents=True)
    shutil.copyfile("/var/lib/dpkg/status", dpkg / "status")
    options = (f"-o Dir::State::status={dpkg / 'status'} -o Dir::State::Lists={lists} -o Dir::Cache={cache} "
               f"-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts={tmp_path / 'sources.d'}")
    env = dict(os.environ, APT_OPTIONS=options, APT_LOCK_WAIT="60")
    held = []
    for lock in (lists / "lock", dpkg / "lock-frontend"):
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o640)
        fcntl.lockf(fd, fcntl.LOCK_EX)   # a POSIX lock, as apt-get and dpkg take it
        held.append(fd)
    plain = subprocess.run(["apt-get", *options.split(), "update", "-qq"], capture_output=True, text=True, timeout=60)
    assert plain.returncode != 0 and "Could not get lock" in plain.stderr   # what `make grade` hit before

    released: list[tuple[str, float]] = []

    def release() -> None:   # the lists' lock after 2 s, the dpkg lock 2 s later
        for fd, name in zip(held, ("lists", "dpkg")):
            time.sleep(2)
            released.append((name, time.monotonic()))
            fcntl.lockf(fd, fcntl.LOCK_UN)
            os.close(fd)

    start = time.monotonic()
    thread = threading.Thread(target=release)
    thread.start()
    try:
        # bash is installed already: apt has nothing to do once it holds the locks
        result = subprocess.run([str(SCRIPT), "bash"], env=env, capture_output=True, text=True, timeout=120)
        finished = time.monotonic()
    finally:
        thread.join()
    assert result.returncode == 0, result.stderr
    assert "waiting for another apt-get or dpkg to finish" in result.stderr
    # it waited: it finished only after the second lock, the dpkg one, was released 4 s in
    assert [name for name, _ in released] == ["lists", "dpkg"] and finished > released[-1][1] >= start + 4
