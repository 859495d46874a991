"""The course on a class's JupyterHub, for real: hub/jupyterhub_config.py, local Unix accounts, nbgrader's exchange.

The test creates a teacher (Unix user), two students from a roster
(tools/hub_accounts.py, as ``make hub-accounts``; removed by it at the end, as
``make hub-accounts-remove``), one account outside the class and a shared
exchange folder, makes this clone private (mode 700, as the instructor clone
must be; restored at the end), then starts the hub of
``hub/jupyterhub_config.py`` on random free loopback ports, its state in a
folder of its own: PAM logins, each person's JupyterLab started as their own
Unix user from the students' environment (``make hub-student-env``: packages,
helpers and data, no notebook), configurable-http-proxy from ``make
hub-proxy``, nginx with hub/nginx-jupyterhub.conf and a self-signed certificate
in front of it.

Through nbgrader's exchange, each command run as the person who would run it
(``runuser``): the teacher, from their own copy of the course in their home,
releases 01's student version (tools/grading release, then ``nbgrader
release_assignment``), each student fetches it, writes an answer (one right,
one wrong) and submits; the teacher collects, grades with the project's
sandboxed grader in their own account, not root (tools/grading grade, as
``make grade``) and returns the feedback (hub/return_feedback.py, ``nbgrader
release_feedback``); each student fetches their own page and cannot read the
other's work, the exchange's inbound or feedback listings or the teacher's
course folder. In headless Chromium a student logs in over HTTPS through nginx,
opens their fetched notebook in the hub's JupyterLab and moves the F-beta
slider. A student walks the whole file system as themselves
(tests/hub_privacy_walk.py): no readable file holds a solution, a hidden test,
the gradebook or the other student's work. Also: `make hub-backup` restores
byte for byte (the systemd unit, the service's root-owned copy and the environment's swap:
tests/test_hub_service.py).

Every process, Unix account, group and home folder the test made is removed at
the end, on failure too. It needs root (to create accounts and start
servers as their users): `make test` in CI runs as root; it never skips.
"""

from __future__ import annotations

import csv
import grp
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import psutil
import pytest
from playwright.sync_api import expect

from browser_support import PANEL, patience

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/: kill_processes)

HUB = ROOT / "hub"
VENV = ROOT / ".venv"
BIN = VENV / "bin"
# what students' servers run (make hub-student-env): packages, helpers and data, outside the instructor clone
STUDENT_ENV = Path(os.environ.get("COURSE_STUDENT_ENV", "/opt/model-evaluation"))
CLASS_VENV = STUDENT_ENV / "venv"
PYTHON = str(CLASS_VENV / "bin" / "python")
PROXY = ROOT / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
NAME = "01_metrics"
COURSE_ID = "model-evaluation"

pytestmark = pytest.mark.slow

WRONG_EX1 = "def specificity_and_npv(tp, fp, fn, tn):\n    return 0.5, 0.5\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=kwargs.pop("timeout", 120), **kwargs)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def processes_of(uids: set[int]) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["uids"]):
        try:
            if proc.info["uids"] and proc.info["uids"].real in uids:
                found.append(proc)
        except psutil.Error:
            continue
    return found


class Class:
    """The Unix accounts of one test run, the exchange folder and how to run a command as one of them."""

    def __init__(self, prefix: str, exchange: Path):
        self.prefix = prefix
        self.teacher, self.right, self.wrong = f"{prefix}t", f"{prefix}a", f"{prefix}b"
        self.outsider = f"{prefix}x"   # a Unix account in neither of the class's groups
        self.students_group, self.teachers_group = f"{prefix}-s", f"{prefix}-t"
        self.passwords = {user: secrets.token_urlsafe(12) for user in self.users}
        self.exchange = exchange

    @property
    def users(self) -> list[str]:
        return [self.teacher, self.right, self.wrong, self.outsider]

    def home(self, user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    def uids(self) -> set[int]:
        uids = set()
        for user in self.users:
            try:
                uids.add(pwd.getpwnam(user).pw_uid)
            except KeyError:
                pass
        return uids

    def env(self, user: str) -> list[str]:
        """What the hub's spawner gives a person's server (hub/jupyterhub_config.py), for their commands."""
        return ["env", "-i", f"HOME={self.home(user)}", f"USER={user}", f"LOGNAME={user}", "LANG=C.UTF-8",
                f"PATH={CLASS_VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin", f"JUPYTER_CONFIG_PATH={STUDENT_ENV / 'jupyter'}",
                f"COURSE_EXCHANGE={self.exchange}"]

    def run(self, user: str, args: list[str], cwd: Path | None = None, timeout: float = 120,
            check: bool = True, input: str | None = None) -> subprocess.CompletedProcess:
        return self.run_each([(user, args)], cwd=cwd, timeout=timeout, check=check, input=input)[0]

    def run_each(self, jobs: list[tuple[str, list[str]]], cwd: Path | None = None, timeout: float = 120,
                 check: bool = True, input: str | None = None) -> list[subprocess.CompletedProcess]:
        """Run each (user, args) as that user at the same time (each in their home unless cwd is given);
        ``input``, if given, on each one's standard input."""
        started = [(user, args, subprocess.Popen(["runuser", "-u", user, "--", *self.env(user), *args],
                                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                                 stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                                                 cwd=cwd or self.home(user)))
                   for user, args in jobs]
        results = []
        for user, args, process in started:
            try:
                out, err = process.communicate(input=input, timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
            results.append(subprocess.CompletedProcess(args, process.returncode, out, err))
            if check and process.returncode != 0:
                pytest.fail(f"as {user}: {' '.join(args)} failed ({process.returncode}):\n{out}\n{err}")
        return results

    def nbgrader(self, user: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return self.run(user, [PYTHON, "-m", "nbgrader", *args], cwd=cwd)


@pytest.fixture(scope="module")
def klass():
    """A teacher and two students as Unix users with passwords and private homes, and the exchange folder."""
    if os.geteuid() != 0:
        pytest.fail("the hub test creates Unix accounts and starts servers as their users: it runs as root "
                    "(`make test` in CI does); it does not skip")
    # The instructor clone is the teacher's: nobody else may read it (this clone, for the test's duration;
    # its mode is restored at the end). Students' servers run the students' environment outside it.
    closed = [(ROOT, ROOT.stat().st_mode)]
    if not PROXY.exists():
        pytest.fail(f"{PROXY} is missing: `make hub-proxy` (a prerequisite of `make test`) installs it")
    if not list(STUDENT_ENV.glob(".installed-*")):
        pytest.fail(f"{STUDENT_ENV} is missing: `make hub-student-env` (a prerequisite of `make test`) makes it")
    prefix = "mev" + secrets.token_hex(3)
    exchange = Path(tempfile.mkdtemp(prefix="hub-exchange-"))
    exchange.chmod(0o1777)   # as /srv/nbgrader/exchange: everyone may create, nobody may remove another's entry
    people = Class(prefix, exchange)
    made_users, made_groups = [], []
    roster, passwords = exchange.parent / f"{prefix}-roster.csv", exchange.parent / f"{prefix}-passwords.csv"
    try:
        for parent, mode in closed:
            parent.chmod(stat.S_IMODE(mode) & 0o700)
        for group in (people.students_group, people.teachers_group):
            run(["groupadd", group])
            made_groups.append(group)
        run(["useradd", "--create-home", "--shell", "/bin/bash", "--gid", people.teachers_group, people.teacher])
        people.home(people.teacher).chmod(0o700)
        run(["useradd", "--create-home", "--shell", "/bin/bash", "--user-group", people.outsider])
        made_users += [people.teacher, people.outsider]
        run(["chpasswd"], input="".join(f"{u}:{people.passwords[u]}\n" for u in (people.teacher, people.outsider)))
        # the students' accounts from the class roster, as `make hub-accounts ROSTER=...` makes them
        with roster.open("w", newline="") as handle:
            csv.writer(handle).writerows([["submission", "name", "email"],
                                          [people.right, "Lovelace, Ada", f"{people.right}@example.org"],
                                          [people.wrong, "Babbage, Charles", f"{people.wrong}@example.org"]])
        made_users += [people.right, people.wrong]
        made = run([str(BIN / "python"), str(ROOT / "tools" / "hub_accounts.py"), "create", "--roster", str(roster),
                    "--group", people.students_group, "--passwords", str(passwords)])
        assert "2 account(s) made" in made.stdout and stat.S_IMODE(passwords.stat().st_mode) == 0o600
        with passwords.open(newline="") as handle:
            people.passwords |= {row["account"]: row["password"] for row in csv.DictReader(handle)}
        for student in (people.right, people.wrong):
            assert stat.S_IMODE(people.home(student).stat().st_mode) == 0o700
            assert pwd.getpwnam(student).pw_gid == grp.getgrnam(people.students_group).gr_gid
        yield people
    finally:
        uids = people.uids()
        # the end of term: the roster's accounts removed (`make hub-accounts-remove`), homes included
        if roster.exists():
            removed = subprocess.run([str(BIN / "python"), str(ROOT / "tools" / "hub_accounts.py"), "remove",
                                      "--roster", str(roster), "--group", people.students_group],
                                     capture_output=True, text=True, timeout=120)
            print(removed.stdout, removed.stderr)
            roster.unlink()
        passwords.unlink(missing_ok=True)
        grading.kill_processes(processes_of(uids), timeout=15, ignore=psutil.Error)
        for user in made_users:
            if not _exists(pwd.getpwnam, user):
                continue   # removed by hub_accounts.py remove, as it should
            home = people.home(user)
            subprocess.run(["userdel", "--remove", user], capture_output=True)
            shutil.rmtree(home, ignore_errors=True)
        for group in made_groups:
            subprocess.run(["groupdel", group], capture_output=True)
        shutil.rmtree(exchange, ignore_errors=True)
        left = [u for u in made_users if _exists(pwd.getpwnam, u)] + [g for g in made_groups if _exists(grp.getgrnam, g)]
        for parent, mode in closed:
            parent.chmod(stat.S_IMODE(mode))
        assert not left, f"accounts or groups left behind: {left}"
        assert not processes_of(uids), "processes of the test's accounts survived"


def _exists(lookup, name: str) -> bool:
    try:
        lookup(name)
        return True
    except KeyError:
        return False


@pytest.fixture(scope="module")
def hub(klass):
    """hub/jupyterhub_config.py running on free loopback ports; yields its URL, then stops everything it started."""
    workdir = Path(tempfile.mkdtemp(prefix="hub-run-"))   # the hub's working directory and log
    workdir.chmod(0o700)
    state = workdir / "state"   # COURSE_HUB_STATE: the database, cookie secret, proxy pid file (made by the config)
    ports = {"public": free_port(), "api": free_port(), "hub": free_port()}
    while len(set(ports.values())) < 3:
        ports["hub"] = free_port()
    env = {"PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin", "HOME": str(workdir), "LANG": "C.UTF-8",
           "COURSE_HUB_STUDENTS": klass.students_group, "COURSE_HUB_TEACHERS": klass.teachers_group,
           "COURSE_EXCHANGE": str(klass.exchange), "COURSE_STUDENT_ENV": str(STUDENT_ENV),
           "COURSE_HUB_STATE": str(state)}
    log = (workdir / "hub.log").open("w")
    server = subprocess.Popen(
        [str(BIN / "jupyterhub"), "-f", str(HUB / "jupyterhub_config.py"),
         f"--JupyterHub.bind_url=http://127.0.0.1:{ports['public']}",
         f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{ports['api']}",
         f"--JupyterHub.hub_port={ports['hub']}"],
        cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{ports['public']}"
    seen: dict[int, psutil.Process] = {}
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/hub/api", timeout=2) as answer:
                    version = json.load(answer)["version"]
                break
            except (OSError, ValueError):
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"the hub did not answer within 90 s:\n{(workdir / 'hub.log').read_text()}")
                time.sleep(0.5)
        assert version == "6.1.1"
        yield {"url": base, "ports": ports, "pid": server.pid, "log": workdir / "hub.log", "seen": seen,
               "state": state, "workdir": workdir}
    finally:
        try:
            for proc in psutil.Process(server.pid).children(recursive=True):
                seen[proc.pid] = proc
        except psutil.Error:
            pass
        server.send_signal(signal.SIGTERM)   # the hub stops the single-user servers and its proxy
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        grading.kill_processes([p for p in seen.values() if p.is_running()] + processes_of(klass.uids()), timeout=15,
                               ignore=psutil.Error)
        print((workdir / "hub.log").read_text()[-3000:])
        shutil.rmtree(workdir, ignore_errors=True)
        busy = [port for port in ports.values() if port_in_use(port)]
        assert not busy, f"ports still answering after the hub stopped: {busy}"


@pytest.fixture(scope="module")
def tls(hub):
    """nginx (Debian's) in front of the hub, with hub/nginx-jupyterhub.conf and a self-signed certificate for
    127.0.0.1 (openssl), on free loopback ports; yields its https URL and the certificate."""
    folder = Path(tempfile.mkdtemp(prefix="hub-tls-"))
    cert, key = folder / "cert.pem", folder / "key.pem"
    run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)])
    https, http = free_port(), free_port()
    site = (HUB / "nginx-jupyterhub.conf").read_text()
    for field, value in {"HTTP_LISTEN": f"127.0.0.1:{http}", "HTTPS_LISTEN": f"127.0.0.1:{https}",
                         "SERVER_NAME": "127.0.0.1", "CERT": str(cert), "KEY": str(key), "HUB": hub["url"]}.items():
        site = site.replace(f"@{field}@", value)
    assert not re.search(r"@[A-Z_]+@", site), "a field of hub/nginx-jupyterhub.conf left unfilled"
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"user root; worker_processes 1; daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{ access_log {folder / 'access.log'}; {temp} include {folder / 'site.conf'}; }}\n")
    run(["nginx", "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")])
    server = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not port_in_use(https):
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail(f"nginx did not start:\n{(folder / 'error.log').read_text()}")
            time.sleep(0.2)
        yield {"url": f"https://127.0.0.1:{https}", "http": f"http://127.0.0.1:{http}", "cert": cert,
               "access_log": folder / "access.log"}
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)
        assert not port_in_use(https) and not port_in_use(http)


@pytest.fixture(scope="module")
def clone(klass):
    """The teacher's own copy of the course (this working tree's files as git sees them), in their private
    home: they release and grade from it in their own account, never as root."""
    target = klass.home(klass.teacher) / "model-evaluation"
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    run(["chown", "-R", f"{klass.teacher}:{klass.teachers_group}", str(target)])
    return target


@pytest.fixture(scope="module")
def released(klass, clone):
    """The teacher's course folder (in their clone) with 01 released to the exchange; both students fetched it."""
    build = clone / "build"
    course = build / "course"
    klass.run(klass.teacher, [PYTHON, str(clone / "tools" / "grading"), "release", "--root", str(build),
                              "--assignment", NAME], timeout=300)
    klass.nbgrader(klass.teacher, "release_assignment", NAME, cwd=course)
    klass.run_each([(s, [PYTHON, "-m", "nbgrader", "fetch_assignment", NAME]) for s in (klass.right, klass.wrong)])
    return build


@pytest.fixture(scope="module")
def graded(klass, clone, released):
    """Each student answered exercise 1 (one right, one wrong) and submitted; the teacher collected, graded in
    their own account (each submission in its bubblewrap sandbox) and returned the feedback."""
    build, course = released, released / "course"
    copies = {s: klass.home(s) / NAME / f"{NAME}.ipynb" for s in (klass.right, klass.wrong)}
    instructor = nbformat.read(ROOT / "notebooks" / f"{NAME}.ipynb", as_version=4)
    solution = next(c.source for c in instructor.cells
                    if c.metadata.get("nbgrader", {}).get("grade_id") == "ex1-answer")
    assert "BEGIN SOLUTION" in solution
    # what a student who got it right writes: the solution's code, without nbgrader's markers
    right_answer = "\n".join(line for line in solution.splitlines() if "SOLUTION" not in line)
    fetched = {s: copy.read_text() for s, copy in copies.items()}   # as fetched, before the answers
    # each student, in one process as themselves: the answer into their copy, then `nbgrader submit`
    script = ("import sys, nbformat\npath, answer = sys.argv[1], sys.argv[2]\n"
              "nb = nbformat.read(path, as_version=4)\n"
              "[c.update(source=answer) for c in nb.cells if c.metadata.get('nbgrader', {}).get('grade_id') == 'ex1-answer']\n"
              "nbformat.write(nb, path)\n"
              "from nbgrader.apps.nbgraderapp import NbGraderApp\n"
              f"NbGraderApp.launch_instance(argv=['submit', {NAME!r}])\n")
    klass.run_each([(student, [PYTHON, "-c", script, str(copies[student]), answer])
                    for student, answer in ((klass.right, right_answer), (klass.wrong, WRONG_EX1))])
    inbound = {s: list((klass.exchange / COURSE_ID / "inbound").glob(f"{s}+{NAME}+*")) for s in copies}
    klass.nbgrader(klass.teacher, "collect", NAME, cwd=course)
    # graded as `make grade` does, by the teacher in their own account (not root): the sandboxes then run
    # in an unprivileged user namespace
    result = klass.run(klass.teacher, [PYTHON, str(clone / "tools" / "grading"), "grade", "--root", str(build),
                                       "--assignment", NAME, "--submissions", str(course / "submitted")],
                       cwd=clone, timeout=600)
    klass.run(klass.teacher, [PYTHON, str(clone / "hub" / "return_feedback.py"), "--root", str(build),
                              "--assignment", NAME], cwd=course)
    klass.run_each([(s, [PYTHON, "-m", "nbgrader", "fetch_feedback", NAME]) for s in (klass.right, klass.wrong)])
    return {"build": build, "course": course, "copies": copies, "fetched": fetched, "inbound": inbound,
            "grading": result, "right_answer": right_answer}


def login(url: str, user: str, password: str) -> tuple[int, str]:
    """POST the hub's login form; (status, where it redirects or the page's text)."""
    opener = urllib.request.build_opener(_NoRedirect())
    page = opener.open(f"{url}/hub/login", timeout=60)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.read().decode())
    cookie = page.headers.get("Set-Cookie", "").split(";")[0]
    form = urllib.parse.urlencode({"username": user, "password": password,
                                   **({"_xsrf": xsrf.group(1)} if xsrf else {})}).encode()
    request = urllib.request.Request(f"{url}/hub/login", data=form, headers={"Cookie": cookie})
    try:
        answer = opener.open(request, timeout=60)
        return answer.status, answer.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_hub_logs_students_in_with_their_unix_password(hub, klass):
    """PAM: a student's own password logs in; another's password, or an account outside the class's groups, does not."""
    status, where = login(hub["url"], klass.right, klass.passwords[klass.right])
    assert status == 302 and where.startswith("/hub/"), (status, where)      # into the hub
    status, page = login(hub["url"], klass.right, klass.passwords[klass.wrong])           # another's password
    assert status == 403 and "Invalid username or password" in page, status
    status, page = login(hub["url"], klass.outsider, klass.passwords[klass.outsider])   # not in the class
    assert status == 403 and "Invalid username or password" in page, status
    # the idle culler runs as the hub's service: a server idle for 60 minutes is stopped
    culler = [p.cmdline() for p in psutil.Process(hub["pid"]).children(recursive=True)
              if "jupyterhub_idle_culler" in " ".join(p.cmdline())]
    assert len(culler) == 1 and "--timeout=3600" in culler[0], culler


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, request, response, code, message, headers):
        return response

    http_error_301 = http_error_302


def test_hub_exchange_release_fetch_submit_collect_grade_feedback(klass, graded):
    build, course, copies = graded["build"], graded["course"], graded["copies"]
    # each student fetched their own copy, in their private home, without solutions or hidden tests
    for student, copy in copies.items():
        assert copy.stat().st_uid == pwd.getpwnam(student).pw_uid
        text = graded["fetched"][student]
        assert "BEGIN HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
        assert "raise NotImplementedError()" in text
    for student, inbound in graded["inbound"].items():   # submitted as themselves
        assert len(inbound) == 1 and inbound[0].stat().st_uid == pwd.getpwnam(student).pw_uid, inbound
    # the teacher collected: nbgrader checks that each submission's owner is the student it names
    for student in (klass.right, klass.wrong):
        collected = course / "submitted" / student / NAME
        assert (collected / f"{NAME}.ipynb").is_file() and (collected / "submission_secret.txt").is_file()
    # graded by the teacher, not root: the grade table is theirs
    result = graded["grading"]
    assert (build / "grades.csv").stat().st_uid == pwd.getpwnam(klass.teacher).pw_uid
    with (build / "grades.csv").open() as handle:
        grades = {row["student"]: row for row in csv.DictReader(handle)}
    assert set(grades) == {klass.right, klass.wrong}, result.stdout
    right, wrong = grades[klass.right], grades[klass.wrong]
    assert (right["status"], wrong["status"]) == ("graded", "graded"), result.stdout
    assert (right["flag"], wrong["flag"]) == ("", ""), result.stdout
    assert float(right["ex1-tests"]) == 2 and float(right["total"]) == 2, right     # full marks on exercise 1
    assert float(wrong["ex1-tests"]) == 0 and float(wrong["total"]) == 0, wrong
    assert float(right["max"]) == float(wrong["max"]) == 12

    # feedback back through the exchange; each student fetched their own page
    pages = {}
    for student in (klass.right, klass.wrong):
        found = list((klass.home(student) / NAME / "feedback").glob(f"*/{NAME}.html"))
        assert len(found) == 1, found
        pages[student] = found[0]
        text = found[0].read_text()
        assert f"feedback for {student}" in text and "BEGIN HIDDEN" not in text
    assert re.search(r"Score: <strong>2 / 12</strong>", pages[klass.right].read_text())
    assert re.search(r"Score: <strong>0 / 12</strong>", pages[klass.wrong].read_text())

    # what the student with the wrong answer cannot read: the other's feedback, notebook and submission,
    # the exchange's listings, the teacher's course folder (solutions, hidden tests, gradebook)
    feedback_dir = klass.exchange / COURSE_ID / "feedback"
    assert len(list(feedback_dir.iterdir())) == 2     # root sees both released pages
    probe = ("import json, os, sys\nout = {}\n"
             "for path in sys.argv[1:]:\n"
             "    try:\n"
             "        os.listdir(path) if os.path.isdir(path) else open(path).read()\n"
             "        out[path] = 'read'\n"
             "    except PermissionError:\n"
             "        out[path] = 'PermissionError'\n"
             "print(json.dumps(out))\n")
    others = [pages[klass.right], copies[klass.right], klass.exchange / COURSE_ID / "inbound", feedback_dir,
              course / "source" / NAME / f"{NAME}.ipynb", course / "gradebook.db", next(feedback_dir.iterdir())]
    answer = json.loads(klass.run(klass.wrong, [PYTHON, "-c", probe, *map(str, others)]).stdout)
    released_page_mode = stat.S_IMODE(next(feedback_dir.iterdir()).stat().st_mode)
    denied = {str(p): "PermissionError" for p in others[:-1]}
    assert {k: v for k, v in answer.items() if k in denied} == denied
    assert answer[str(others[-1])] == "read"
    # A released page itself is readable by whoever knows its name (nbgrader's design: 0644 in a folder that
    # cannot be listed, named by an HMAC of the submission's secret, which only its student holds).
    assert released_page_mode == 0o644 and stat.S_IMODE(feedback_dir.stat().st_mode) & 0o777 == 0o711
    own = json.loads(klass.run(klass.wrong, [PYTHON, "-c", probe, str(pages[klass.wrong])]).stdout)
    assert own == {str(pages[klass.wrong]): "read"}


def test_hub_student_moves_the_fbeta_slider_in_their_notebook(hub, tls, klass, released, browser):
    """A student logs in over HTTPS through nginx (hub/nginx-jupyterhub.conf, a self-signed certificate), opens
    their fetched 01 in the hub's JupyterLab and moves the slider: the kernel talks through nginx's websockets."""
    import ssl
    # nginx serves the hub with our certificate (checked against it), and plain HTTP only redirects
    context = ssl.create_default_context(cafile=str(tls["cert"]))
    with urllib.request.urlopen(f"{tls['url']}/hub/api", context=context, timeout=30) as answer:
        assert json.load(answer)["version"] == "6.1.1"
    opener = urllib.request.build_opener(_NoRedirect())
    moved = opener.open(f"{tls['http']}/hub/login", timeout=30)
    assert moved.status == 301 and moved.headers["Location"].startswith("https://127.0.0.1/hub/login")
    student = klass.right
    expect.set_options(timeout=patience(120_000))   # a student's server takes a while to spawn
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, ignore_https_errors=True)
    hub_url = tls["url"]
    page.goto(f"{hub_url}/hub/login")
    page.fill("#username_input", student)
    page.fill("#password_input", klass.passwords[student])
    page.click("#login_submit")
    page.wait_for_url(re.compile(rf"/user/{student}/lab"), timeout=patience(120_000))
    # the server runs as the student, from the course's .venv
    servers = [p for p in processes_of({pwd.getpwnam(student).pw_uid})
               if "jupyterhub-singleuser" in " ".join(p.cmdline())]
    # (the students' environment is a link to its current build, `make hub-student-env`: compare the folders)
    def folder_resolved(path):
        return str(Path(path).parent.resolve() / Path(path).name)

    assert servers and [folder_resolved(part) for part in servers[0].cmdline()[:2]] == \
        [folder_resolved(PYTHON), folder_resolved(CLASS_VENV / "bin" / "jupyterhub-singleuser")]
    page.goto(f"{hub_url}/user/{student}/lab/workspaces/hub/tree/{NAME}/{NAME}.ipynb?reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    editors = page.locator(".jp-CodeCell .cm-content")
    editors.filter(has_text="from helpers.widgets import fbeta_explorer").first.click()
    page.keyboard.press("Control+Enter")    # the imports
    expect(page.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text="[1]:")).to_have_count(1)
    slider_cell = editors.filter(has_text=re.compile(r"^fbeta_explorer\(\)$"))
    expect(slider_cell).to_have_count(1)
    slider_cell.click()
    page.keyboard.press("Control+Enter")
    handle = page.locator(".widget-slider .noUi-handle").first
    expect(handle).to_be_visible()
    panel = page.locator(PANEL).last
    expect(panel).to_contain_text("ranks first: A (high recall)")
    expect(page.locator(".widget-image").first).to_be_visible()
    before = page.locator(".widget-image").first.get_attribute("src")
    track = page.locator(".widget-slider .noUi-target").first.bounding_box()
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"], box["y"] + box["height"] / 2, steps=10)   # beta to its minimum
    page.mouse.up()
    expect(panel).to_contain_text(re.compile(r"beta = 0\.[1-3]\d \|"))
    expect(panel).to_contain_text("ranks first: B (high precision)")
    expect(page.locator(".widget-image").first).not_to_have_attribute("src", before)
    page.context.close()
    # the kernel's websocket went through nginx: upgraded (101) on the kernel's channels (nginx logs a websocket
    # when it closes, a moment after the page's context is gone)
    upgraded = rf'"GET /user/{student}/api/kernels/[0-9a-f-]+/channels\S* HTTP/1.1" 101 '
    deadline = time.monotonic() + 30
    while not re.search(upgraded, log := tls["access_log"].read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert re.search(upgraded, log), log[-2000:]


def course_needles(helpers: Path, released: Path) -> dict[str, list[str]]:
    """A distinctive line (the longest, 20 characters or more) of every solution region and hidden-test region
    of the instructor notebooks; lines also in what students are given (helpers, the released notebooks) are
    not secrets and are left out."""
    given = "".join(path.read_text() for path in sorted(helpers.glob("*.py")))
    given += "".join(path.read_text() for path in sorted(released.glob("*/*.ipynb")))
    needles: dict[str, list[str]] = {"solution": [], "hidden test": []}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for kind, begin, end in (("solution", "BEGIN SOLUTION", "END SOLUTION"),
                                     ("hidden test", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")):
                for region in re.findall(rf"{begin}[^\n]*\n(.*?)\n[^\n]*{end}", cell.source, re.S):
                    lines = [line.strip() for line in region.splitlines()
                             if len(line.strip()) >= 20 and line.strip() not in given
                             and json.dumps(line.strip())[1:-1] not in given]
                    if lines:
                        needles[kind].append(max(lines, key=len))
    return needles


def test_hub_privacy_no_student_reads_a_solution_hidden_test_gradebook_or_another_student(hub, klass, graded):
    """A student logged in to the hub walks the whole file system as themselves: no readable file holds a
    solution region, a hidden test, the gradebook or another student's work. Meanwhile the class has run:
    the hub (its state), the exchange (release, submissions, feedback), the teacher's grading."""
    student, other = klass.wrong, klass.right
    assert login(hub["url"], student, klass.passwords[student])[0] == 302   # logged in to the hub
    # the hub's state in its own folder, nothing of it in the clone or the hub's working directory
    assert {p.name for p in hub["state"].iterdir()} >= {"jupyterhub.sqlite", "jupyterhub_cookie_secret"}
    assert stat.S_IMODE(hub["state"].stat().st_mode) == 0o700
    assert not list(hub["workdir"].glob("jupyterhub*")) and not list(ROOT.glob("jupyterhub*"))
    assert not list(ROOT.glob("jupyterhub-proxy.pid"))

    needles = course_needles(STUDENT_ENV / "venv" / "course" / "helpers", graded["course"] / "release")
    assert len(needles["solution"]) >= 20 and len(needles["hidden test"]) >= 20, needles
    # the needles find what they should: the teacher's source copy holds solutions and hidden tests
    source = (graded["course"] / "source" / NAME / f"{NAME}.ipynb").read_text()
    assert any(json.dumps(n)[1:-1] in source for n in needles["solution"])
    assert any(json.dumps(n)[1:-1] in source for n in needles["hidden test"])
    walker = (ROOT / "tests" / "hub_privacy_walk.py").read_text()   # the student cannot read the clone
    started = time.monotonic()
    # the needles on standard input: no file of them for the student to find
    result = klass.run(student, [PYTHON, "-c", walker, "-", "--other-uids", str(pwd.getpwnam(other).pw_uid)],
                       cwd=Path("/"), timeout=900, input=json.dumps(needles))
    walk = json.loads(result.stdout)
    # other checkouts of the course on this machine (a development machine's other clones) are not the class's;
    # their readable copies are named, not counted: a class machine must have none (chmod 700)
    deployment = [STUDENT_ENV, klass.exchange, hub["workdir"], Path("/home"), Path("/srv"), Path("/opt"),
                  *(klass.home(u) for u in klass.users)]
    secrets = [(path, kind) for path, kind in walk["secrets"]
               if any(Path(path).is_relative_to(d) for d in deployment) or kind == "another student's file"]
    elsewhere = [(path, kind) for path, kind in walk["secrets"] if (path, kind) not in secrets]
    print(f"privacy walk as {student}: {walk['checked']} readable files checked in {time.monotonic() - started:.0f} s, "
          f"readable secrets of the class: {len(secrets)}; other checkouts of the course not entered: "
          f"{walk['checkouts']}; secrets readable elsewhere on this machine (not the class's): {len(elsewhere)} "
          f"{elsewhere[:5]}")
    assert walk["checked"] > 10_000   # it did walk the machine
    assert str(ROOT) not in walk["checkouts"]   # the instructor clone is private: not even listed
    assert secrets == []


def test_hub_backup_holds_the_term_and_restores(tmp_path):
    """`make hub-backup` puts the course folder (gradebook, submissions), the grades, LMS files and feedback, the
    exchange and the hub's state into one tar file (mode 600), which restores them byte for byte."""
    build, exchange, state, backup = tmp_path / "build", tmp_path / "exchange", tmp_path / "state", tmp_path / "backup"
    files = {build / "course" / "gradebook.db": b"SQLite format 3\0gradebook",
             build / "course" / "submitted" / "ada" / NAME / f"{NAME}.ipynb": b'{"cells": []}',
             build / "grades.csv": b"student,total\nada,12\n", build / "lms" / f"{NAME}-moodle.csv": b"First name\n",
             build / "feedback" / NAME / "ada.html": b"<html></html>",
             exchange / COURSE_ID / "inbound" / f"bob+{NAME}+2026" / f"{NAME}.ipynb": b'{"cells": [1]}',
             state / "jupyterhub.sqlite": b"SQLite format 3\0hub", state / "jupyterhub_cookie_secret": b"secret"}
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    (build / "release").mkdir()   # rebuilt by make student: not backed up
    (build / "release" / "big.ipynb").write_bytes(b"x")
    run(["make", "-s", "hub-backup", f"COURSE_BUILD={build}", f"HUB_EXCHANGE={exchange}", f"HUB_STATE={state}",
         f"BACKUP={backup}"], cwd=ROOT)
    [archive] = list(backup.glob("model-evaluation-*.tar.gz"))
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600 and stat.S_IMODE(backup.stat().st_mode) == 0o700
    restored = tmp_path / "restored"
    restored.mkdir()
    run(["tar", "--extract", "--gzip", "--file", str(archive), "--directory", str(restored)])
    for path, content in files.items():
        assert (restored / path.relative_to("/")).read_bytes() == content, path
    assert not (restored / (build / "release").relative_to("/")).exists()


def test_hub_z2jh_values_and_image_follow_the_tested_hub(tmp_path, monkeypatch):
    """The Kubernetes route on paper agrees with what the test runs: same lock, same server, same defaults."""
    import runpy

    import yaml
    from traitlets.config import Config

    config = Config()
    monkeypatch.setenv("COURSE_HUB_STATE", str(tmp_path / "state"))   # the config makes its state folder
    runpy.run_path(str(HUB / "jupyterhub_config.py"), init_globals={"get_config": lambda: config})
    assert config.JupyterHub.db_url == f"sqlite:///{tmp_path / 'state' / 'jupyterhub.sqlite'}"
    assert stat.S_IMODE((tmp_path / "state").stat().st_mode) == 0o700
    values = yaml.safe_load((HUB / "z2jh-values.yaml").read_text())
    single = values["singleuser"]
    assert single["defaultUrl"] == config.Spawner.default_url == "/lab"
    assert single["cmd"] == Path(config.Spawner.cmd[0]).name == "jupyterhub-singleuser"
    assert single["memory"]["limit"] == "3G"   # the grader's default --memory (3072 MB) fits a student's work
    assert config.JupyterHub.bind_url.startswith("http://127.0.0.1:")

    docker = (HUB / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-", docker, re.M)   # pyproject: requires-python >=3.11,<3.12
    assert "pip install --no-cache-dir --disable-pip-version-check --no-deps -r requirements.lock" in docker
    assert "pip check" in docker and 'CMD ["jupyterhub-singleuser"]' in docker
    assert "COPY hub/jupyter/nbgrader_config.py /etc/jupyter/nbgrader_config.py" in docker
    copied = re.findall(r"^COPY (.+) \S+$", docker, re.M)
    assert copied and not any("notebooks" in line for line in copied), copied   # never the instructor notebooks
