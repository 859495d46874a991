"""JupyterLite: the six student notebooks run in a browser (Pyodide), nothing installed.

    .venv/bin/python tools/publishing/lite.py build [--pyodide PATH] [--out DIR] [--contents FILE ...]   # make lite
    .venv/bin/python tools/publishing/lite.py lock       # re-pin tools/publishing/lite/*-wheels.txt
    .venv/bin/python tools/publishing/lite.py core OUT   # a Pyodide release-shaped folder of the npm core (tests)

``make lite`` writes ``build/site/lite/`` (docs/lite.md): a JupyterLite site (jupyterlite-core and
jupyterlite-pyodide-kernel, pinned in tools/publishing/lite/requirements.lock, in their own venv under
build/lite/) with

- the six student notebooks (the site's downloads: nbgrader's student versions, `make student`), each with a
  first code cell that installs its packages from the site (``%pip install``: piplite, with the PyPI fallback
  switched off in the kernel's settings, so what runs is what was tested), the glossary and the data;
- the wheels in ``pypi/``: the course's ``helpers`` (built here, the data inside, the SHA-256 check kept) and
  every pure-Python distribution the notebooks need that Pyodide's own distribution lacks
  (:func:`site_distributions`: imbalanced-learn, optuna and their pure dependencies, ipywidgets, anywidget),
  pinned with hashes in tools/publishing/lite/site-wheels.txt at requirements.lock's versions.

Pyodide's own packages (numpy, scipy, scikit-learn, pandas, matplotlib ...) come from Pyodide's CDN at run time
(the site needs the network for them), unless ``--pyodide PATH`` (``make lite PYODIDE=path``) names a local
copy of Pyodide's release, which the site then carries: fully offline.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from packaging.markers import Marker
from packaging.requirements import Requirement

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
from handout import canonical, helpers_requirements  # noqa: E402  (tools/handout.py: PEP 503 names, pyproject's list)

sys.path.pop(0)
CONFIG = HERE / "lite"  # the pins: the build venv, the npm core, the wheels
BUILD = ROOT / "build" / "lite"  # make lite's venv, npm core, downloaded wheels, work folders
OUT = ROOT / "build" / "site" / "lite"
VENV = BUILD / "venv"
CORE = BUILD / "npm" / "node_modules" / "pyodide"  # Pyodide's core from npm (tools/publishing/lite/package.json)
WHEELS = BUILD / "wheels"  # the site's wheels (site-wheels.txt)
PYODIDE_WHEELS = BUILD / "pyodide-wheels"  # the kernel's own packages of Pyodide's distribution (pyodide-wheels.txt)
SITE_WHEELS = CONFIG / "site-wheels.txt"
KERNEL_WHEELS = CONFIG / "pyodide-wheels.txt"
PYODIDE_VERSION = "314.0.6"
HELPERS = "model-evaluation-helpers"
# What Pyodide 314 runs on: the markers the notebooks' dependencies are evaluated with.
PYODIDE_MARKERS = {"python_version": "3.14", "python_full_version": "3.14.2", "sys_platform": "emscripten",
                   "platform_system": "Emscripten", "platform_machine": "wasm32", "implementation_name": "cpython",
                   "platform_python_implementation": "CPython", "os_name": "posix", "extra": ""}
# What the Pyodide kernel brings itself (its labextension's pypi/: a stub of widgetsnbextension, its ipykernel).
KERNEL_PROVIDES = {"widgetsnbextension", "ipykernel", "pyodide-kernel", "piplite"}
# The Pyodide packages the kernel loads as it starts (the kernel's worker: micropip, then ipython, jedi and comm
# through piplite) and ipywidgets' own: what a release-shaped folder of the npm core needs (:func:`core_folder`).
KERNEL_ROOTS = ("micropip", "ipython", "jedi", "traitlets")
PIP_DOWNLOAD = ["-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps", "--only-binary=:all:",
                "--python-version", "3.14", "--implementation", "py", "--abi", "none", "--platform", "any"]
FIRST_CELL = ("# In the browser (JupyterLite): run this cell first. It installs what this notebook imports from this "
              "site's own\n# wheels, never from PyPI (Pyodide's numpy, scikit-learn ... load as they are imported).\n"
              "%pip install {packages}")


# --------------------------------------------------------------------------- what the notebooks need

def pyodide_distribution(lock: Path = CORE / "pyodide-lock.json") -> dict[str, dict]:
    """Pyodide's own distribution, as its pyodide-lock.json lists it: canonical name -> its entry."""
    if not lock.is_file():
        raise SystemExit(f"missing {lock}: run `make lite` (it installs Pyodide's core with npm ci)")
    packages = json.loads(lock.read_text(encoding="utf-8"))["packages"]
    return {canonical(entry["name"]): entry for entry in packages.values()}


def notebook_imports(notebook) -> set[str]:
    """The top-level modules a notebook's code cells import (``%`` and ``!`` lines left out), standard library
    excluded."""
    found = set()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names)


def module_distributions(modules: set[str]) -> set[str]:
    """The distributions (canonical names) that provide ``modules``, as the pinned environment installs them;
    ``helpers`` is the course's own."""
    provided = importlib.metadata.packages_distributions()
    names = set()
    for module in modules:
        if module == "helpers":
            names.add(HELPERS)
        elif module in provided:
            names |= {canonical(d) for d in provided[module]}
        else:
            raise ValueError(f"no installed distribution provides the module {module!r}: add it to requirements.in")
    return names


def requirements_of(name: str) -> list[str]:
    """The distributions ``name`` requires on Pyodide (its metadata's markers evaluated for Pyodide 314)."""
    if name == HELPERS:
        requires = list(helpers_requirements())
    else:
        requires = importlib.metadata.requires(name) or []
    names = []
    for line in requires:
        requirement = Requirement(line)
        if requirement.marker is None or Marker(str(requirement.marker)).evaluate(PYODIDE_MARKERS):
            names.append(canonical(requirement.name))
    return names


def site_distributions(roots: set[str], pyodide: dict[str, dict]) -> dict[str, str]:
    """Every distribution ``roots`` need that neither Pyodide's distribution nor the kernel provides, with the
    version the pinned environment has (requirements.lock): name -> version. The course's helpers are left out
    (built here). Pyodide's packages bring their own dependencies (its lock)."""
    needed, todo = {}, sorted(roots)
    while todo:
        name = todo.pop()
        if name in needed or name in pyodide or name in KERNEL_PROVIDES:
            continue
        needed[name] = importlib.metadata.version(name) if name != HELPERS else ""
        todo += requirements_of(name)
    needed.pop(HELPERS, None)
    return dict(sorted(needed.items()))


def kernel_distributions(pyodide: dict[str, dict]) -> dict[str, str]:
    """The packages of Pyodide's distribution the kernel loads as it starts, with their dependencies there."""
    needed, todo = {}, list(KERNEL_ROOTS)
    while todo:
        name = canonical(todo.pop())
        if name not in needed:
            needed[name] = pyodide[name]["version"]
            todo += pyodide[name]["depends"]
    return dict(sorted(needed.items()))


def student_notebooks(root: Path = BUILD / "release-root") -> list[Path]:
    """The six student versions, as the site offers them for download: `make student`'s release (nbgrader's
    ClearSolutions and ClearHiddenTests), written under ``root`` (build/lite/release-root/release/) so that a
    `make site` or `make student` running at the same time keeps build/release/ to itself."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "grading"), "release", "--no-graded", "--root", str(root)],
                   check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return sorted((root / "release").glob("[0-9][0-9]_*.ipynb"))


def notebook_url(name: str) -> str:
    """Where notebook ``name`` (``"02_roc_by_hand"``) opens in the JupyterLite site, relative to the course
    website's root (build/site/): JupyterLab with that notebook open."""
    return f"lite/lab/index.html?path={name}.ipynb"


# --------------------------------------------------------------------------- lock and wheels

def pinned(path: Path) -> dict[str, str]:
    """A wheels file (``name==version --hash=sha256:...``): canonical name -> version."""
    lines = [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return {canonical(line.split("==")[0]): line.split("==")[1].split()[0] for line in lines if line}


def write_pins(path: Path, versions: dict[str, str], header: str) -> None:
    """Download the pure wheel of each ``name==version`` from PyPI and write its pin with the wheel's SHA-256."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, *PIP_DOWNLOAD, "-d", folder, *(f"{n}=={v}" for n, v in versions.items())],
                       check=True)
        wheels = {canonical(w.name.split("-")[0]): w for w in Path(folder).glob("*.whl")}
        lines = [f"# {line}" for line in header.splitlines()]
        for name, version in versions.items():
            digest = hashlib.sha256(wheels[name].read_bytes()).hexdigest()
            lines.append(f"{name}=={version} --hash=sha256:{digest}  # {wheels[name].name}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def lock() -> None:
    """Re-pin the build venv (requirements.lock), the site's wheels (site-wheels.txt) and the kernel's Pyodide
    packages (pyodide-wheels.txt)."""
    subprocess.run([str(Path(sys.executable).parent / "uv"), "pip", "compile", "--quiet", "requirements.in", "-p", "3.11",
                    "--generate-hashes", "-o", "requirements.lock"], check=True, cwd=CONFIG)
    pyodide = pyodide_distribution()
    roots = set()
    for path in student_notebooks():
        roots |= module_distributions(notebook_imports(nbformat.read(path, as_version=4)))
    roots |= {"ipywidgets", "anywidget", HELPERS}
    write_pins(SITE_WHEELS, site_distributions(roots, pyodide),
               "The pure-Python wheels the JupyterLite site carries (make lite): what the student notebooks need that\n"
               f"Pyodide {PYODIDE_VERSION}'s distribution lacks, at requirements.lock's versions. "
               "`.venv/bin/python tools/publishing/lite.py lock` writes it.")
    write_pins(KERNEL_WHEELS, kernel_distributions(pyodide),
               f"The packages of Pyodide {PYODIDE_VERSION}'s distribution the kernel loads as it starts, from PyPI: with\n"
               "the npm core they make a Pyodide release-shaped folder that runs the kernel offline (tests/test_lite.py).\n"
               "`.venv/bin/python tools/publishing/lite.py lock` writes it.")


def helpers_wheel(folder: Path) -> Path:
    """Build the course's ``helpers`` as a wheel (its data inside) in ``folder``, offline, from a copy of the
    repository's files (setuptools writes its build/ where it builds)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp)
        for name in ("pyproject.toml", "LICENSE", "README.md"):
            shutil.copyfile(ROOT / name, source / name)
        shutil.copytree(ROOT / "helpers", source / "helpers", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "data", source / "data")
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--no-build-isolation", "--no-index", "-w", str(folder), str(source)], check=True,
                       env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"})
    return next(folder.glob("model_evaluation_helpers-*.whl"))


def core_folder(out: Path, core: Path = CORE, wheels: Path = PYODIDE_WHEELS) -> Path:
    """A folder shaped like Pyodide's release from the npm core and the kernel's own packages (pyodide-wheels.txt,
    from PyPI): its pyodide-lock.json gives those wheels' SHA-256. The kernel starts there with no network;
    the compiled packages (numpy ...) are not in it."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for path in core.iterdir():
        if path.is_file() and not path.name.endswith((".map", ".d.ts", ".html", ".md")):
            shutil.copyfile(path, out / path.name)
    lock_file = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    by_name = {canonical(entry["name"]): entry for entry in lock_file["packages"].values()}
    for wheel in sorted(wheels.glob("*.whl")):
        entry = by_name[canonical(wheel.name.split("-")[0])]
        shutil.copyfile(wheel, out / wheel.name)
        entry["file_name"] = wheel.name
        entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    (out / "pyodide-lock.json").write_text(json.dumps(lock_file), encoding="utf-8")
    return out


# --------------------------------------------------------------------------- the site

def site_notebook(path: Path, site_packages: set[str]):
    """A student notebook as the site serves it: the Pyodide kernel, and a first code cell that installs what it
    imports and Pyodide lacks from the site's wheels."""
    notebook = nbformat.read(path, as_version=4)
    install = sorted((module_distributions(notebook_imports(notebook)) & site_packages) | {HELPERS})
    cell = nbformat.v4.new_code_cell(FIRST_CELL.format(packages=" ".join(install)))
    cell.id = "lite-install"
    first_code = next((i for i, c in enumerate(notebook.cells) if c.cell_type == "code"), len(notebook.cells))
    notebook.cells.insert(first_code, cell)  # after the title and introduction, before any import
    notebook.metadata["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    return notebook


def build(out: Path = OUT, pyodide: str | None = None, contents: list[Path] = (),
          students: list[Path] | None = None) -> dict:
    """Write the JupyterLite site into ``out`` (``pyodide``: a local copy of Pyodide's release to carry, else its
    CDN at run time; ``contents``: more files to serve; ``students``: the student notebooks when the caller has
    released them already, as `make site` has); return what was written and how long it took."""
    start = time.perf_counter()
    work = BUILD / "work"
    if work.exists():
        shutil.rmtree(work)
    files, wheels = work / "files", work / "wheels"
    (files / "data").mkdir(parents=True)
    site_packages = set(pinned(SITE_WHEELS)) | {HELPERS}
    students = students or student_notebooks()
    for path in students:
        nbformat.write(site_notebook(path, site_packages), files / path.name)
    shutil.copyfile(ROOT / "notebooks" / "glossary.md", files / "glossary.md")
    for path in sorted((ROOT / "data").iterdir()):
        shutil.copyfile(path, files / "data" / path.name)
    for path in contents:
        shutil.copyfile(path, files / Path(path).name)
    shutil.copytree(WHEELS, wheels)
    helpers_wheel(wheels)
    missing = set(pinned(SITE_WHEELS)) - {canonical(w.name.split("-")[0]) for w in wheels.glob("*.whl")}
    if missing:
        raise SystemExit(f"{WHEELS} lacks {sorted(missing)}: run `make lite` (it downloads site-wheels.txt)")
    (work / "jupyter-lite.json").write_text(json.dumps({"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "Model Evaluation (in the browser)",
        "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": {"disablePyPIFallback": True}}}},
        indent=2), encoding="utf-8")
    (work / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {"contents": [str(files)], "no_sourcemaps": True, "no_unused_shared_packages": True},
        "PipliteAddon": {"piplite_urls": [str(w) for w in sorted(wheels.glob("*.whl"))]}}, indent=2), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    command = [str(VENV / "bin" / "jupyter"), "lite", "build", "--lite-dir", str(work), "--output-dir", str(out)]
    if pyodide and Path(pyodide, "pyodide.mjs").is_file():  # a folder of the release: where JupyterLite looks
        shutil.copytree(pyodide, work / "static" / "pyodide")
    elif pyodide and Path(pyodide, "pyodide", "pyodide.mjs").is_file():  # the folder the release's archive unpacks to
        shutil.copytree(Path(pyodide, "pyodide"), work / "static" / "pyodide")
    elif pyodide:  # the release's archive (.tar.bz2)
        command += ["--pyodide", str(Path(pyodide).resolve())]
    built = subprocess.run(command, cwd=work, capture_output=True, text=True,
                           env={**os.environ, "PATH": f"{VENV / 'bin'}:{os.environ['PATH']}"})
    if built.returncode != 0:  # its optional-dependency warnings only when they may explain a failure
        raise SystemExit(f"jupyter lite build failed:\n{built.stdout[-3000:]}\n{built.stderr[-3000:]}")
    site_wheels = sorted((out / "pypi").glob("*.whl"))
    return {"site": str(out), "notebooks": len(students), "wheels": len(site_wheels),
            "site_mb": round(folder_bytes(out) / 1e6, 1),
            "wheels_mb": round(sum(w.stat().st_size for w in site_wheels) / 1e6, 2),
            "seconds": round(time.perf_counter() - start, 1)}


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    site = commands.add_parser("build", help="write the JupyterLite site (make lite)")
    site.add_argument("--pyodide", help="a local copy of Pyodide's release (a folder or its .tar.bz2): fully offline")
    site.add_argument("--out", type=Path, default=OUT, help=f"where to write the site (default {OUT.relative_to(ROOT)})")
    site.add_argument("--contents", type=Path, nargs="*", default=[], help="more files to serve beside the notebooks")
    commands.add_parser("lock", help="re-pin tools/publishing/lite/site-wheels.txt and pyodide-wheels.txt")
    core = commands.add_parser("core", help="a Pyodide release-shaped folder of the npm core and the kernel's wheels")
    core.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        print(json.dumps(build(args.out, args.pyodide, args.contents)), flush=True)
    elif args.command == "lock":
        lock()
    else:
        print(core_folder(args.out))


if __name__ == "__main__":
    main(sys.argv[1:])
