"""What the browser tests share (tests/test_browser*.py, bench/bench_browser.py): a JupyterLab server
over a temporary folder with one small notebook per slider, copies of the course notebooks and their
lecture versions; headless Chromium (Debian's, no download); a second client of a notebook's kernel that
computes what an explorer must show from its pure state function; the checks of a drawn figure and of a
live explorer moved by keyboard and by drag; a concept check answered with the mouse (in JupyterLab and in a
deck); and what the deck tests and the benchmark both use (a page with
the network blocked, the frame a deck explorer shows). What one test file alone uses stays in that file.

tests/conftest.py has the ``lab`` and ``browser`` fixtures: one server and one browser per pytest-xdist
worker, serving every test file the worker runs; each file starts with no kernel running, the notebooks as
written here (reset_lab) and none of the previous file's pages.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
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
from jupyter_client import BlockingKernelClient
from PIL import Image, ImageStat
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import lecture  # noqa: E402  (tools/publishing/lecture.py: the lecture versions the slideshow presents)
from decks import last_explorer  # noqa: E402  (tools/publishing/decks.py: a deck re-runs up to there)

from helpers.widgets import DECK_ENV  # noqa: E402  (a kernel in deck mode shows pre-rendered explorers)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PANEL = ".widget-html pre"  # every slider prints its numbers in an HTML panel

PROJECTOR = {"width": 1280, "height": 720}
SCREENSHOTS = ROOT / "build" / "screenshots"
# A text table as a slide shows it (the live slideshow and the decks, text outputs at 18 px): its rows are the lines
# with columns (a run of two spaces or more between words, twice), three or more. ``tableWraps(pre)``: a row is wider
# than the text's box, so the browser wraps it. JavaScript, for page.evaluate.
TEXT_TABLE = """const tableWraps = pre => {
    const rows = pre.innerText.split('\\n').filter(l => /\\S {2,}\\S+ {2,}\\S/.test(l));
    if (rows.length < 3) return false;
    const style = getComputedStyle(pre), context = document.createElement('canvas').getContext('2d');
    context.font = style.font;
    const room = pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.max(...rows.map(row => context.measureText(row).width)) > room + 1; };"""
# Text tables wider than a slide at 18 px (about 110 characters), which wrap live and in the decks, each lecture's by
# its opening words (docs/slides.md says which; the notebooks would have to print fewer columns). None now.
WIDE_TABLES: dict[str, tuple[str, ...]] = {}
# Static figures whose smallest text stays under 18 px as projected (helpers.figures.fit_for_projector would make
# their texts run into each other), each lecture's by its first title (docs/slides.md).
SMALL_FIGURES: dict[str, tuple[str, ...]] = {}

# The course notebooks with sliders: notebook -> (number of explorers it shows, Restart-and-Run-All rounds of
# tests/test_browser_run_all.py). 01 is run at least five times in the suite (issue 11, to catch a race
# between the widget callbacks and the cells still running): four rounds there, the fifth its live slideshow
# (tests/test_browser_slideshow.py), which restarts and runs all of its lecture version with the same checks.
# A notebook that gets a slider (04-06) adds its line; test_every_notebook_with_a_widget_is_listed checks.
COURSE = {
    "01_metrics.ipynb": (1, 4),
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


def machine_slowdown(iterations: int = 1_000_000, reference: float = 0.1, most: float = 8.0,
                     load: float | None = None) -> float:
    """How much longer than usual the browser tests should wait on this machine now (review N2: fixed 30 s waits
    failed on a busy machine): a fixed piece of Python work timed against ``reference`` seconds (what it takes
    on a quiet 2-core machine of the course's kind), times the load per core beyond 1 (``load``: the load
    average per core now, unless given); at least 1, at most ``most``. Every wait on a page's state is capped
    at its usual time times this (:func:`patience`)."""
    start, total = time.perf_counter(), 0
    for i in range(iterations):
        total += i * i % 7
    speed = (time.perf_counter() - start) / reference
    if load is None:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(most, max(1.0, speed) * max(1.0, load))


SLOWDOWN = machine_slowdown()


def patience(ms: float) -> int:
    """A wait's cap of ``ms`` milliseconds on a quiet machine, scaled to this one (:data:`SLOWDOWN`)."""
    return int(ms * SLOWDOWN)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_notebooks(root: Path) -> None:
    """Write the test notebooks, copies of the course notebooks and their lecture versions (the ones the live
    slideshow presents) into ``root``, over whatever a test saved there."""
    for name, sources in NOTEBOOKS.items():
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nbformat.write(notebook, root / name)
    for name in COURSE:
        shutil.copy(ROOT / "notebooks" / name, root / name)
    for name in COURSE:
        lecture.write_lecture(ROOT / "notebooks" / name, root / "lecture")


@contextlib.contextmanager
def serve_lab(root: Path, options: list[str] = (), env: dict[str, str] | None = None):
    """A JupyterLab server over ``root`` with the test notebooks, the course notebooks and a lecture version
    (write_notebooks); yields ``(base_url, token, root)``. Also used by bench/bench_browser.py. ``options`` and
    ``env`` are added to the server's command line and environment (the lecture JupyterLab's, tools/publishing/lecture.py
    present_options)."""
    write_notebooks(root)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".config"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime"),
           **(env or {})}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.expose_app_in_browser=True", *options],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=stop_with_parent)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60 * SLOWDOWN
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"JupyterLab did not start within {60 * SLOWDOWN:.0f} s")
                time.sleep(0.5)
        yield base, token, root
    finally:
        stop_server(server)


def stop_with_parent() -> None:
    """In a server's process before it starts: Linux sends it SIGTERM when the process that started it dies, so
    a test process that is killed (an interrupted or crashed `make test`) leaves no server running (review N1)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1


def stop_server(server: subprocess.Popen, grace: float = 30.0) -> None:
    """Stop a server and everything it started (its kernels), whatever state the test left it in: SIGTERM first
    (JupyterLab shuts its kernels down), then SIGKILL for whatever still runs after ``grace`` seconds."""
    import psutil

    try:
        children = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        children = []
    server.terminate()
    try:
        server.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    _, alive = psutil.wait_procs(children, timeout=grace)
    for process in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(alive, timeout=grace)


def reset_lab(lab, timeout: float = 60.0 * SLOWDOWN) -> None:
    """Bring a running JupyterLab back to how serve_lab started it: every session's kernel shut down (through
    the server's REST API, as the Running panel's "Shut Down All" does) and every notebook written afresh."""
    base, token, root = lab

    def api(path, method="GET"):
        request = urllib.request.Request(f"{base}/api/{path}?token={token}", method=method)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")

    for session in api("sessions"):
        api(f"sessions/{session['id']}", "DELETE")
    deadline = time.monotonic() + timeout
    while api("kernels"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"JupyterLab still runs {len(api('kernels'))} kernel(s) {timeout:.0f} s after shutting them down")
        time.sleep(0.2)
    write_notebooks(root)


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
        self.client.wait_for_ready(timeout=60 * SLOWDOWN)
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
        timeout=patience(30_000))
    page.wait_for_function(  # ... until none does
        "() => [...document.querySelectorAll('.jp-InputPrompt')].every(e => !e.textContent.includes('*'))",
        timeout=patience(RUN_ALL_SECONDS * 1000), polling=200)
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


def wait_for_text(view, kernel, index, controls, want: dict | None = None, timeout=30.0 * SLOWDOWN) -> str:
    """Wait until the controls show ``want`` (if given) and the panel shows what the pure function
    gives for the values shown; return that text."""
    deadline = time.monotonic() + timeout
    while True:
        shown = shown_values(view, controls)
        expected = kernel.value(f"_course_expected({index}, {json.dumps(shown)})")
        panel = view.locator(PANEL).last.text_content()
        settled = want is None or all(shown[k] == v for k, v in want.items())
        if panel == expected and settled and kernel.value(f"_course_synced({index}, {json.dumps(shown)})"):
            time.sleep(0.3)  # let the kernel's echo of the value arrive before the next move
            return panel
        if time.monotonic() > deadline:
            assert settled, f"explorer {index}: the controls show {shown}, not {want}"
            assert panel == expected, f"explorer {index} at {shown}: the panel shows stale or wrong numbers"
        time.sleep(0.2)


def wait_for_image(view, sha256: str, timeout=30.0 * SLOWDOWN) -> bytes:
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
        handle.focus()  # the handle again, as a lecturer clicks it before the key back (a redraw may move focus)
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






def answer_concept_check(box, key: str, where: str) -> None:
    """Answer concept check ``key`` (the ``.concept-check`` locator ``box``) with the mouse, as a student does:
    a wrong option first, whose feedback is helpers.quiz.check_answer's word for word and does not give the
    right answer away; then "Show the answer", which gives helpers.quiz.reveal_answer's text; then the right
    option, which says why and takes "Show the answer" away. ``where`` names the page in a failure."""
    from helpers.quiz import CHECKS, check_answer, reveal_answer

    check = CHECKS[key]
    wrong = next(i for i in range(len(check.options)) if i != check.answer)
    feedback = box.locator(".concept-feedback p:visible")  # the checked option's feedback, and only it
    expect(feedback).to_have_text(check_answer(key, None)["feedback"])  # nothing picked yet
    options = box.locator("label")
    expect(options).to_have_count(len(check.options))
    options.nth(wrong).click()
    expected = check_answer(key, wrong)
    assert not expected["correct"] and check.why[wrong] in expected["feedback"]
    expect(feedback).to_have_text(expected["feedback"])  # why this option is wrong, and another try
    assert "Not quite." in feedback.text_content() and check.why[wrong] in feedback.text_content()
    assert check.why[check.answer] not in box.inner_text(), f"{where}: a wrong choice gave the answer away"
    reveal = box.locator(".concept-answer")
    reveal.locator("summary").click()  # asked for: the answer and why
    expect(reveal.locator("p")).to_have_text(reveal_answer(key))
    options.nth(check.answer).click()
    expect(feedback).to_have_text(check_answer(key, check.answer)["feedback"])
    assert feedback.text_content().startswith("Right.")
    expect(reveal).to_be_hidden()  # offered only while a wrong option is checked


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


# --------------------------------------------------------------------------- the pre-rendered frames
# What the decks and the website show without a kernel is compared with a kernel that ran the instructor notebook.
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
    with client.setup_kernel(env={k: v for k, v in os.environ.items() if k != DECK_ENV}):
        # up to the last explorer: the cells after it (exercises, solutions, tests) cannot change what it shows
        last = last_explorer(notebook)
        for index, cell in enumerate(notebook.cells[:last + 1]):
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


def pixels_sha256(png: bytes) -> tuple[str, list]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(image.tobytes()).hexdigest(), list(image.size)
