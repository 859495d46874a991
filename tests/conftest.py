"""Set-up shared by several test files.

The offline decks: the ``course_decks`` fixture builds the six decks and the
glossary page of `make slides` once per test run, for the browser and the
accessibility tests (pytest-xdist's workers share one build).

The browser tests (tests/test_browser*.py, tests/test_accessibility.py): ``lab``, a
JupyterLab server over the notebooks of tests/browser_support.py, and ``browser``,
Debian's Chromium; one of each per pytest-xdist worker, shared by the files it
runs, each file starting afresh (no kernel running, the notebooks rewritten, the
previous file's pages closed).

The grading tests built on tests/test_grading.py (habits, LMS, cheats):

``grading_tests()`` loads tests/test_grading.py, whose helpers those tests use
(its two-question fixture notebook, ``submission``, ``run_tool``,
``read_grades`` and the ``grading`` module it loaded); ``release_homework``
releases that fixture notebook as the assignment ``hw`` in a folder. The test
files import both: ``from conftest import grading_tests, release_homework``.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import shutil
import sys
import uuid
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


def publish_once(request, site: bool) -> None:
    """Build what publishes the course from the committed notebooks once per test run: the offline decks of
    `make slides` and, with ``site``, the website of `make site` (which builds the decks too). The first xdist
    worker to ask builds under a file lock, the other waits for the lock and finds them built for this run."""
    sys.path.insert(0, str(ROOT / "tools"))
    sys.path.insert(0, str(ROOT / "tools" / "publishing"))
    import decks  # noqa: E402  (tools/publishing/decks.py: the offline decks)
    import website  # noqa: E402  (tools/publishing/website.py: the course website)

    missing = decks.missing_assets()
    if missing:
        pytest.fail(f"build/slides/vendor is missing {missing}: `make test` installs it (npm ci)")
    run = getattr(request.config, "workerinput", {}).get("testrunuid") or uuid.uuid4().hex
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    decks.OUT.mkdir(parents=True, exist_ok=True)
    decks_stamp, site_stamp = decks.OUT / ".built-for-test-run", ROOT / "build" / ".site-built-for-test-run"
    with open(decks.OUT / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes
        decks_built = decks_stamp.exists() and decks_stamp.read_text() == run
        if site and not (site_stamp.exists() and site_stamp.read_text() == run):
            site_stamp.unlink(missing_ok=True)
            decks_stamp.unlink(missing_ok=True)
            website.build(paths=notebooks, decks_built=decks_built)  # as `make site` does, decks included
            decks_stamp.write_text(run)
            site_stamp.write_text(run)
        elif not site and not decks_built:
            decks.build(notebooks)  # as `make slides` does
            decks_stamp.write_text(run)


@pytest.fixture(scope="session")
def course_decks(request) -> dict[str, Path]:
    """The offline decks of `make slides` (build/slides/NN_name.slides.html, by notebook stem) and the
    glossary page, built once per test run (publish_once)."""
    publish_once(request, site=False)
    out = ROOT / "build" / "slides"
    return {path.stem: out / f"{path.stem}.slides.html" for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}


@pytest.fixture(scope="session")
def course_site(request) -> Path:
    """The folder of `make site` (build/site/), built once per test run (publish_once)."""
    publish_once(request, site=True)
    return ROOT / "build" / "site"


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """One JupyterLab server per pytest-xdist worker over a folder holding the browser tests' notebooks
    (tests/browser_support.py serve_lab): ``(base_url, token, root)``. Test files use ``lab``."""
    import browser_support

    root = tmp_path_factory.mktemp("lab")
    with browser_support.serve_lab(root) as served:
        yield served
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def lab(lab_server):
    """The worker's JupyterLab (``lab_server``) as a test file gets it: no kernel running and the notebooks as
    written by serve_lab, whatever the previous file ran or saved (browser_support.reset_lab)."""
    import browser_support

    browser_support.reset_lab(lab_server)
    return lab_server


@pytest.fixture(scope="session")
def chromium_browser():
    """Debian's Chromium, headless, driven by Playwright (no browser download): one per pytest-xdist worker.
    Test files use ``browser``."""
    from browser_support import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def browser(chromium_browser):
    """The worker's Chromium as a test file gets it: the pages (browser contexts) the file opened are closed
    when it ends, so that none of them runs on into the next file."""
    from browser_support import patience
    from playwright.sync_api import expect

    expect.set_options(timeout=patience(60_000))  # scaled to how busy and fast this machine is now (review N2)
    before = set(chromium_browser.contexts)
    yield chromium_browser
    for context in chromium_browser.contexts:
        if context not in before:
            context.close()


# The schedule: pytest-xdist hands each worker one file at a time in collection order (--dist loadfile
# --no-loadscope-reorder), so the files are collected heaviest first, by the seconds each took in a recorded
# run (tests/durations.json: every phase of every test of the file, fixtures included), so that the long files
# start first and the short ones fill in at the end. A file not recorded yet comes after them. Every run
# writes its own measurements, merged into the recorded ones, to build/test-durations.json; `make durations`
# (after a whole `make test`) commits them as the new schedule.
DURATIONS = ROOT / "tests" / "durations.json"
MEASURED = ROOT / "build" / "test-durations.json"


def file_of(nodeid: str) -> str:
    """The file of a test's node id, relative to the repository ("tests/test_hub.py", "notebooks/01_metrics.ipynb")."""
    return nodeid.split("::", 1)[0]


def recorded_durations(path: Path = DURATIONS) -> dict[str, float]:
    """Seconds per test file from a recorded run (empty when there is none)."""
    return json.loads(path.read_text()) if path.exists() else {}


def heaviest_first(items, durations: dict[str, float]) -> None:
    """Order ``items`` by the recorded seconds of their file, heaviest first; files with no record after them,
    in their order; a file's own tests keep theirs."""
    items.sort(key=lambda item: -durations.get(file_of(item.nodeid), 0.0))


def pytest_collection_modifyitems(items) -> None:
    heaviest_first(items, recorded_durations())


_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report) -> None:
    """Add up the seconds of every phase (set-up, call, tear-down) per file, in the process that reports the
    run (xdist's controller, or pytest alone)."""
    _SECONDS[file_of(report.nodeid)] = _SECONDS.get(file_of(report.nodeid), 0.0) + report.duration


def pytest_sessionfinish(session) -> None:
    if hasattr(session.config, "workerinput") or not _SECONDS:
        return  # a worker: its reports reach the controller, which writes them
    merged = {**recorded_durations(), **{name: round(seconds, 1) for name, seconds in _SECONDS.items()}}
    MEASURED.parent.mkdir(parents=True, exist_ok=True)
    MEASURED.write_text(json.dumps(dict(sorted(merged.items(), key=lambda kv: -kv[1])), indent=1) + "\n")


def grading_tests() -> ModuleType:
    """A fresh copy of tests/test_grading.py, loaded as the module ``test_grading_base``."""
    spec = importlib.util.spec_from_file_location("test_grading_base", Path(__file__).with_name("test_grading.py"))
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    return base


class Homework(NamedTuple):
    """The released fixture assignment ``hw``: build folder, submissions folder (not made yet), the
    tool's ``--root``/``--notebooks`` arguments and the student version."""

    build: Path
    submitted: Path
    common: list[str]
    released: nbformat.NotebookNode


def stand_in_python(folder: Path) -> tuple[Path, Path]:
    """A folder ``FOLDER/bin`` whose ``python`` only records its arguments (as JSON, in the returned file):
    what a Makefile target passes to a tool, given ``BIN=FOLDER/bin``."""
    import sys

    fake, recorded = folder / "bin", folder / "argv.json"
    fake.mkdir()
    (fake / "python").write_text(f"#!{sys.executable}\nimport json, sys\n"
                                 f"open({str(recorded)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    (fake / "python").chmod(0o755)
    return fake, recorded


def venv_sharing_course_packages(folder: Path) -> tuple[Path, Path]:
    """A new venv in ``folder`` (with pip) on .venv's base Python that also sees .venv's packages (numpy, pandas,
    ...), after its own: a package installed in it is found first. Returns its python and its site-packages."""
    import subprocess

    venv_python = ROOT / ".venv" / "bin" / "python"
    probe = "import sys, sysconfig; print(sys._base_executable); print(sysconfig.get_path('purelib'))"
    base, shared = subprocess.run([venv_python, "-c", probe], capture_output=True, text=True,
                                  check=True).stdout.split()
    subprocess.run([base, "-m", "venv", folder], check=True)
    python = folder / "bin" / "python"
    own = Path(subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout.split()[1])
    (own / "zz-course-packages.pth").write_text(shared + "\n")  # after the venv's own packages
    return python, own


def release_homework(base: ModuleType, folder: Path) -> Homework:
    """Write `base`'s fixture notebook to FOLDER/notebooks/hw.ipynb and release it into FOLDER/build
    (tools/grading release); submissions go to FOLDER/submitted."""
    notebooks, build, submitted = folder / "notebooks", folder / "build", folder / "submitted"
    notebooks.mkdir()
    nbformat.write(base.fixture_notebook(), notebooks / "hw.ipynb")
    common = ["--root", str(build), "--notebooks", str(notebooks)]
    base.run_tool("release", *common)
    released = nbformat.read(build / "release" / "hw.ipynb", as_version=4)
    return Homework(build, submitted, common, released)
