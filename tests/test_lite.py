"""`make lite` (tools/publishing/lite.py, docs/lite.md): the student notebooks in the browser on Pyodide.

What this machine can test: the site builds offline; in Debian's Chromium with every request off 127.0.0.1
aborted, a site built with Pyodide's npm core (``make lite PYODIDE=`` on a release-shaped folder of the core and
the kernel's own pure wheels) opens a probe notebook, starts the kernel, installs ipywidgets from the site's own
wheels and answers a key press on a slider from Python; the site carries a wheel for every distribution the
notebooks import that Pyodide's distribution lacks; the exercises' and visible tests' cells use nothing Pyodide
cannot run; the helpers wheel installs with its data and checks it. The numpy stack in the browser needs
Pyodide's release (its CDN): docs/lite.md gives the command a maintainer runs where it is reachable.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import lite  # noqa: E402  (tools/publishing/lite.py)
import lite_check  # noqa: E402  (tools/publishing/lite_check.py: what a maintainer runs with Pyodide's release)
from conftest import venv_sharing_course_packages  # noqa: E402

sys.path.pop(0)

NAMES = [path.stem for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
# Every request that leaves the machine fails (the routes below abort them too, and list them).
OFFLINE = {"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
           "HTTPS_PROXY": "http://127.0.0.1:9", "ALL_PROXY": "http://127.0.0.1:9", "PIP_NO_INDEX": "1",
           "UV_OFFLINE": "1", "npm_config_offline": "true"}
PROBE = [
    "%pip install ipywidgets",
    "import ipywidgets\nprint('ipywidgets', ipywidgets.__version__, 'from', ipywidgets.__file__)",
    "slider = ipywidgets.IntSlider(value=3, min=0, max=10, description='k')\n"
    "shown = ipywidgets.HTML('Python has not answered yet')\n"
    "def answer(change):\n    shown.value = f'Python says: {change[\"new\"]} squared is {change[\"new\"] ** 2}'\n"
    "slider.observe(answer, names='value')\ndisplay(slider, shown)",
]
# What the exercises and visible tests may not use: Emscripten has no processes and no threads.
NO_PYODIDE_MODULES = {"subprocess", "threading", "multiprocessing", "concurrent", "socket", "signal"}
NO_PYODIDE_CALLS = {"fork", "system", "popen", "spawnv", "Popen"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One `make lite` build (as a maintainer runs it with PYODIDE= on a release-shaped folder of the npm core),
    with the probe notebook among its files, offline: ``(site root holding lite/, core folder)``."""
    subprocess.run(["make", "-s", "lite-deps"], cwd=ROOT, check=True)  # the registries, once (as `make lite`)
    tmp = tmp_path_factory.mktemp("lite")
    core = lite.core_folder(tmp / "pyodide")
    exercise = nbformat.v4.new_code_cell("raise RuntimeError('the exercise ran')")
    exercise.metadata["nbgrader"] = {"solution": True, "grade": False, "grade_id": "ex1", "locked": False}
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in PROBE] + [exercise])
    probe.metadata["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    nbformat.write(probe, tmp / "probe.ipynb")
    out = tmp / "site" / "lite"
    result = subprocess.run(["make", "-s", "lite", f"PYODIDE={core}", f"LITE_OUT={out}",
                             f"LITE_CONTENTS={tmp / 'probe.ipynb'}"], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, **OFFLINE})
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["notebooks"] == 6 and figures["wheels"] >= 10, figures
    return out.parent, core


def lite_settings(out: Path) -> dict:
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    return config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]


def test_the_site_runs_from_its_own_files(site):
    root, _ = site
    out = root / "lite"
    settings = lite_settings(out)
    assert settings["disablePyPIFallback"] is True, "piplite would fall back to PyPI"
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs", "PYODIDE= did not make the site carry Pyodide"
    assert (out / "static" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert all(url.startswith("./") for url in settings["pipliteUrls"]), settings["pipliteUrls"]
    names = {p.name for p in (out / "files").glob("*")}
    assert {f"{n}.ipynb" for n in NAMES} | {"glossary.md", "data", "probe.ipynb"} <= names, names
    for name in NAMES:
        notebook = nbformat.read(out / "files" / f"{name}.ipynb", as_version=4)
        first = next(cell.source for cell in notebook.cells if cell.cell_type == "code")
        assert first.splitlines()[-1].startswith("%pip install ") and lite.HELPERS in first, f"{name}: {first}"
        assert notebook.cells[0].source.startswith("# "), f"{name}: the title is no longer the first cell"
        assert notebook.metadata["kernelspec"]["name"] == "python", f"{name} asks for another kernel than Pyodide's"
        assert not any("BEGIN SOLUTION" in c.source or "BEGIN HIDDEN TESTS" in c.source for c in notebook.cells)
    # the site's link for a notebook opens that notebook
    assert lite.notebook_url("02_roc_by_hand") == "lite/lab/index.html?path=02_roc_by_hand.ipynb"
    assert (root / lite.notebook_url("02_roc_by_hand").split("?")[0]).is_file()


def test_by_default_the_site_takes_the_pyodide_it_was_tested_with_from_the_cdn(site):
    """Without PYODIDE= the kernel loads Pyodide from its built-in CDN address: the pinned kernel's address is the
    version of the npm core the tests run (and lite.PYODIDE_VERSION, which the docs name)."""
    kernel = site[0] / "lite" / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    scripts = "".join(path.read_text(encoding="utf-8") for path in kernel.glob("*.js"))
    npm = json.loads((lite.CORE / "package.json").read_text(encoding="utf-8"))["version"]
    assert npm == lite.PYODIDE_VERSION, f"the npm core is Pyodide {npm}, lite.py says {lite.PYODIDE_VERSION}"
    assert f"cdn.jsdelivr.net/pyodide/v{npm}/full/" in scripts, "the kernel's default Pyodide is another version"
    assert f"cdn.jsdelivr.net/pyodide/v{npm}/full" in (ROOT / "docs" / "lite.md").read_text(encoding="utf-8")


def site_wheels(out: Path) -> dict[str, Path]:
    return {lite.canonical(w.name.split("-")[0]): w for w in (out / "pypi").glob("*.whl")}


def test_the_site_carries_a_wheel_for_every_distribution_the_notebooks_import(site):
    out = site[0] / "lite"
    pyodide = lite.pyodide_distribution()  # what Pyodide's own distribution provides (its pyodide-lock.json)
    wheels = site_wheels(out)
    index = json.loads((out / "pypi" / "all.json").read_text(encoding="utf-8"))
    for name in NAMES:
        imported = lite.module_distributions(lite.notebook_imports(
            nbformat.read(out / "files" / f"{name}.ipynb", as_version=4)))
        needed = lite.site_distributions(imported, pyodide)
        missing = sorted(set(needed) - set(wheels))
        assert not missing, f"{name} imports {missing}, which neither Pyodide nor the site provides"
        for dist in needed:
            assert lite.canonical(dist) in {lite.canonical(k) for k in index}, f"{dist} is not in pypi/all.json"
            assert wheels[dist].name.endswith("py3-none-any.whl"), f"{wheels[dist].name} is not pure Python"
    for dist in ("imbalanced-learn", "optuna", "alembic", "mako", "colorlog", "ipywidgets", "anywidget",
                 "markdown-it-py", lite.HELPERS):
        assert dist in wheels, f"the site lacks {dist}'s wheel"
    for dist in ("numpy", "scipy", "scikit-learn", "pandas", "matplotlib", "sqlalchemy", "tqdm"):
        assert dist in pyodide and dist not in wheels, f"{dist} should come from Pyodide's distribution"
    with zipfile.ZipFile(wheels[lite.HELPERS]) as helpers:
        assert {"helpers/data/bank_marketing.csv", "helpers/data/power_plant.csv"} <= set(helpers.namelist())


def test_every_requirement_of_the_site_wheels_is_met_on_pyodide(site):
    """What piplite resolves when a notebook's first cell runs: each requirement of each site wheel (its markers
    evaluated for Pyodide 314) is met by a version the site, Pyodide's distribution or the kernel itself has."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    out = site[0] / "lite"
    kernel = json.loads((out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi" /
                         "all.json").read_text(encoding="utf-8"))
    available = {name: entry["version"] for name, entry in lite.pyodide_distribution().items()}
    available |= {lite.canonical(name): max(entry["releases"], key=Version) for name, entry in kernel.items()}
    wheels = site_wheels(out)
    available |= {name: wheel.name.split("-")[1] for name, wheel in wheels.items()}
    unmet = []
    for name, wheel in sorted(wheels.items()):
        with zipfile.ZipFile(wheel) as archive:
            metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA")))
        for line in metadata.decode().splitlines():
            if not line.startswith("Requires-Dist: "):
                continue
            requirement = Requirement(line.removeprefix("Requires-Dist: "))
            if requirement.marker and not requirement.marker.evaluate(lite.PYODIDE_MARKERS):
                continue
            have = available.get(lite.canonical(requirement.name))
            if have is None or not requirement.specifier.contains(have, prereleases=True):
                unmet.append(f"{name} needs {requirement}, Pyodide's site has {have}")
    assert not unmet, "\n".join(unmet)
    assert len(wheels) >= 14


def pyodide_trouble(source: str) -> list[str]:
    """What in ``source`` Pyodide cannot run: a process or a thread, a parallel n_jobs."""
    found = []
    for node in ast.walk(ast.parse("\n".join(l for l in source.splitlines() if not l.lstrip().startswith(("%", "!"))))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in NO_PYODIDE_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in NO_PYODIDE_MODULES:
            found.append(node.module)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in NO_PYODIDE_CALLS:
                found.append(f"{name}()")
            for keyword in node.keywords:
                if keyword.arg == "n_jobs" and not (isinstance(keyword.value, ast.Constant) and keyword.value.value in (None, 1)):
                    found.append(f"n_jobs={ast.unparse(keyword.value)}")
    return found


def test_pyodide_trouble_is_found():
    assert pyodide_trouble("import subprocess\nfrom threading import Thread") == ["subprocess", "threading"]
    assert pyodide_trouble("cross_validate(m, X, y, n_jobs=-1)\nos.system('ls')") == ["n_jobs=-1", "system()"]
    assert pyodide_trouble("cross_validate(m, X, y, n_jobs=1)\n%timeit f()") == []


def test_the_exercises_and_visible_tests_run_on_pyodide(site):
    for path in [site[0] / "lite" / "files" / f"{name}.ipynb" for name in NAMES]:  # what the site serves
        checked = 0
        for cell in nbformat.read(path, as_version=4).cells:
            grader = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and (grader.get("solution") or grader.get("grade")):
                checked += 1
                assert not pyodide_trouble(cell.source), \
                    f"{path.stem} {grader.get('grade_id')}: Pyodide cannot run {pyodide_trouble(cell.source)}"
        assert checked >= 6, f"{path.stem}: only {checked} exercise and visible-test cells"  # 3 exercises or more


def test_the_helpers_wheel_installs_with_its_data(site, tmp_path):
    """The wheel in a fresh venv (the project's uv; numpy, pandas ... from .venv's site-packages), outside the
    repository: the data inside the package, both data sets loaded through the SHA-256 check, which still
    refuses an altered file."""
    wheel = site_wheels(site[0] / "lite")[lite.HELPERS]  # the one the site carries
    uv = ROOT / ".venv" / "bin" / "uv"
    python, site_packages = venv_sharing_course_packages(tmp_path / "venv")
    subprocess.run([str(uv), "pip", "install", "--quiet", "--offline", "--no-deps", "--python", str(python), str(wheel)],
                   check=True)
    code = ("import json, helpers.datasets as d\n"
            "X, y = d.load_bank_marketing(); P, q = d.load_power_plant()\n"
            "print(json.dumps([d.__file__, str(d.DATA_DIR), X.shape, int(y.sum()), P.shape, round(float(q.mean()), 3)]))")
    result = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    module, data_dir, bank, subscribed, plant, mean_output = json.loads(result.stdout)
    assert Path(module).is_relative_to(site_packages), f"helpers came from {module}, not the wheel"
    assert data_dir == str(site_packages / "helpers" / "data")
    assert bank == [4521, 15] and subscribed == 521 and plant == [9568, 4], (bank, subscribed, plant)
    assert mean_output == pytest.approx(454.365, abs=1e-3)
    csv = site_packages / "helpers" / "data" / "power_plant.csv"
    csv.write_bytes(csv.read_bytes().replace(b"1", b"2", 1))
    altered = subprocess.run([str(python), "-c", "import helpers.datasets as d; d.load_power_plant()"], cwd=tmp_path,
                             capture_output=True, text=True)
    assert altered.returncode != 0 and "has been altered" in altered.stderr, altered.stderr


def test_a_notebook_runs_in_chromium_with_the_network_blocked(site, browser):
    """The probe notebook, as tools/publishing/lite_check.py runs the course's notebooks where Pyodide's release is
    reachable: it opens as the site links it, the kernel starts from the site's Pyodide, Run > Run All Above the
    exercise installs ipywidgets from the site's own wheels and leaves the exercise alone, and a key press on the
    slider gets Python's answer; no request leaves 127.0.0.1. Then what each notebook page of the website tells a
    student: saved, the edited notebook opens again as edited (the browser's storage); deleted in JupyterLite's
    file browser, it opens again as published."""
    from browser_support import patience
    from playwright.sync_api import expect

    root, _ = site
    with lite_check.serve(root) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        asked, left = lite_check.watch(context, base, offline=True)
        try:
            page = lite_check.open_notebook(context, base, "probe", patience(120_000))
            probe = nbformat.read(root / "lite" / "files" / "probe.ipynb", as_version=4)
            assert lite_check.first_exercise(probe) == len(PROBE)
            assert lite_check.run_until_exercise(page, probe, patience(120_000)) == []
            cells = page.locator(".jp-Notebook .jp-Cell")
            version = lite.pinned(lite.SITE_WHEELS)["ipywidgets"]
            expect(cells.nth(1).locator(".jp-OutputArea-output")).to_contain_text(f"ipywidgets {version} from")
            assert any(url.startswith(base + "lite/pypi/ipywidgets-") for url in asked), "ipywidgets came from elsewhere"
            expect(cells.nth(len(PROBE)).locator(".jp-OutputArea-output")).to_have_count(0)  # the exercise: not run
            answer = page.locator(".widget-html-content").filter(has_text="Python")
            expect(answer).to_have_text("Python has not answered yet")
            page.locator(".widget-slider .noUi-handle").focus()
            page.keyboard.press("ArrowRight")
            expect(page.locator(".widget-slider .widget-readout")).to_have_text("4")
            expect(answer).to_have_text("Python says: 4 squared is 16")
            # what the site's pages tell a student: the edit (here, the outputs) is saved in this browser ...
            page.locator(".jp-Notebook").click()
            page.keyboard.press("Control+s")
            expect(page.locator(".jp-mod-dirty")).to_have_count(0, timeout=patience(30_000))
            page.close()
            page = lite_check.open_notebook(context, base, "probe", patience(120_000), kernel=False)
            expect(page.locator(".jp-Notebook .jp-Cell").nth(1).locator(".jp-OutputArea-output")).to_contain_text(
                f"ipywidgets {version} from")
            page.close()
            # ... and deleting it in the file browser brings the published version back
            page = context.new_page()
            page.goto(base + "lite/lab/index.html")
            item = page.locator(".jp-DirListing-item", has_text="probe.ipynb")
            item.click(button="right", timeout=patience(120_000))
            page.locator(".lm-Menu-item", has_text="Delete").first.click()
            page.get_by_role("dialog").get_by_role("button", name="Delete").click()
            expect(page.get_by_role("dialog")).to_have_count(0)
            # the file browser's tab stays open, as a student's would: closing it at once can abort the browser's
            # storage write the delete has just begun (a CI run saw the saved outputs again)
            browser_tab = page
            page = lite_check.open_notebook(context, base, "probe", patience(120_000))  # whole: no output shown
            browser_tab.close()
            cells = page.locator(".jp-Notebook .jp-Cell")
            expect(cells).to_have_count(len(PROBE) + 1)
            expect(cells.locator(".jp-OutputArea-output")).to_have_count(0)
        finally:
            context.close()
    assert not left, f"requests left the machine: {left[:5]}"
