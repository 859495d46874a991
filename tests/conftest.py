"""Set-up shared by several test files.

The offline decks: the ``course_decks`` fixture builds the six decks and the
glossary page of `make slides` once per test run, for the browser and the
accessibility tests (pytest-xdist's workers share one build).

The browser tests (tests/test_browser*.py): ``lab``, a JupyterLab server over
the notebooks of tests/browser_support.py, and ``browser``, Debian's Chromium;
one of each per test file.

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
import shutil
import sys
import uuid
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def course_decks(request) -> dict[str, Path]:
    """The offline decks of `make slides` (build/slides/NN_name.slides.html, by notebook stem) and the
    glossary page, built from the committed notebooks once per test run: the first xdist worker to ask
    builds them under a file lock, the other waits for the lock and finds them built for this run."""
    sys.path.insert(0, str(ROOT / "tools"))
    import slides  # tools/slides.py

    missing = slides.missing_assets()
    if missing:
        pytest.fail(f"build/slides/vendor is missing {missing}: `make test` installs it (npm ci)")
    run = getattr(request.config, "workerinput", {}).get("testrunuid") or uuid.uuid4().hex
    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    slides.OUT.mkdir(parents=True, exist_ok=True)
    stamp = slides.OUT / ".built-for-test-run"
    with open(slides.OUT / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes
        if not (stamp.exists() and stamp.read_text() == run):
            stamp.unlink(missing_ok=True)
            slides.build(notebooks)  # as `make slides` does
            stamp.write_text(run)
    return {path.stem: slides.OUT / f"{path.stem}.slides.html" for path in notebooks}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a folder holding the browser tests' notebooks (tests/browser_support.py):
    ``(base_url, token, root)``, one per test file."""
    import browser_support

    root = tmp_path_factory.mktemp("lab")
    with browser_support.serve_lab(root) as served:
        yield served
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (no browser download), one per test file."""
    from browser_support import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import expect, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    expect.set_options(timeout=60_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# The heaviest test files, heaviest first (as `make test` measured them, its slowest tests): pytest-xdist
# hands each worker one file at a time in this order (--dist loadfile --no-loadscope-reorder), so that the
# long files start first and the short ones fill in at the end. test_browser_decks.py comes after
# test_accessibility.py, which builds the decks both use (course_decks), so that it rarely waits for them.
HEAVIEST_FIRST = ["test_accessibility.py", "test_browser_run_all.py", "test_grading.py", "test_browser_slideshow.py",
                  "test_browser.py", "test_browser_decks.py", "test_hub.py", "test_wrong_answers.py", "test_study.py",
                  "test_grading_06.py", "test_grading_habits.py", "test_grading_cheats.py", "test_links.py",
                  "test_grading_lms.py", "test_widgets.py", "test_metrics.py", "test_roc.py"]


def pytest_collection_modifyitems(items) -> None:
    """Order the tests by HEAVIEST_FIRST (the other files after them, in their order); a file's own tests
    keep theirs."""
    rank = {name: i for i, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(HEAVIEST_FIRST)))


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


def release_homework(base: ModuleType, folder: Path) -> Homework:
    """Write `base`'s fixture notebook to FOLDER/notebooks/hw.ipynb and release it into FOLDER/build
    (tools/grading.py release); submissions go to FOLDER/submitted."""
    notebooks, build, submitted = folder / "notebooks", folder / "build", folder / "submitted"
    notebooks.mkdir()
    nbformat.write(base.fixture_notebook(), notebooks / "hw.ipynb")
    common = ["--root", str(build), "--notebooks", str(notebooks)]
    base.run_tool("release", *common)
    released = nbformat.read(build / "release" / "hw.ipynb", as_version=4)
    return Homework(build, submitted, common, released)
