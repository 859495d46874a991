"""The course on a class's JupyterHub, for real: hub/jupyterhub_config.py, local Unix accounts, nbgrader's exchange.

The test creates a teacher and two students as Unix users (unique names, each
in a Unix group of its own kind, with a password), one account outside the
class and a shared exchange folder, then starts the hub of
``hub/jupyterhub_config.py`` on random free loopback ports: PAM logins, each
person's JupyterLab started as their own Unix user from the course's packages
(``make hub-env``: .venv's on a Python every user can run),
configurable-http-proxy from ``make hub-proxy``.

Through nbgrader's exchange, each command run as the person who would run it
(``runuser``): the teacher releases 01's student version (tools/grading.py
release, then ``nbgrader release_assignment``), each student fetches it, writes
an answer (one right, one wrong) and submits; the teacher collects, grades with
the project's sandboxed grader (tools/grading.py grade, as ``make grade``) and
returns the feedback (hub/return_feedback.py, ``nbgrader release_feedback``);
each student fetches their own page and cannot read the other's work, the
exchange's inbound or feedback listings or the teacher's course folder. In
headless Chromium a student logs in through the hub's login page, opens their
fetched notebook in the hub's JupyterLab and moves the F-beta slider.

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
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/: kill_processes)

HUB = ROOT / "hub"
VENV = ROOT / ".venv"
BIN = VENV / "bin"
# the same packages on a Python every Unix user can run (make hub-env): .venv's may be private (pyenv's in /root)
CLASS_VENV = ROOT / "build" / "hub" / "venv"
PYTHON = str(CLASS_VENV / "bin" / "python")
PROXY = ROOT / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
NAME = "01_metrics"
COURSE_ID = "model-evaluation"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PANEL = ".widget-html pre"

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
                f"PATH={CLASS_VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin", f"JUPYTER_CONFIG_PATH={HUB / 'jupyter'}",
                f"COURSE_EXCHANGE={self.exchange}"]

    def run(self, user: str, args: list[str], cwd: Path | None = None, timeout: float = 120,
            check: bool = True) -> subprocess.CompletedProcess:
        return self.run_each([(user, args)], cwd=cwd, timeout=timeout, check=check)[0]

    def run_each(self, jobs: list[tuple[str, list[str]]], cwd: Path | None = None, timeout: float = 120,
                 check: bool = True) -> list[subprocess.CompletedProcess]:
        """Run each (user, args) as that user at the same time (each in their home unless cwd is given)."""
        started = [(user, args, subprocess.Popen(["runuser", "-u", user, "--", *self.env(user), *args],
                                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                                 cwd=cwd or self.home(user)))
                   for user, args in jobs]
        results = []
        for user, args, process in started:
            try:
                out, err = process.communicate(timeout=timeout)
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
    # The students' servers run the course's .venv under ROOT. A clone in a folder other users cannot
    # enter (under /root, say) gets search permission (o+x: enter, not list) on each such folder for the
    # test's duration; the modes are restored at the end.
    closed = [(parent, parent.stat().st_mode) for parent in [ROOT, *ROOT.parents]
              if not parent.stat().st_mode & stat.S_IXOTH]
    if not PROXY.exists():
        pytest.fail(f"{PROXY} is missing: `make hub-proxy` (a prerequisite of `make test`) installs it")
    if not (CLASS_VENV / ".installed").exists():
        pytest.fail(f"{CLASS_VENV} is missing: `make hub-env` (a prerequisite of `make test`) makes it")
    prefix = "mev" + secrets.token_hex(3)
    exchange = Path(tempfile.mkdtemp(prefix="hub-exchange-"))
    exchange.chmod(0o1777)   # as /srv/nbgrader/exchange: everyone may create, nobody may remove another's entry
    people = Class(prefix, exchange)
    made_users, made_groups = [], []
    try:
        for parent, mode in closed:
            parent.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)
        for group in (people.students_group, people.teachers_group):
            run(["groupadd", group])
            made_groups.append(group)
        for user, group in ((people.teacher, people.teachers_group), (people.right, people.students_group),
                            (people.wrong, people.students_group)):
            run(["useradd", "--create-home", "--shell", "/bin/bash", "--gid", group, user])
            made_users.append(user)
            people.home(user).chmod(0o700)
        run(["useradd", "--create-home", "--shell", "/bin/bash", "--user-group", people.outsider])
        made_users.append(people.outsider)
        run(["chpasswd"], input="".join(f"{u}:{p}\n" for u, p in people.passwords.items()))
        yield people
    finally:
        uids = people.uids()
        grading.kill_processes(processes_of(uids), timeout=15, ignore=psutil.Error)
        for user in made_users:
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
    workdir = Path(tempfile.mkdtemp(prefix="hub-state-"))   # the hub's database, cookie secret, proxy pid file
    workdir.chmod(0o700)
    ports = {"public": free_port(), "api": free_port(), "hub": free_port()}
    while len(set(ports.values())) < 3:
        ports["hub"] = free_port()
    env = {"PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin", "HOME": str(workdir), "LANG": "C.UTF-8",
           "COURSE_HUB_STUDENTS": klass.students_group, "COURSE_HUB_TEACHERS": klass.teachers_group,
           "COURSE_EXCHANGE": str(klass.exchange), "COURSE_VENV": str(CLASS_VENV)}
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
        yield {"url": base, "ports": ports, "pid": server.pid, "log": workdir / "hub.log", "seen": seen}
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
def released(klass):
    """The teacher's course folder (in their home) with 01 released to the exchange; both students fetched it."""
    build = klass.home(klass.teacher) / "build"
    course = build / "course"
    klass.run(klass.teacher, [PYTHON, str(ROOT / "tools" / "grading.py"), "release", "--root", str(build),
                              "--assignment", NAME], timeout=300)
    klass.nbgrader(klass.teacher, "release_assignment", NAME, cwd=course)
    klass.run_each([(s, [PYTHON, "-m", "nbgrader", "fetch_assignment", NAME]) for s in (klass.right, klass.wrong)])
    return build


def test_hub_logs_students_in_with_their_unix_password(hub, klass):
    """PAM: a student's own password logs in; another's password, or an account outside the class's groups, does not."""
    def login(user: str, password: str) -> tuple[int, str]:
        """POST the hub's login form; (status, where it redirects or the page's text)."""
        opener = urllib.request.build_opener(_NoRedirect())
        page = opener.open(f"{hub['url']}/hub/login", timeout=60)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.read().decode())
        cookie = page.headers.get("Set-Cookie", "").split(";")[0]
        form = urllib.parse.urlencode({"username": user, "password": password,
                                       **({"_xsrf": xsrf.group(1)} if xsrf else {})}).encode()
        request = urllib.request.Request(f"{hub['url']}/hub/login", data=form, headers={"Cookie": cookie})
        try:
            answer = opener.open(request, timeout=60)
            return answer.status, answer.headers.get("Location", "")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    status, where = login(klass.right, klass.passwords[klass.right])
    assert status == 302 and where.startswith("/hub/"), (status, where)      # into the hub
    status, page = login(klass.right, klass.passwords[klass.wrong])           # another's password
    assert status == 403 and "Invalid username or password" in page, status
    status, page = login(klass.outsider, klass.passwords[klass.outsider])   # right password, not in the class
    assert status == 403 and "Invalid username or password" in page, status


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, request, response, code, message, headers):
        return response


def test_hub_exchange_release_fetch_submit_collect_grade_feedback(klass, released):
    build, course = released, released / "course"
    # each student fetched their own copy, in their private home, without solutions or hidden tests
    copies = {s: klass.home(s) / NAME / f"{NAME}.ipynb" for s in (klass.right, klass.wrong)}
    for student, copy in copies.items():
        assert copy.stat().st_uid == pwd.getpwnam(student).pw_uid
        text = copy.read_text()
        assert "BEGIN HIDDEN TESTS" not in text and "BEGIN SOLUTION" not in text
        assert "raise NotImplementedError()" in text

    # answers written into each copy by its owner: the instructor's answer to exercise 1, and a wrong one
    instructor = nbformat.read(ROOT / "notebooks" / f"{NAME}.ipynb", as_version=4)
    right_answer = next(c.source for c in instructor.cells
                        if c.metadata.get("nbgrader", {}).get("grade_id") == "ex1-answer")
    assert "BEGIN SOLUTION" in right_answer
    # each student, in one process as themselves: the answer into their copy, then `nbgrader submit`
    script = ("import sys, nbformat\npath, answer = sys.argv[1], sys.argv[2]\n"
              "nb = nbformat.read(path, as_version=4)\n"
              "[c.update(source=answer) for c in nb.cells if c.metadata.get('nbgrader', {}).get('grade_id') == 'ex1-answer']\n"
              "nbformat.write(nb, path)\n"
              "from nbgrader.apps.nbgraderapp import NbGraderApp\n"
              f"NbGraderApp.launch_instance(argv=['submit', {NAME!r}])\n")
    klass.run_each([(student, [PYTHON, "-c", script, str(copies[student]), answer])
                    for student, answer in ((klass.right, right_answer), (klass.wrong, WRONG_EX1))])
    for student in (klass.right, klass.wrong):
        inbound = list((klass.exchange / COURSE_ID / "inbound").glob(f"{student}+{NAME}+*"))
        assert len(inbound) == 1 and inbound[0].stat().st_uid == pwd.getpwnam(student).pw_uid, inbound

    # the teacher collects: nbgrader checks that each submission's owner is the student it names
    klass.nbgrader(klass.teacher, "collect", NAME, cwd=course)
    for student in (klass.right, klass.wrong):
        collected = course / "submitted" / student / NAME
        assert (collected / f"{NAME}.ipynb").is_file() and (collected / "submission_secret.txt").is_file()

    # graded as `make grade` does (as root, as CI runs it), each submission in its sandbox; the sandbox binds
    # the grading Python's own prefix, so it runs from .venv, then the teacher owns the results again
    result = run([str(BIN / "python"), str(ROOT / "tools" / "grading.py"), "grade", "--root", str(build),
                  "--assignment", NAME, "--submissions", str(course / "submitted")], timeout=600)
    run(["chown", "-R", f"{klass.teacher}:{klass.teachers_group}", str(build)])
    with (build / "grades.csv").open() as handle:
        grades = {row["student"]: row for row in csv.DictReader(handle)}
    assert set(grades) == {klass.right, klass.wrong}, result.stdout
    right, wrong = grades[klass.right], grades[klass.wrong]
    assert (right["status"], wrong["status"]) == ("graded", "graded"), result.stdout
    assert (right["flag"], wrong["flag"]) == ("", ""), result.stdout
    assert float(right["ex1-tests"]) == 2 and float(right["total"]) == 2, right     # full marks on exercise 1
    assert float(wrong["ex1-tests"]) == 0 and float(wrong["total"]) == 0, wrong
    assert float(right["max"]) == float(wrong["max"]) == 12

    # feedback back through the exchange; each student fetches their own page
    klass.run(klass.teacher, [PYTHON, str(HUB / "return_feedback.py"), "--root", str(build), "--assignment", NAME],
              cwd=course)
    pages = {}
    klass.run_each([(s, [PYTHON, "-m", "nbgrader", "fetch_feedback", NAME]) for s in (klass.right, klass.wrong)])
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


def test_hub_student_moves_the_fbeta_slider_in_their_notebook(hub, klass, released):
    """A student logs in through the hub, opens their fetched 01 in the hub's JupyterLab and moves the slider."""
    student = klass.right
    expect.set_options(timeout=120_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{hub['url']}/hub/login")
            page.fill("#username_input", student)
            page.fill("#password_input", klass.passwords[student])
            page.click("#login_submit")
            page.wait_for_url(re.compile(rf"/user/{student}/lab"), timeout=120_000)
            # the server runs as the student, from the course's .venv
            servers = [p for p in processes_of({pwd.getpwnam(student).pw_uid})
                       if "jupyterhub-singleuser" in " ".join(p.cmdline())]
            assert servers and servers[0].cmdline()[:2] == [PYTHON, str(CLASS_VENV / "bin" / "jupyterhub-singleuser")]
            page.goto(f"{hub['url']}/user/{student}/lab/workspaces/hub/tree/{NAME}/{NAME}.ipynb?reset")
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
            page.close()
        finally:
            browser.close()


def test_hub_z2jh_values_and_image_follow_the_tested_hub():
    """The Kubernetes route on paper agrees with what the test runs: same lock, same server, same defaults."""
    import runpy

    import yaml
    from traitlets.config import Config

    config = Config()
    runpy.run_path(str(HUB / "jupyterhub_config.py"), init_globals={"get_config": lambda: config})
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
