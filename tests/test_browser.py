"""Browser tests of the sliders, each in a small notebook of its own, in a real JupyterLab driven by headless
Chromium at a 1280 x 720 projector size: every slider, dragged, shows the text its pure state function gives;
a concept check's feedback; no news pop-up; every course notebook with a widget is listed in COURSE.

The course notebooks themselves are run in tests/test_browser_run_all.py, the live slideshow in
tests/test_browser_slideshow.py and the offline decks in tests/test_browser_decks.py (split so that
pytest-xdist runs them side by side); what they share is tests/browser_support.py.
Screenshots of each widget at 1280 x 720 go to build/screenshots/ for review.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from browser_support import COURSE, PANEL, PROJECTOR, ROOT, SCREENSHOTS, answer_concept_check, open_course_notebook

pytestmark = pytest.mark.slow


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



def test_every_notebook_with_a_widget_is_listed():
    """A course notebook that shows a widget must be in COURSE, with its number of explorers."""
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        views = sum("application/vnd.jupyter.widget-view+json" in output.get("data", {})
                    for cell in notebook.cells
                    if "concept_check(" not in cell.source and "tqdm(" not in cell.source  # explorers only, no
                    for output in cell.get("outputs", []))  # concept check, no progress bar (closed when done)
        if views:
            assert path.name in COURSE, f"add {path.name} to COURSE in tests/browser_support.py"
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
    """Answer a concept check in JupyterLab: the feedback is helpers.quiz.check_answer's, word for word; a wrong
    choice does not give the answer away, "Show the answer" does when asked (browser_support.answer_concept_check)."""
    from helpers.quiz import CHECKS

    key = "01.imbalance"
    base, token, _ = lab
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(f"{base}/lab/workspaces/concept/tree/concept.ipynb?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Control+Enter")
    expect(page.locator(".jp-OutputArea-output")).to_contain_text(CHECKS[key].question)
    answer_concept_check(page.locator(".concept-check"), key, "JupyterLab")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".jp-OutputArea-output").first.screenshot(path=SCREENSHOTS / "concept-check.png")
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
