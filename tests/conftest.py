"""Set-up shared by the grading tests built on tests/test_grading.py (habits, LMS, cheats).

``grading_tests()`` loads tests/test_grading.py, whose helpers those tests use
(its two-question fixture notebook, ``submission``, ``run_tool``,
``read_grades`` and the ``grading`` module it loaded); ``release_homework``
releases that fixture notebook as the assignment ``hw`` in a folder. The test
files import both: ``from conftest import grading_tests, release_homework``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import nbformat


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
