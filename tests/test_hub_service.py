"""The hub as a service for a term (issue 44): what root runs, the students' environment swapped under running
servers, a backup without pid files, the settings passed through, the load benchmark's timeouts.

Run as root (make test does): `make hub-code` installs a root-owned copy of the hub's configuration and proxy,
`make hub-unit` fills in hub/jupyterhub.service from the same variables as `make hub`, checked with
`systemd-analyze verify`; `make hub-student-env` is run for real with a stand-in uv (the locked packages come
from this clone's .venv through a .pth file, so a build takes seconds, not minutes) while a Python process of
the old build keeps running. What cannot run here (no systemd as PID 1): `systemctl enable --now`, restart on
failure, passwd under ProtectSystem=full.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STUDENT_ENV = Path("/opt/model-evaluation")   # make hub-student-env, as tests/test_hub.py uses it


def make(*args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=600, env={**os.environ, **(env or {})})
    if check:
        assert result.returncode == 0, f"make {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result


def writable_by_others(path: Path) -> list[str]:
    """``path`` and each folder above it that someone other than root could change (owner not root, or
    group/other write without the sticky bit on a folder)."""
    found = []
    for part in [path, *path.parents]:
        info = part.lstat()
        sticky = stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX
        if info.st_uid != 0 or (info.st_mode & 0o022 and not sticky):
            found.append(f"{part} (uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):o})")
    return found


@pytest.fixture
def hub_code():
    code = Path(f"/opt/model-evaluation-hub-test-{uuid.uuid4().hex[:8]}")
    yield code
    shutil.rmtree(code, ignore_errors=True)


def test_the_service_runs_only_root_owned_files_with_the_classes_settings(hub_code, tmp_path):
    make("hub-code", f"HUB_CODE={hub_code}")
    unit = tmp_path / "jupyterhub.service"
    settings = {"HUB_CODE": str(hub_code), "HUB_STATE": str(tmp_path / "state"), "HUB_STUDENTS": "term-b-students",
                "HUB_TEACHERS": "term-b-teachers", "HUB_URL": "http://127.0.0.1:9000",
                "HUB_API_URL": "http://127.0.0.1:9001", "HUB_PORT": "9081", "HUB_UNIT": str(unit)}
    make("hub-unit", *(f"{k}={v}" for k, v in settings.items()))
    text = unit.read_text()
    assert "@" not in text.replace("127.0.0.1", "")   # every placeholder filled in
    for line in ("COURSE_HUB_STUDENTS=term-b-students", "COURSE_HUB_TEACHERS=term-b-teachers",
                 "COURSE_HUB_URL=http://127.0.0.1:9000", "COURSE_HUB_API_URL=http://127.0.0.1:9001",
                 "COURSE_HUB_PORT=9081", f"COURSE_HUB_STATE={tmp_path / 'state'}"):
        assert f"Environment={line}\n" in text, line
    assert str(ROOT) not in text   # nothing of the teacher's clone
    [exec_start] = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    program, _, config = exec_start.removeprefix("ExecStart=").split()
    assert config == f"{hub_code}/hub/jupyterhub_config.py" and program == "/opt/model-evaluation/venv/bin/jupyterhub"
    # every file of the copy root's, writable by root only, and the folders above it too
    for path in [hub_code, *hub_code.rglob("*")]:
        info = path.lstat()
        assert info.st_uid == 0 and (stat.S_ISLNK(info.st_mode) or not info.st_mode & 0o022), path
    assert writable_by_others(Path(config)) == []
    # the copied configuration finds the copied proxy and takes the ports and groups from the unit's variables
    probe = ("from traitlets.config import Config; import runpy; c = Config(); "
             f"runpy.run_path({config!r}, init_globals={{'get_config': lambda: c}}); "
             "print(c.ConfigurableHTTPProxy.command[0]); print(c.ConfigurableHTTPProxy.api_url); "
             "print(c.JupyterHub.hub_port); print(sorted(c.PAMAuthenticator.allowed_groups))")
    env = {"COURSE_HUB_STATE": str(tmp_path / "state"), "COURSE_HUB_STUDENTS": "term-b-students",
           "COURSE_HUB_TEACHERS": "term-b-teachers", "COURSE_HUB_API_URL": "http://127.0.0.1:9001",
           "COURSE_HUB_PORT": "9081"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={**os.environ, **env}).stdout.splitlines()
    proxy = Path(out[0])
    assert proxy.is_relative_to(hub_code) and os.access(proxy, os.X_OK) and writable_by_others(proxy.resolve()) == []
    assert out[1:] == ["http://127.0.0.1:9001", "9081", "['term-b-students', 'term-b-teachers']"]
    # the unit passes systemd's own check (it names an existing program), and a broken one fails it
    assert (STUDENT_ENV / "venv" / "bin" / "jupyterhub").exists(), "make hub-student-env first (make test does)"
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and verify.stderr.strip() == "", verify.stderr
    unit.write_text(text.replace("/opt/model-evaluation/venv/bin/jupyterhub", "/nonexistent/jupyterhub"))
    assert subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, timeout=60).returncode != 0


FAKE_UV = """#!/bin/sh
# stands in for `uv pip install ... --python VENV/bin/python -r requirements.lock`: the locked packages of this
# clone's .venv reach the new venv through a .pth file (processed after course-helpers.pth: the course copy wins)
if [ -n "$FAKE_UV_FAIL" ]; then echo "uv: network unreachable" >&2; exit 2; fi
while [ "$1" != "--python" ]; do shift; done
site=$(dirname "$(dirname "$2")")/lib/python3.11/site-packages
echo "SITE_PACKAGES" > "$site/zz-locked.pth"
"""


def test_the_students_environment_is_swapped_in_under_a_running_server(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "uv").write_text(FAKE_UV.replace("SITE_PACKAGES", sysconfig.get_paths()["purelib"]))
    (fake / "uv").chmod(0o755)
    stamp = tmp_path / "stamp"
    stamp.touch()
    live = tmp_path / "opt" / "model-evaluation"
    live.parent.mkdir()
    common = [f"BIN={fake}", f"STAMP={stamp}", f"HUB_STUDENT_ENV={live}", "hub-student-env"]

    make(*common, "HUB_ENV_ID=first")
    first = live.resolve()
    assert live.is_symlink() and (live / ".installed-first").is_file() and first.parent == Path(f"{live}.d")
    # a student's server: a Python of the live environment, importing course modules as the notebook runs
    server = subprocess.Popen([str(live / "venv" / "bin" / "python"), "-u", "-c",
                               "import sys\nfor line in sys.stdin:\n    exec(line)\n    print('ok', flush=True)"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        def run(line: str) -> str:
            server.stdin.write(line + "\n")
            server.stdin.flush()
            return server.stdout.readline().strip()

        assert run("import helpers.metrics; print(helpers.metrics.__file__, flush=True)").startswith(str(first))
        server.stdout.readline()
        # a failed build changes nothing: the live link and its folder as they were
        failed = make(*common, "HUB_ENV_ID=second", env={"FAKE_UV_FAIL": "1"}, check=False)
        assert failed.returncode != 0 and "network unreachable" in failed.stderr
        assert live.resolve() == first and (first / ".installed-first").is_file()
        assert run("import helpers.roc") == "ok"
        # a good build: swapped in; the running server keeps its own (imports it had not made yet still work)
        make(*common, "HUB_ENV_ID=second")
        second = live.resolve()
        assert second != first and (live / ".installed-second").is_file() and first.is_dir()
        assert run("import helpers.curves; print(helpers.curves.__file__, flush=True)").startswith(str(first))
        server.stdout.readline()
        assert run("import helpers.datasets as d; d.load_bank_marketing()") == "ok"
        # the failed build's leftovers are gone; only the live build and the one before it are kept
        assert sorted(Path(f"{live}.d").iterdir()) == sorted([first, second])
        make(*common, "HUB_ENV_ID=third")
        assert sorted(Path(f"{live}.d").iterdir()) == sorted([second, live.resolve()])
        assert not first.exists()
    finally:
        server.kill()
        server.wait()


def test_a_backup_leaves_out_pid_files_so_a_restore_signals_no_one(tmp_path):
    """A restore onto a machine where the old proxy pid belongs to another process: no pid file comes back
    (JupyterHub, as root, would SIGTERM then SIGKILL whatever has that pid); that process survives."""
    state, backup = tmp_path / "state", tmp_path / "backup"
    state.mkdir()
    (state / "jupyterhub.sqlite").write_bytes(b"SQLite format 3\0hub")
    bystander = subprocess.Popen(["sleep", "300"])
    try:
        (state / "jupyterhub-proxy.pid").write_text(f"{bystander.pid}\n")
        make("-s", "hub-backup", f"COURSE_BUILD={tmp_path / 'build'}", f"HUB_EXCHANGE={tmp_path / 'exchange'}",
             f"HUB_STATE={state}", f"BACKUP={backup}")
        [archive] = backup.glob("model-evaluation-*.tar.gz")
        with tarfile.open(archive) as tar:
            names = tar.getnames()
        assert any(name.endswith("jupyterhub.sqlite") for name in names)
        assert not any(name.endswith(".pid") for name in names), names
        shutil.rmtree(state)
        subprocess.run(["tar", "--extract", "--gzip", "--file", str(archive), "--absolute-names"], check=True)
        assert (state / "jupyterhub.sqlite").read_bytes() == b"SQLite format 3\0hub"
        assert not (state / "jupyterhub-proxy.pid").exists()
        assert bystander.poll() is None   # still running
    finally:
        bystander.kill()
        bystander.wait()


def test_the_load_benchmark_waits_as_long_on_the_websocket_and_classes_its_own_timeouts():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_hub
    finally:
        sys.path.pop(0)
    import socket
    import urllib.error
    import urllib.request

    from tornado.simple_httpclient import HTTPTimeoutError
    request = bench_hub.websocket_request("ws://127.0.0.1:1/x", {"Cookie": "a=b"})
    assert request.connect_timeout == request.request_timeout == bench_hub.REQUEST_TIMEOUT >= 60
    # a server that accepts and never answers: this client's timeout, not a hub failure
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{silent.getsockname()[1]}/", timeout=0.5)
        except Exception as exc:  # noqa: BLE001
            timed_out = exc
    assert bench_hub.failure_kind(timed_out) == "client timeout"
    assert bench_hub.failure_kind(HTTPTimeoutError("Timeout during request")) == "client timeout"
    assert bench_hub.failure_kind(RuntimeError("the kernel's websocket closed")) == "hub failure"
    assert bench_hub.failure_kind(urllib.error.HTTPError("http://x", 503, "Service Unavailable", None, None)) \
        == "hub failure"


def free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_hub_starts_from_the_root_owned_copy_on_the_units_ports(hub_code, tmp_path):
    """What the unit's ExecStart runs, run here in the foreground: the students' environment's jupyterhub with
    the copied configuration, on the ports the variables give; its proxy is the copy's."""
    import time
    import urllib.request

    import psutil
    make("hub-code", f"HUB_CODE={hub_code}")
    state = tmp_path / "state"
    ports = [free_port() for _ in range(3)]
    env = {**os.environ, "COURSE_STUDENT_ENV": str(STUDENT_ENV), "COURSE_HUB_STATE": str(state),
           "COURSE_HUB_URL": f"http://127.0.0.1:{ports[0]}", "COURSE_HUB_API_URL": f"http://127.0.0.1:{ports[1]}",
           "COURSE_HUB_PORT": str(ports[2]), "COURSE_EXCHANGE": str(tmp_path / "exchange"),
           "PATH": f"{STUDENT_ENV}/venv/bin:/usr/local/bin:/usr/bin:/bin"}
    log = (tmp_path / "hub.log").open("w")
    hub = subprocess.Popen([str(STUDENT_ENV / "venv" / "bin" / "jupyterhub"), "-f",
                            str(hub_code / "hub" / "jupyterhub_config.py")], cwd=tmp_path, env=env, stdout=log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                answer = urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}/hub/api", timeout=5)
                break
            except OSError:
                assert hub.poll() is None and time.monotonic() < deadline, (tmp_path / "hub.log").read_text()[-3000:]
                time.sleep(1)
        assert answer.status == 200 and "version" in json.loads(answer.read())
        children = psutil.Process(hub.pid).children(recursive=True)
        proxies = [p for p in children if any("configurable-http-proxy" in part for part in p.cmdline())]
        assert proxies, [p.cmdline() for p in children]
        assert any(part.startswith(str(hub_code)) for part in proxies[0].cmdline()), proxies[0].cmdline()
        assert f"--api-port {ports[1]}" in " ".join(proxies[0].cmdline()) or \
            str(ports[1]) in " ".join(proxies[0].cmdline())
        with urllib.request.urlopen(f"http://127.0.0.1:{ports[2]}/hub/api", timeout=5) as direct:
            assert direct.status == 200   # the hub's own port is the one COURSE_HUB_PORT gave
    finally:
        os.killpg(hub.pid, 15)
        try:
            hub.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(hub.pid, 9)
            hub.wait()
        log.close()
