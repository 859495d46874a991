"""Browser tests: the sliders in a real JupyterLab, driven by headless Chromium.

A JupyterLab server runs on a free loopback port over a temporary folder with
one small notebook per slider and copies of the course notebooks (COURSE below:
add a line when a notebook gets a slider). Playwright opens each, as a lecturer
would at a 1280 x 720 projector size: Restart Kernel and Run All, then every
widget's figure must be drawn (an image, not blank, equal to the kernel's) and
every slider, moved by keyboard and by drag, must show the text its pure state
function gives (computed in the same kernel). Notebook 01 is run five times, to
catch a race between the widget callbacks and the cells still running. The
live slideshow (jupyterlab-deck on the lecture versions) and the offline decks
of `make slides` are tested here too.
Screenshots of each widget at 1280 x 720 go to build/screenshots/ for review.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import base64
import contextlib
import hashlib
import io
import json

import nbformat
import pytest
from jupyter_client import BlockingKernelClient
from PIL import Image, ImageStat
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lecture  # noqa: E402  (tools/lecture.py: the lecture versions the slideshow presents)
import slides  # noqa: E402  (tools/slides.py: the offline decks)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PANEL = ".widget-html pre"  # every slider prints its numbers in an HTML panel

pytestmark = pytest.mark.slow
PROJECTOR = {"width": 1280, "height": 720}
SCREENSHOTS = ROOT / "build" / "screenshots"

# The course notebooks with sliders: notebook -> (number of explorers it shows, Restart-and-Run-All rounds).
# A notebook that gets a slider (04-06) adds its line; test_every_notebook_with_a_widget_is_listed checks.
COURSE = {
    "01_metrics.ipynb": (1, 5),
    "02_roc_by_hand.ipynb": (1, 1),
    "03_cross_validation.ipynb": (1, 1),
    "04_oversampling.ipynb": (1, 1),
    "05_learning_curves.ipynb": (1, 1),
}
RUN_ALL_SECONDS = 240

NOTEBOOKS = {
    "fbeta.ipynb": ["from helpers.widgets import fbeta_explorer\nfbeta_explorer()"],
    "threshold.ipynb": ["from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES\n"
                        "from helpers.widgets import threshold_explorer\n"
                        "threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.5)"],
    "kfold.ipynb": ["from sklearn.datasets import load_breast_cancer\n"
                    "from sklearn.linear_model import LogisticRegression\n"
                    "from sklearn.pipeline import make_pipeline\n"
                    "from sklearn.preprocessing import StandardScaler\n"
                    "from helpers.widgets import cv_spread_explorer\n"
                    "X, y = load_breast_cancer(return_X_y=True)\n"
                    "cv_spread_explorer(make_pipeline(StandardScaler(), LogisticRegression()), X, y)"],
    # notebook 05: the complexity slider (same data as _complexity_text below)
    "complexity.ipynb": ["import numpy as np\n"
                         "from helpers.curves import noisy_sample\n"
                         "from helpers.widgets import complexity_explorer\n"
                         "def f(x):\n    return np.sin(2 * np.pi * x)\n"
                         "x, y = noisy_sample(f, 30, 0.3, random_state=0)\n"
                         "x_val, y_val = noisy_sample(f, 200, 0.3, random_state=1)\n"
                         "complexity_explorer(x, y, x_val, y_val, degree=1, noise=0.09)"],
    # a concept check (every notebook has some; helpers.quiz gives the feedback)
    "concept.ipynb": ["from helpers.widgets import concept_check\nconcept_check('01.imbalance')"],
    # ---- oversampling (notebook 04)
    "smote.ipynb": ["from helpers.resampling import toy_imbalanced\n"
                    "from helpers.widgets import smote_explorer\n"
                    "X, y = toy_imbalanced(random_state=0)\n"
                    "smote_explorer(X, y, random_state=0)"],
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serve_lab(root: Path):
    """A JupyterLab server over ``root`` with the test notebooks, the course notebooks and a lecture version;
    yields ``(base_url, token, root)``. Also used by bench/bench_browser.py."""
    for name, sources in NOTEBOOKS.items():
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nbformat.write(notebook, root / name)
    for name in COURSE:
        shutil.copy(ROOT / "notebooks" / name, root / name)
    for name in COURSE:  # the lecture versions the live slideshow presents
        lecture.write_lecture(ROOT / "notebooks" / name, root / "lecture")
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".config"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime")}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.expose_app_in_browser=True"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("JupyterLab did not start within 60 s")
                time.sleep(0.5)
        yield base, token, root
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a folder holding the test notebooks."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    root = tmp_path_factory.mktemp("lab")
    with serve_lab(root) as served:
        yield served
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    expect.set_options(timeout=60_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def open_and_run(browser, lab, name, ready_text="ranks first", ready=PANEL):
    base, token, _ = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    # a workspace of its own per notebook, so tabs left open by another test do not interfere
    page.goto(f"{base}/lab/workspaces/{Path(name).stem}/tree/{name}?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Control+Enter")  # run the (single) selected cell
    expect(page.locator(".widget-slider .noUi-handle").first).to_be_visible()
    expect(page.locator(ready).last).to_contain_text(ready_text)
    return page


def drag_handle(page, handle_index: int, fraction: float) -> None:
    """Drag a slider's handle to a fraction (0 = left end, 1 = right end) of its track."""
    track = page.locator(".widget-slider .noUi-target").nth(handle_index).bounding_box()
    handle = page.locator(".widget-slider .noUi-handle").nth(handle_index).bounding_box()
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"] + fraction * track["width"], handle["y"] + handle["height"] / 2, steps=10)
    page.mouse.up()


def test_fbeta_slider_moves_the_ranking(browser, lab):
    page = open_and_run(browser, lab, "fbeta.ipynb")
    output = page.locator(PANEL).last
    expect(output).to_contain_text("beta = 1.00")
    expect(output).to_contain_text("ranks first: A (high recall)")
    drag_handle(page, 0, 0.0)  # beta at its minimum, 0.1: precision dominates
    expect(output).to_contain_text(re.compile(r"beta = 0\.[1-3]\d \|"))
    expect(output).to_contain_text("ranks first: B (high precision)")
    drag_handle(page, 0, 1.0)  # beta at its maximum, 5: recall dominates
    expect(output).to_contain_text(re.compile(r"beta = (4\.[5-9]\d|5\.00) \|"))
    expect(output).to_contain_text("ranks first: A (high recall)")
    assert page.locator(".widget-image").count() >= 1, "the iso-F figure is drawn"
    page.close()


def test_threshold_slider_moves_every_number(browser, lab):
    page = open_and_run(browser, lab, "threshold.ipynb", ready_text="threshold")
    panel = page.locator(PANEL).last
    # the 10-tuple example at t = 0.5: every positive found, one negative cleared
    expect(panel).to_contain_text("TP 5  FP 4  FN 0  TN 1")
    expect(panel).to_contain_text("cost-optimal  t = 0.550")
    image_before = page.locator(".widget-image").last.get_attribute("src")
    drag_handle(page, 0, 1.0)  # threshold 0.9: only the top score is predicted positive
    expect(panel).to_contain_text("threshold     0.900")
    expect(panel).to_contain_text("TP 1  FP 0  FN 4  TN 5")
    expect(panel).to_contain_text("precision     1.000")
    assert page.locator(".widget-image").last.get_attribute("src") != image_before, "the figure is redrawn"
    cost_fn = page.locator(".widget-text input").nth(1)
    cost_fn.fill("10")
    cost_fn.press("Enter")
    expect(panel).to_contain_text("1 x FP + 10 x FN")
    expect(panel).to_contain_text("total cost    40.0")
    page.close()


def test_k_slider_recomputes_the_spread(browser, lab):
    page = open_and_run(browser, lab, "kfold.ipynb", ready_text="fits")
    output = page.locator(PANEL).last
    expect(output).to_contain_text("k = 5 | 5 repeats x 5 folds = 25 fits")
    drag_handle(page, 0, 1.0)  # k to its largest value, 20
    expect(output).to_contain_text("k = 20 | 5 repeats x 20 folds = 100 fits")
    drag_handle(page, 1, 0.0)  # repeats to its smallest value, 2
    expect(output).to_contain_text("k = 20 | 2 repeats x 20 folds = 40 fits")
    assert page.locator(".widget-image").count() >= 1, "the spread figure is drawn"
    page.close()


# ---- learning curves (notebook 05)
def _complexity_text(degree: int) -> str:
    """What the complexity slider must print at ``degree``, from its pure state function."""
    import numpy as np

    from helpers.curves import complexity_state, describe_complexity_state, noisy_sample

    def f(x):
        return np.sin(2 * np.pi * x)

    x, y = noisy_sample(f, 30, 0.3, random_state=0)
    x_val, y_val = noisy_sample(f, 200, 0.3, random_state=1)
    return describe_complexity_state(complexity_state(degree, x, y, x_val, y_val))


def test_complexity_slider_prints_its_state(browser, lab):
    page = open_and_run(browser, lab, "complexity.ipynb", ready_text="degree 1 |")
    output = page.locator(PANEL).last
    expect(output).to_have_text(_complexity_text(1))
    image_before = page.locator(".widget-image").last.get_attribute("src")
    drag_handle(page, 0, 1.0)  # the largest degree, 15: overfits
    expect(output).to_have_text(_complexity_text(15))
    assert "overfits" in _complexity_text(15) and _complexity_text(15) != _complexity_text(1)
    assert page.locator(".widget-image").last.get_attribute("src") != image_before, "the figure is redrawn"
    page.close()


# --------------------------------------------------------------------------- the course notebooks
# Run in the notebook's own kernel (a second client): the explorers in creation order, and for one of
# them the text its pure state function gives for the values the browser shows.
KERNEL_HELPERS = '''
import hashlib as _course_hashlib, json as _course_json
from ipywidgets.widgets.widget import _instances as _course_instances
from helpers.widgets import Explorer as _CourseExplorer, ThresholdExplorer as _CourseThreshold

def _course_explorers():
    return [w for w in list(_course_instances.values()) if isinstance(w, (_CourseExplorer, _CourseThreshold))]

def _course_value(control, shown):
    if hasattr(control, "_options_labels"):
        return dict(zip(control._options_labels, control._options_values))[shown]
    return type(control.value)(shown)

def _course_expected(index, shown):
    explorer = _course_explorers()[index]
    values = {name: _course_value(control, shown[name]) if name in shown else control.value
              for name, control in explorer.controls.items()}
    return explorer._describe(explorer._state(**values))

def _course_synced(index, shown):
    explorer = _course_explorers()[index]
    return all(_course_value(control, shown[name]) == control.value for name, control in explorer.controls.items())

def _course_describe(index):
    explorer = _course_explorers()[index]
    return {"controls": [[name, "slider" if "Slider" in type(control).__name__ else "box"]
                         for name, control in explorer.controls.items()],
            "image_sha256": _course_hashlib.sha256(explorer.image.value).hexdigest()}
'''


class Kernel:
    """A second client of the kernel a notebook runs in (the connection file is in the lab's runtime folder)."""

    def __init__(self, lab, name):
        base, token, root = lab
        sessions = json.loads(urllib.request.urlopen(f"{base}/api/sessions?token={token}", timeout=10).read())
        kernel_id = next(s["kernel"]["id"] for s in sessions if s["path"] == name)
        self.client = BlockingKernelClient(connection_file=str(root / ".runtime" / f"kernel-{kernel_id}.json"))
        self.client.load_connection_file()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        self.run(KERNEL_HELPERS)

    def run(self, code: str) -> str:
        out, errors = [], []

        def hook(message):
            content = message["content"]
            if message["msg_type"] == "stream":
                out.append(content["text"])
            elif message["msg_type"] == "error":
                errors.append("\n".join(content["traceback"]))

        self.client.execute_interactive(code, output_hook=hook, timeout=60, store_history=False)
        assert not errors, errors
        return "".join(out)

    def value(self, expression: str):
        return json.loads(self.run(f"print(_course_json.dumps({expression}))"))

    def close(self):
        self.client.stop_channels()


def restart_and_run_all(page) -> float:
    """Kernel > Restart Kernel and Run All Cells, as a lecturer would; return the seconds until every cell ran."""
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    page.get_by_role("menuitem", name="Kernel").click()
    page.get_by_text("Restart Kernel and Run All Cells…").click()
    start = time.perf_counter()
    page.locator(".jp-Dialog .jp-mod-accept").click()
    page.wait_for_function(  # some cell waits or runs ...
        "() => [...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*'))",
        timeout=30_000)
    page.wait_for_function(  # ... until none does
        "() => [...document.querySelectorAll('.jp-InputPrompt')].every(e => !e.textContent.includes('*'))",
        timeout=RUN_ALL_SECONDS * 1000, polling=200)
    seconds = time.perf_counter() - start
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    return seconds


def open_course_notebook(browser, lab, name, workspace):
    base, token, _ = lab
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(f"{base}/lab/workspaces/{workspace}/tree/{name}?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    return page


def explorers(page):
    """Each explorer's output area (controls, figure and number panel), in notebook order."""
    return page.locator(".jp-OutputArea-output:has(.widget-image)")


def shown_values(view, controls) -> dict:
    """What the browser shows on each control: a slider's readout, a number box's value."""
    sliders, boxes = view.locator(".widget-slider .widget-readout"), view.locator(".widget-text input")
    shown, counts = {}, {"slider": 0, "box": 0}
    for name, kind in controls:
        element = (sliders if kind == "slider" else boxes).nth(counts[kind])
        shown[name] = (element.text_content() if kind == "slider" else element.input_value()).strip()
        counts[kind] += 1
    return shown


def image_bytes(view) -> bytes:
    data = view.locator(".widget-image").first.evaluate(
        """async img => { const buffer = await (await fetch(img.src)).arrayBuffer();
                          let s = ''; new Uint8Array(buffer).forEach(b => s += String.fromCharCode(b));
                          return btoa(s); }""")
    return base64.b64decode(data)


def assert_drawn(png: bytes, where: str) -> None:
    """An image is present and not blank: a real figure has many colours and plenty of non-white pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width > 200 and image.height > 150, f"{where}: the figure is {image.size}"
    grey = image.convert("L")
    inked = sum(grey.histogram()[:235]) / (image.width * image.height)
    assert inked > 0.03, f"{where}: the figure is blank ({inked:.1%} of pixels drawn)"
    assert len(image.getcolors(maxcolors=1 << 20) or []) > 30, f"{where}: the figure has hardly any colours"
    assert max(ImageStat.Stat(grey).stddev) > 10, f"{where}: the figure is flat"


def untimed(text: str) -> str:
    """A panel's text without its wall-clock timings ("fitting took 0.42 s"), the only part that is not pure."""
    return re.sub(r"\d+(\.\d+)? s\b", "<t> s", text)


def wait_for_text(view, kernel, index, controls, want: dict | None = None, timeout=30.0) -> str:
    """Wait until the controls show ``want`` (if given) and the panel shows what the pure function
    gives for the values shown; return that text."""
    deadline = time.monotonic() + timeout
    while True:
        shown = shown_values(view, controls)
        expected = untimed(kernel.value(f"_course_expected({index}, {json.dumps(shown)})"))
        panel = untimed(view.locator(PANEL).last.text_content())
        settled = want is None or all(shown[k] == v for k, v in want.items())
        if panel == expected and settled and kernel.value(f"_course_synced({index}, {json.dumps(shown)})"):
            time.sleep(0.3)  # let the kernel's echo of the value arrive before the next move
            return panel
        if time.monotonic() > deadline:
            assert settled, f"explorer {index}: the controls show {shown}, not {want}"
            assert panel == expected, f"explorer {index} at {shown}: the panel shows stale or wrong numbers"
        time.sleep(0.2)


def wait_for_image(view, sha256: str, timeout=30.0) -> bytes:
    deadline = time.monotonic() + timeout
    while True:
        png = image_bytes(view)
        if hashlib.sha256(png).hexdigest() == sha256 or time.monotonic() > deadline:
            return png
        time.sleep(0.2)


def handle_position(slider) -> float:
    """Where a slider's handle sits on its track: 0 at the left end, 1 at the right end."""
    track = slider.locator(".noUi-target").bounding_box()
    handle = slider.locator(".noUi-handle").bounding_box()
    return (handle["x"] + handle["width"] / 2 - track["x"]) / track["width"]


def check_explorer(page, kernel, index, name, move: bool) -> None:
    view = explorers(page).nth(index)
    view.scroll_into_view_if_needed()
    described = kernel.value(f"_course_describe({index})")
    controls = described["controls"]
    start_text = wait_for_text(view, kernel, index, controls)
    start_png = wait_for_image(view, described["image_sha256"])
    assert hashlib.sha256(start_png).hexdigest() == described["image_sha256"], \
        f"{name} explorer {index}: the browser shows another figure than the kernel drew"
    assert_drawn(start_png, f"{name} explorer {index}")
    for part in (view.locator(".widget-image").first, view.locator(PANEL).last):
        right = part.bounding_box()["x"] + part.bounding_box()["width"]
        assert right <= PROJECTOR["width"], f"{name} explorer {index}: cut off on the right at 1280 px ({right:.0f})"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=SCREENSHOTS / f"{Path(name).stem}-explorer{index}.png")  # for review, at 1280 x 720
    if not move:
        return
    sliders = view.locator(".widget-slider")
    for s in range(sliders.count()):
        readout = sliders.nth(s).locator(".widget-readout")
        before = readout.text_content()
        handle = sliders.nth(s).locator(".noUi-handle")
        there, back = ("ArrowLeft", "ArrowRight") if handle_position(sliders.nth(s)) > 0.95 else ("ArrowRight", "ArrowLeft")
        handle.focus()
        page.keyboard.press(there)
        expect(readout).not_to_have_text(before)
        moved = wait_for_text(view, kernel, index, controls)
        assert moved != start_text, f"{name} explorer {index}: the numbers did not change with slider {s}"
        page.keyboard.press(back)
        expect(readout).to_have_text(before)
        assert wait_for_text(view, kernel, index, controls, want=shown_values(view, controls)) == start_text
        # back at the start: the figure is drawn again, pixel for pixel the first one
        assert image_bytes(view) == wait_for_image(view, described["image_sha256"]) == start_png, \
            f"{name} explorer {index}: the first figure differs from a redraw at the same values"
    for s in range(sliders.count()):  # then drag each slider (the keyboard left them at the start)
        readout, handle = sliders.nth(s).locator(".widget-readout"), sliders.nth(s).locator(".noUi-handle")
        before = readout.text_content()
        track = sliders.nth(s).locator(".noUi-target").bounding_box()
        page.mouse.move(handle.bounding_box()["x"] + 4, handle.bounding_box()["y"] + 4)
        page.mouse.down()
        target = 0.15 if handle_position(sliders.nth(s)) > 0.5 else 0.85
        page.mouse.move(track["x"] + target * track["width"], track["y"] + track["height"] / 2, steps=8)
        page.mouse.up()
        expect(readout).not_to_have_text(before)
        wait_for_text(view, kernel, index, controls)
        assert_drawn(image_bytes(view), f"{name} explorer {index} after a drag")


COURSE_RUNS = [(name, run) for name, (_, runs) in COURSE.items() for run in range(runs)]


@pytest.mark.parametrize("name, run", COURSE_RUNS, ids=[f"{n[:2]}-run{r + 1}" for n, r in COURSE_RUNS])
def test_course_notebook_restart_and_run_all(browser, lab, name, run):
    page = open_course_notebook(browser, lab, name, f"course-{name[:2]}-{run}")
    seconds = restart_and_run_all(page)
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0, \
        f"{name}: a cell wrote to stderr (a warning or an error) during Run All"
    expected_count, _ = COURSE[name]
    assert explorers(page).count() == expected_count, f"{name}: expected {expected_count} explorer(s)"
    kernel = Kernel(lab, name)
    try:
        assert len(kernel.value("[type(e).__name__ for e in _course_explorers()]")) == expected_count
        for index in range(expected_count):
            check_explorer(page, kernel, index, name, move=run == 0)
    finally:
        kernel.close()
    print(f"{name}: Run All took {seconds:.1f} s (run {run + 1})")
    page.close()


def test_every_notebook_with_a_widget_is_listed():
    """A course notebook that shows a widget must be in COURSE, with its number of explorers."""
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        views = sum("application/vnd.jupyter.widget-view+json" in output.get("data", {})
                    for cell in notebook.cells
                    if "concept_check(" not in cell.source and "tqdm(" not in cell.source  # explorers only, no
                    for output in cell.get("outputs", []))  # concept check, no progress bar (closed when done)
        if views:
            assert path.name in COURSE, f"add {path.name} to COURSE in tests/test_browser.py"
            assert COURSE[path.name][0] == views, f"{path.name} shows {views} widget(s)"


def test_no_news_pop_up(browser, lab):
    """`make install` ships a settings override: JupyterLab does not ask about news."""
    page = open_course_notebook(browser, lab, "fbeta.ipynb", "news")
    page.wait_for_timeout(3000)
    assert page.locator(".jp-toast-message, .Toastify__toast").filter(has_text="news").count() == 0
    settings = json.loads((Path(sys.prefix) / "share/jupyter/lab/settings/overrides.json").read_text())
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    page.close()


# --------------------------------------------------------------------------- a concept check
def test_concept_check_explains_a_wrong_answer_then_confirms_the_right_one(browser, lab):
    """Answer a concept check in JupyterLab: the feedback is helpers.quiz.check_answer's, word for word."""
    from helpers.quiz import CHECKS, check_answer

    key = "01.imbalance"
    check = CHECKS[key]
    wrong = next(i for i in range(len(check.options)) if i != check.answer)
    base, token, _ = lab
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(f"{base}/lab/workspaces/concept/tree/concept.ipynb?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Control+Enter")
    feedback = page.locator(".concept-feedback")
    expect(feedback).to_have_text(check_answer(key, None)["feedback"])  # nothing picked yet
    expect(page.locator(".jp-OutputArea-output")).to_contain_text(check.question)
    options = page.locator(".widget-radio-box label")
    expect(options).to_have_count(len(check.options))
    options.nth(wrong).click()
    expected = check_answer(key, wrong)
    assert not expected["correct"] and check.why[wrong] in expected["feedback"]
    expect(feedback).to_have_text(expected["feedback"])  # why this option is wrong, and the right answer
    assert "Not quite." in feedback.text_content() and check.why[wrong] in feedback.text_content()
    options.nth(check.answer).click()
    expect(feedback).to_have_text(check_answer(key, check.answer)["feedback"])
    assert feedback.text_content().startswith("Right.")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".jp-OutputArea-output").first.screenshot(path=SCREENSHOTS / "concept-check.png")
    page.close()


# --------------------------------------------------------------------------- the live slideshow (jupyterlab-deck)
ACTIVATE = "i => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i; }"
DECK = "command => window.jupyterapp.commands.execute(command)"


def deck_show_explorer(page, index: int) -> None:
    """In the slideshow, go to the slide of the notebook's explorer ``index`` as a lecturer does (select a cell
    of it: jupyterlab-deck shows the active cell's slide); deck:forward leaves it for the next section's slide,
    deck:back goes back to the start of the slider's section (its heading shows)."""
    explorer = explorers(page).nth(index)
    cell, heading = page.evaluate("""i => {
        const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
        const at = cells.map((c, k) => c.querySelector('.widget-image') ? k : -1).filter(k => k >= 0)[i];
        let h = at; while (h > 0 && !cells[h].querySelector('h2')) h -= 1;
        return [at, h]; }""", index)
    page.evaluate(ACTIVATE, cell)
    expect(explorer).to_be_visible()
    page.evaluate(DECK, "deck:forward")
    expect(explorer).not_to_be_visible()
    page.evaluate(DECK, "deck:back")
    expect(page.locator(".jp-Notebook .jp-Cell").nth(heading)).to_be_visible()
    page.evaluate(ACTIVATE, cell)
    expect(explorer).to_be_visible()


@pytest.mark.parametrize("name", list(COURSE), ids=lambda n: n[:2])
def test_live_slideshow_sliders_follow_the_pure_functions(browser, lab, name):
    """The lecture version in JupyterLab with jupyterlab-deck: Run All, deck:start, go to each slider's slide,
    move every slider by keyboard and by drag: the figure and numbers are its pure state function's (in the
    same kernel), and a solution never shows."""
    path = f"lecture/{name}"
    page = open_course_notebook(browser, lab, path, f"deck-{name[:2]}")
    restart_and_run_all(page)
    assert "BEGIN SOLUTION" not in page.locator(".jp-Notebook").text_content()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # the speaker notes stay off the projected slide: the first section's slide shows its heading, not its notes
    notes = page.locator(".jp-MarkdownCell").filter(has_text="Speaker notes:")
    assert notes.count() >= 5, "the lecture version carries speaker notes"
    first = page.evaluate("() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex(c => c.querySelector('h2'))")
    page.evaluate(DECK, "deck:start")
    expect(page.locator("body[data-jp-deck-mode='presenting']")).to_have_count(1)
    page.evaluate(ACTIVATE, first)
    expect(page.locator(".jp-Notebook .jp-Cell").nth(first)).to_be_visible()
    expect(notes.first).not_to_be_visible()
    page.screenshot(path=SCREENSHOTS / f"live-deck-{name[:2]}-first-section.png")
    kernel = Kernel(lab, path)
    try:
        for index in range(COURSE[name][0]):
            deck_show_explorer(page, index)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SCREENSHOTS / f"live-deck-{name[:2]}-explorer{index}.png")
            check_explorer(page, kernel, index, f"live-deck-{name}", move=True)
            assert page.locator("body[data-jp-deck-mode='presenting']").count() == 1, "the keys left the slideshow"
            expect(explorers(page).nth(index)).to_be_visible()  # still on the slider's slide
    finally:
        kernel.close()
        page.evaluate("() => window.jupyterapp.commands.execute('deck:stop')")
        page.close()


# --------------------------------------------------------------------------- the offline decks
@pytest.fixture(scope="module")
def decks(course_decks):
    """The offline decks of `make slides` of the notebooks with sliders (built once per run: tests/conftest.py)."""
    return [course_decks[Path(name).stem] for name in COURSE]


def block_network(page) -> list:
    """Abort every request that is not a file; return the list the blocked addresses are added to."""
    network = []

    def block(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            network.append(route.request.url)
            route.abort()

    page.route("**/*", block)
    page.on("requestfailed", lambda request: network.append(request.url))
    return network


def test_offline_deck_shows_slides_and_advances(browser, decks):
    """Every request that is not a file is blocked: the deck still shows as slides and ArrowRight advances."""
    for deck in decks:
        assert deck.stat().st_size <= slides.MAX_DECK_MB * 1e6, f"{deck.name} is over {slides.MAX_DECK_MB} MB"
        page = browser.new_page(viewport=PROJECTOR)
        network = block_network(page)
        page.goto(deck.as_uri())
        expect(page.locator(".reveal.ready")).to_have_count(1, timeout=30_000)
        assert network == [], f"{deck.name} asked the network for {network}"
        present = page.locator(".reveal .slides > section.present")
        expect(present).to_have_count(1)
        assert page.locator(".reveal .slides > section").count() > 10, "one long page instead of slides"
        box = present.bounding_box()
        assert box["width"] <= PROJECTOR["width"] + 1 and box["height"] <= PROJECTOR["height"] + 1
        first = page.evaluate("() => location.hash")
        page.keyboard.press("ArrowRight")
        expect(page).not_to_have_url(re.compile(re.escape(first) + "$") if first else re.compile(r"#/$"))
        assert page.locator(".reveal .slides > section.present").text_content() != ""
        # every explorer renders from the files next to the deck: its sliders over pre-rendered frames
        expect(page.locator(".course-deck-explorer")).to_have_count(COURSE[deck.name.replace(".slides.html", ".ipynb")][0])
        page.close()


# Run in a kernel that executed the instructor notebook (no deck mode): what the live explorer shows at the
# values a deck's readouts show.
REFERENCE_HELPERS = KERNEL_HELPERS + '''
import io as _course_io
from PIL import Image as _CoursePIL

def _course_at(index, shown):
    explorer = _course_explorers()[index]
    for name, control in explorer.controls.items():
        if name in shown:
            control.value = _course_value(control, shown[name])
    pixels = _CoursePIL.open(_course_io.BytesIO(explorer.image.value)).convert("RGB")
    return {"pixels": _course_hashlib.sha256(pixels.tobytes()).hexdigest(), "size": list(pixels.size),
            "panel": explorer._describe(explorer.state), "alt": explorer.alt}
'''


@contextlib.contextmanager
def reference_kernel(path: Path):
    """A kernel that ran the instructor notebook ``path`` as a lecturer would (no deck mode); yields a function
    that evaluates an expression there and returns its JSON value."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    with client.setup_kernel(env={k: v for k, v in os.environ.items() if k != slides.DECK_ENV}):
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        kernel = BlockingKernelClient()
        kernel.load_connection_info(client.km.get_connection_info())
        kernel.start_channels()
        out = []

        def hook(message):
            if message["msg_type"] == "stream":
                out.append(message["content"]["text"])

        def run(code):
            out.clear()
            reply = kernel.execute_interactive(code, timeout=300, store_history=False, output_hook=hook)
            assert reply["content"]["status"] == "ok", reply["content"]
            return "".join(out)

        try:
            run(REFERENCE_HELPERS)
            yield lambda expression: json.loads(run(f"print(_course_json.dumps({expression}))"))
        finally:
            kernel.stop_channels()


REVEAL = "require('vendor/node_modules/reveal.js/dist/reveal.js')"
# The frame a deck explorer shows: the visible image and number panel.
VISIBLE_FRAME = """view => {
  const visible = [...view.querySelectorAll('.widget-image')].filter(e => e.offsetParent !== null);
  const panels = [...view.querySelectorAll('.widget-html pre')].filter(e => e.offsetParent !== null);
  return {count: visible.length, src: visible.length ? visible[0].src : null,
          title: visible.length ? visible[0].getAttribute('title') : null,
          panel: panels.length ? panels[0].textContent : null};
}"""
# Armed before a key press: at the first animation frame after the keydown, which frame is visible.
ARM_FRAME_CHECK = """view => { window.__courseFrame = new Promise(resolve => {
  window.addEventListener('keydown', () => {
    const start = performance.now();
    requestAnimationFrame(() => {
      const visible = [...view.querySelectorAll('.widget-image')].filter(e => e.offsetParent !== null);
      const panels = [...view.querySelectorAll('.widget-html pre')].filter(e => e.offsetParent !== null);
      resolve({ms: performance.now() - start, src: visible.length === 1 ? visible[0].src : null,
               complete: visible.length === 1 && visible[0].complete && visible[0].naturalWidth > 0,
               panel: panels.length ? panels[0].textContent : null});
    });
  }, {once: true, capture: true});
}); }"""


def deck_frame(view) -> tuple[bytes, str, str]:
    """The PNG, number panel text and image title (text alternative) the deck explorer shows now."""
    shown = view.evaluate(VISIBLE_FRAME)
    assert shown["count"] == 1, f"{shown['count']} frames visible at once"
    data = view.evaluate("""async (view, src) => { const buffer = await (await fetch(src)).arrayBuffer();
        let s = ''; new Uint8Array(buffer).forEach(b => s += String.fromCharCode(b)); return btoa(s); }""", shown["src"])
    return base64.b64decode(data), shown["panel"], shown["title"]


def pixels_sha256(png: bytes) -> tuple[str, list]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(image.tobytes()).hexdigest(), list(image.size)


def deck_readouts(view) -> dict:
    labels = view.locator(".widget-slider .widget-label").all_text_contents()
    return dict(zip(labels, view.locator(".widget-slider .widget-readout").all_text_contents()))


def check_deck_frame(view, reference, index, names, where) -> bytes:
    """The deck explorer ``index`` shows the live explorer's figure (same pixels), numbers and text alternative
    at the values its readouts show; return the PNG."""
    shown = {names[label]: value for label, value in deck_readouts(view).items()}
    png, panel, title = deck_frame(view)
    expected = reference(f"_course_at({index}, {json.dumps(shown)})")
    assert untimed(panel) == untimed(expected["panel"]), f"{where} at {shown}: the panel differs"
    assert pixels_sha256(png) == (expected["pixels"], expected["size"]), f"{where} at {shown}: the figure differs"
    assert untimed(title) == untimed(expected["alt"]), f"{where} at {shown}: the text alternative differs"
    return png


def move_back(page, slider, label: str) -> None:
    """Arrow keys on the focused handle until the slider's readout shows ``label`` (a number) again."""
    readout, handle = slider.locator(".widget-readout"), slider.locator(".noUi-handle")
    handle.focus()
    for _ in range(400):
        now = readout.text_content()
        if now == label:
            return
        page.keyboard.press("ArrowLeft" if float(now) > float(label) else "ArrowRight")
        expect(readout).not_to_have_text(now)
    expect(readout).to_have_text(label)


@pytest.mark.parametrize("name", list(COURSE), ids=lambda n: n[:2])
def test_deck_sliders_show_the_live_explorers_frames(browser, decks, name):
    """Every slider of the deck, network blocked: arrow keys on the focused handle (the slide stays) and a
    drag; each time the visible figure, numbers and text alternative equal the live explorer's at the values
    the readouts show (a kernel that ran the notebook), the frame is there at the first animation frame after
    the key press, and moving back shows the first picture again."""
    deck = next(d for d in decks if d.name == name.replace(".ipynb", ".slides.html"))
    page = browser.new_page(viewport=PROJECTOR)
    network = block_network(page)
    page.goto(deck.as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=30_000)
    views = page.locator(".course-deck-explorer")
    expect(views).to_have_count(COURSE[name][0])
    with reference_kernel(ROOT / "notebooks" / name) as reference:
        for index in range(views.count()):
            view = views.nth(index)
            expect(view.locator(".widget-slider .noUi-handle").first).to_be_attached()
            indices = view.evaluate(f"v => {REVEAL}.getIndices(v.closest('.slides section:not(.stack)'))")
            page.evaluate(f"i => {REVEAL}.slide(i.h, i.v)", indices)
            expect(view.locator(".widget-slider").first).to_be_visible()
            controls = reference(f"_course_describe({index})")["controls"]
            sliders = view.locator(".widget-slider")
            labels = sliders.locator(".widget-label").all_text_contents()
            names = dict(zip(labels, [n for n, kind in controls if kind == "slider"]))
            where = f"{name} explorer {index}"
            first = check_deck_frame(view, reference, index, names, where)
            assert_drawn(first, where)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SCREENSHOTS / f"deck-{name[:2]}-explorer{index}.png")
            for s in range(sliders.count()):
                slider = sliders.nth(s)
                handle, readout = slider.locator(".noUi-handle"), slider.locator(".widget-readout")
                label_id = handle.get_attribute("aria-labelledby")
                assert label_id and page.locator(f"#{label_id}").text_content() == labels[s], \
                    f"{where}: slider {labels[s]} has no accessible name"
                start = readout.text_content()
                hash_before = page.evaluate("() => location.hash")
                handle.focus()
                keys = ("ArrowLeft", "ArrowLeft") if handle_position(slider) > 0.95 else ("ArrowRight", "ArrowRight")
                for key in keys:  # two steps by keyboard, each checked at the next animation frame
                    before = readout.text_content()
                    view.evaluate(ARM_FRAME_CHECK)
                    page.keyboard.press(key)
                    at_frame = page.evaluate("() => window.__courseFrame")
                    expect(readout).not_to_have_text(before)
                    assert page.evaluate("() => location.hash") == hash_before, f"{where}: {key} changed the slide"
                    png, panel, _ = deck_frame(view)
                    assert at_frame["complete"] and at_frame["panel"] == panel, \
                        f"{where}: the new frame was not shown at the first animation frame after {key}"
                    check_deck_frame(view, reference, index, names, f"{where} after {key}")
                # a drag to the other side of the track
                box, track = handle.bounding_box(), slider.locator(".noUi-target").bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.down()
                target = 0.2 if handle_position(slider) > 0.5 else 0.8
                page.mouse.move(track["x"] + target * track["width"], box["y"] + box["height"] / 2, steps=8)
                page.mouse.up()
                assert page.evaluate("() => location.hash") == hash_before, f"{where}: a drag changed the slide"
                check_deck_frame(view, reference, index, names, f"{where} after a drag")
                move_back(page, slider, start)
                assert deck_frame(view)[0] == first, f"{where}: back at {start}, not the first picture"
    assert network == [], f"{deck.name} asked the network for {network}"
    page.close()


# ---- oversampling (notebook 04)
def test_smote_slider_redraws_the_synthetic_points(browser, lab):
    from helpers.resampling import describe_smote_state, smote_state, toy_imbalanced
    from helpers.widgets import K_NEIGHBORS_GRID, SMOTE_RATIO_GRID

    X, y = toy_imbalanced(random_state=0)

    def expected(k, ratio):  # the panel's text, whitespace collapsed as the browser reports it
        return " ".join(describe_smote_state(smote_state(X, y, k, ratio, random_state=0)).split())

    page = open_and_run(browser, lab, "smote.ipynb", ready_text="k_neighbors")
    panel = page.locator(PANEL).last
    expect(panel).to_have_text(expected(5, 0.5))
    image_before = page.locator(".widget-image").last.get_attribute("src")
    drag_handle(page, 0, 1.0)  # k_neighbors to its largest value
    expect(panel).to_have_text(expected(K_NEIGHBORS_GRID[-1], 0.5))
    drag_handle(page, 1, 1.0)  # the ratio to its largest value: full balance
    expect(panel).to_have_text(expected(K_NEIGHBORS_GRID[-1], SMOTE_RATIO_GRID[-1]))
    assert page.locator(".widget-image").last.get_attribute("src") != image_before, "the figure is redrawn"
    page.close()
