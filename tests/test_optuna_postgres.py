"""The server route of notebook 06, for real: one Optuna study on a PostgreSQL server.

A throw-away PostgreSQL cluster is created with Debian's ``initdb`` and started
with ``pg_ctl`` in a temporary folder, listening on a free loopback port, as an
unprivileged user (PostgreSQL refuses to run as root). Two worker processes
(``python -m helpers.search worker``) optimise the notebook's tree study through
``postgresql://`` storage at once, then a third process resumes the study. The
server is stopped and its folder removed afterwards.

This test never skips. Without PostgreSQL's server programs it fails and says
how to install them (``make test`` installs them when run as root, as it does
Chromium for the browser tests).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import optuna
import pytest

from helpers.search import TreeObjective, breast_cancer_split, run_workers, worker_census

pytestmark = pytest.mark.slow

PROGRAMS = ("initdb", "pg_ctl", "postgres")


def _version_key(path: Path) -> tuple:
    return tuple(int(part) if part.isdigit() else 0 for part in re.split(r"[.]", path.parent.parent.name))


def find_server_programs() -> tuple[Path | None, list[str]]:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, and where it was looked for.

    Debian installs them in ``/usr/lib/postgresql/<version>/bin`` (not on PATH);
    ``initdb`` or ``pg_ctl`` on PATH may be symbolic links or wrappers, so they
    are resolved, and ``pg_config --bindir`` is asked as well.
    """
    looked = []
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=_version_key, reverse=True)
    looked.append("/usr/lib/postgresql/*/bin")
    folders = [path.parent for path in candidates]
    pg_config = shutil.which("pg_config")
    looked.append("pg_config --bindir")
    if pg_config:
        result = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if result.returncode == 0 and result.stdout.strip():
            folders.append(Path(result.stdout.strip()))
    looked.append("initdb on PATH")
    on_path = shutil.which("initdb")
    if on_path:
        folders.append(Path(os.path.realpath(on_path)).parent)
    for folder in folders:
        if all(os.access(folder / name, os.X_OK) for name in PROGRAMS):
            return folder, looked
    return None, looked


def unprivileged_user() -> str | None:
    """The account to run the server as when we are root: ``postgres`` if it exists, else ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    pytest.fail("running as root, and neither a 'postgres' nor a 'nobody' account exists to run the "
                "PostgreSQL server as (it refuses to run as root): create one, e.g. useradd --system postgres")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(command: list[str], user: str | None, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, user=user, cwd=cwd, timeout=120)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


@pytest.fixture(scope="module")
def postgres_url():
    """A running throw-away PostgreSQL server; yields its ``postgresql://`` URL, then stops it."""
    folder, looked = find_server_programs()
    if folder is None:
        hint = ("`make test` installs Debian's postgresql package when run as root"
                if os.geteuid() == 0 else
                "this user is not root, so `make test` cannot install it: run `sudo apt-get install postgresql`")
        pytest.fail(f"PostgreSQL's server programs ({', '.join(PROGRAMS)}) were not found (looked in: "
                    f"{'; '.join(looked)}); the test needs a real server and does not skip. {hint}.")
    user = unprivileged_user()
    base = Path(tempfile.mkdtemp(prefix="optuna-postgres-"))
    data, log = base / "data", base / "server.log"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(base, entry.pw_uid, entry.pw_gid)
    base.chmod(0o700)
    port = free_port()
    started = False
    try:
        _run([str(folder / "initdb"), "-D", str(data), "-U", "optuna", "--auth=trust", "-E", "UTF8",
              "--no-locale", "--no-sync"], user, base)
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c fsync=off"
        _run([str(folder / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "-t", "60",
              "start"], user, base)
        started = True
        yield f"postgresql://optuna@127.0.0.1:{port}/postgres"
    finally:
        if started:
            subprocess.run([str(folder / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                           capture_output=True, user=user, cwd=base, timeout=120)
        shutil.rmtree(base, ignore_errors=True)


def test_the_storage_is_a_postgresql_server(postgres_url):
    storage = optuna.storages.RDBStorage(postgres_url)
    assert postgres_url.startswith("postgresql://")
    assert storage.engine.dialect.name == "postgresql"
    with storage.engine.connect() as connection:
        version = connection.exec_driver_sql("select version()").scalar()
    assert version.startswith("PostgreSQL"), version


def test_two_workers_then_a_third_share_one_study(postgres_url):
    name = "trees-on-postgres"
    optuna.create_study(study_name=name, storage=postgres_url, direction="maximize")
    processes = run_workers(postgres_url, name, n_workers=2, n_trials=6)
    assert [p.returncode for p in processes] == [0, 0]
    assert [p.stderr for p in processes] == ["", ""], "the workers wrote to their error stream"

    study = optuna.load_study(study_name=name, storage=postgres_url)
    census = worker_census(study, expected={0: 6, 1: 6})
    assert census == {"trials": 12, "per_worker": {0: 6, 1: 6}, "lost": 0, "duplicated": 0, "unexpected": 0,
                      "unfinished": 0, "numbers_consecutive": True}

    # The values are the notebook's objective: recompute a completed trial in this process.
    X_train, _, y_train, _ = breast_cancer_split(random_state=0)
    completed = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert completed, "no trial completed"
    recomputed = TreeObjective(X_train, y_train, random_state=0)(optuna.trial.FixedTrial(completed[0].params))
    assert recomputed == pytest.approx(completed[0].value, abs=1e-12)

    # A third process resumes the same study: its trials continue the numbering.
    run_workers(postgres_url, name, n_workers=1, n_trials=3, first_worker=2)
    resumed = optuna.load_study(study_name=name, storage=postgres_url)
    census = worker_census(resumed, expected={0: 6, 1: 6, 2: 3})
    assert census["trials"] == 15 and census["per_worker"] == {0: 6, 1: 6, 2: 3}
    assert (census["lost"], census["duplicated"], census["unexpected"], census["unfinished"]) == (0, 0, 0, 0)
    assert census["numbers_consecutive"]
    assert sorted(t.number for t in resumed.trials if t.user_attrs["worker"] == 2) == [12, 13, 14]
