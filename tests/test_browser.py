"""Browser tests: the sliders in a real JupyterLab, driven by headless Chromium.

A JupyterLab server runs on a free loopback port over a temporary folder with
one small notebook per slider; Playwright opens it, runs it, drags the slider
and checks that the text the widget prints follows.
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

import nbformat
import pytest
from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PANEL = ".widget-html pre"  # every slider prints its numbers in an HTML panel

pytestmark = pytest.mark.slow

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


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server over a folder holding the test notebooks."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    root = tmp_path_factory.mktemp("lab")
    for name, sources in NOTEBOOKS.items():
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nbformat.write(notebook, root / name)
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".config"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime")}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.terminate()
                pytest.fail("JupyterLab did not start within 60 s")
            time.sleep(0.5)
    yield base, token
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    expect.set_options(timeout=60_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def open_and_run(browser, lab, name, ready_text="ranks first", ready=PANEL):
    base, token = lab
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
