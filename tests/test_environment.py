"""The pinned environment: lock, conda file and installed packages agree."""

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;]+)")


def locked_versions() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = PIN.match(line)
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


def test_lock_pins_every_package_exactly():
    lines = [line for line in (ROOT / "requirements.lock").read_text().splitlines()
             if line and not line.startswith((" ", "#"))]
    assert lines, "requirements.lock is empty"
    unpinned = [line for line in lines if not PIN.match(line)]
    assert unpinned == []


def test_lock_holds_the_course_stack():
    pins = locked_versions()
    for name in ["scikit-learn", "imbalanced-learn", "optuna", "matplotlib", "jupyterlab",
                 "ipywidgets", "nbval", "nbgrader", "pandas", "numpy", "jupytext", "hypothesis"]:
        assert name in pins, f"{name} is not pinned in requirements.lock"


def test_installed_versions_match_the_lock():
    mismatched = {name: (pinned, version(name)) for name, pinned in locked_versions().items()
                  if version(name) != pinned}
    assert mismatched == {}


def test_environment_yml_installs_the_same_lock():
    spec = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = [d for d in spec["dependencies"] if isinstance(d, str) and d.startswith("python")]
    assert python == ["python=3.11"]
    pip_section = next(d["pip"] for d in spec["dependencies"] if isinstance(d, dict))
    assert "-r requirements.lock" in pip_section
    assert "-e ." in pip_section
    # Only the lock may name versions: no second, diverging pin in the conda file.
    conda_pins = [d for d in spec["dependencies"] if isinstance(d, str) and "=" in d and not d.startswith("python")]
    assert conda_pins == []


def test_makefile_installs_from_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    assert "-r requirements.lock" in makefile
    assert "--no-deps" in makefile


def test_make_install_uses_the_uv_of_the_lock():
    pins = locked_versions()
    assert "uv" in pins, "uv, which `make install` installs the lock with, must be pinned in requirements.lock"
    makefile = (ROOT / "Makefile").read_text()
    assert "grep -E '^uv==' requirements.lock" in makefile, "make install must bootstrap the uv version of the lock"
    assert "--compile-bytecode" in makefile, "the hub's students cannot write bytecode: compile it at install"


def test_lock_leaves_out_the_iri_checker_every_nbformat_process_would_build():
    # jsonschema imports rfc3987-syntax, when it is installed, to check the "iri" string format; the import
    # builds a parser (2 s on 2 cores) in every process that loads nbformat. Nothing here checks that format.
    pins = locked_versions()
    assert "rfc3987-syntax" not in pins and "lark" not in pins, "re-lock with `make lock` (it leaves them out)"
    makefile = (ROOT / "Makefile").read_text()
    assert "--no-emit-package rfc3987-syntax --no-emit-package lark" in makefile


def test_loading_nbformat_does_not_build_the_iri_parser():
    probe = "import sys, nbformat, jsonschema; print('rfc3987_syntax' in sys.modules, 'lark' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"], "rfc3987-syntax is installed: rebuild .venv with make install"
