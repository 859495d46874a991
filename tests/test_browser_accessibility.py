"""What a screen-reader or keyboard-only student meets in JupyterLab (issue 28), read from Chromium's accessibility
tree (Playwright's ARIA snapshot, the CDP Accessibility domain) and driven by key presses only:

* every explorer slider is named by its visible label and announces the value it shows, not its option index;
* the explorer's figure carries the alt of its current state, and the number panel is a polite live region (one,
  so that a move is announced once);
* a concept check is a radio group named by its question, answered with Tab, Space and the arrow keys, and its
  feedback (helpers.quiz.check_answer's, word for word) appears in a polite live region.

One JupyterLab and one browser for the file (tests/conftest.py), small notebooks (tests/browser_support.py).
Chromium's CDP reports an ARIA slider's ``valuetext`` as empty whatever its ``aria-valuetext`` says (a static
``<div role=slider aria-valuetext="five">`` gives ``''`` too), so the value text is read from the attribute that
screen readers get through the platform accessibility API.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_support import PANEL, PROJECTOR, Kernel, handle_position, shown_values, wait_for_text

pytestmark = pytest.mark.slow


def run_notebook(browser, lab, name, ready_text):
    base, token, _ = lab
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(f"{base}/lab/workspaces/a11y-{Path(name).stem}/tree/{name}?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    page.locator(".jp-Notebook").click()
    page.keyboard.press("Control+Enter")  # run the (single) selected cell
    expect(page.locator(ready_text[0]).last).to_contain_text(ready_text[1])
    return page


def live_regions(page) -> list[dict]:
    """Every node of the accessibility tree that is a live region: its politeness and its text."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    return [{p["name"]: p["value"].get("value") for p in node.get("properties", [])} for node in nodes
            if any(p["name"] == "live" and p["value"].get("value") != "off" for p in node.get("properties", []))]


def accessibility_node(page, element) -> dict:
    """The properties Chromium's accessibility tree gives ``element`` (CDP Accessibility.getPartialAXTree)."""
    cdp = page.context.new_cdp_session(page)
    element.evaluate("e => e.setAttribute('data-course-probe', '')")
    try:
        document = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": document, "selector": "[data-course-probe]"})["nodeId"]
        nodes = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"]
    finally:
        element.evaluate("e => e.removeAttribute('data-course-probe')")
        cdp.detach()
    return {p["name"]: p["value"].get("value") for p in nodes[0].get("properties", [])}


# Every slider of every explorer (helpers.widgets), each in its small notebook (tests/browser_support.py
# NOTEBOOKS), by the label it shows.
EXPLORER_SLIDERS = [
    ("fbeta.ipynb", ["beta"]),
    ("threshold.ipynb", ["threshold"]),
    ("kfold.ipynb", ["k", "repeats"]),
    ("complexity.ipynb", ["degree"]),
    ("smote.ipynb", ["k_neighbors", "ratio"]),
]


@pytest.mark.parametrize("name, labels", EXPLORER_SLIDERS, ids=[n.removesuffix(".ipynb") for n, _ in EXPLORER_SLIDERS])
def test_every_explorer_slider_is_named_announces_its_value_and_the_figure_and_panel_follow_the_keyboard(
        browser, lab, name, labels):
    page = run_notebook(browser, lab, name, (PANEL, ""))
    output = page.locator(".jp-OutputArea-output").first
    panel, image = output.locator(PANEL).last, output.locator("img.widget-image")
    expect(panel).to_have_text(re.compile(r"\d"))
    kernel = Kernel(lab, name)
    try:
        controls = kernel.value("_course_describe(0)")["controls"]
        slider_names = [control for control, kind in controls if kind == "slider"]  # the kernel's names, in order
        sliders = output.locator(".widget-slider")
        assert sliders.count() == len(labels), f"{name}: {sliders.count()} sliders, not {labels}"
        for i, label in enumerate(labels):
            slider = sliders.nth(i)
            handle, readout = slider.locator(".noUi-handle"), slider.locator(".widget-readout")
            # the accessible name is the visible label (the handle is labelled by it), as a screen reader reads it
            assert slider.locator(".widget-label").text_content().strip() == label
            snapshot = output.aria_snapshot()
            assert f'- slider "{label}"' in snapshot, f"{name}: slider {label} is not named by its label:\n{snapshot}"
            # the value text is what the readout shows, which is the value the kernel's control holds
            shown = readout.text_content().strip()
            expect(handle).to_have_attribute("aria-valuetext", shown)
            values = shown_values(output, controls)
            assert values[slider_names[i]] == shown and kernel.value(f"_course_synced(0, {json.dumps(values)})")
            if kernel.value(f"hasattr(_course_explorers()[0].controls[{slider_names[i]!r}], '_options_labels')"):
                # a SelectionSlider's aria-valuenow is the option index, which the value text must not repeat
                index = float(handle.get_attribute("aria-valuenow"))
                assert float(shown) != index, f"{name}, {label}: the value text {shown} is the option index"
            before_alt, before_panel = image.get_attribute("alt"), panel.text_content()
            assert before_alt and len(before_alt) <= 300 and image.get_attribute("title") is None
            assert before_alt == kernel.value("_course_explorers()[0].alt")
            # keyboard only: the focused handle moves one step, down where it can (k = 3 costs fewer fits than 10)
            handle.focus()
            page.keyboard.press("ArrowLeft" if handle_position(slider) > 0.05 else "ArrowRight")
            expect(readout).not_to_have_text(shown)
            moved = readout.text_content().strip()
            expect(handle).to_have_attribute("aria-valuetext", moved)
            # the kernel got the value shown, and the panel shows its pure state function's numbers for it
            wait_for_text(output, kernel, 0, controls, want={slider_names[i]: moved})
            assert panel.text_content() != before_panel
            # the image's alt is its new state's (the explorer's, in the kernel), and it is the image's name
            alt = kernel.value("_course_explorers()[0].alt")
            assert alt != before_alt and len(alt) <= 300
            expect(image).to_have_attribute("alt", alt)
            assert f'img "{alt}"' in output.aria_snapshot().replace("''", "'"), "the alt is the image's name"
        # the short line of what changed is the polite live region (a move is announced once, briefly); the full
        # panel is not live (read at will), and the tree says so
        assert panel.evaluate("pre => { let n = 0; for (let e = pre; e; e = e.parentElement) "
                              "if (e.getAttribute('aria-live')) n++; return n; }") == 0, "the panel is not live"
        announce = output.locator(".course-explorer-announce")
        expect(announce).to_have_attribute("aria-live", "polite")
        region = accessibility_node(page, announce)
        assert region.get("live") == "polite", f"{name}: the short line's live region in the tree: {region}"
        assert 0 < len(announce.text_content().strip()) < len(" ".join(panel.text_content().split()))
    finally:
        kernel.close()
        page.close()


def test_typing_into_a_selection_sliders_readout_changes_neither_its_value_nor_what_it_announces(browser, lab):
    page = run_notebook(browser, lab, "threshold.ipynb", (PANEL, ""))
    output = page.locator(".jp-OutputArea-output").first
    slider = output.locator(".widget-slider").first
    handle, readout = slider.locator(".noUi-handle"), slider.locator(".widget-readout")
    expect(handle).to_have_attribute("aria-valuetext", re.compile(r"\d"))
    kernel = Kernel(lab, "threshold.ipynb")
    try:
        value = kernel.value("_course_explorers()[-1].controls['threshold'].value")
        shown = readout.text_content().strip()
        # the readout is a display: not on the Tab path, not editable
        handle.focus()
        page.keyboard.press("Tab")
        assert not readout.evaluate("r => r === document.activeElement || r.contains(document.activeElement)")
        assert readout.get_attribute("contenteditable") == "false" and readout.get_attribute("tabindex") == "-1"
        # a person types there anyway: click, select all, type, Enter
        readout.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("0.19")
        page.keyboard.press("Enter")
        page.keyboard.press("Shift+Tab")
        expect(readout).to_have_text(shown)
        expect(handle).to_have_attribute("aria-valuetext", shown)
        assert kernel.value("_course_explorers()[-1].controls['threshold'].value") == value
        assert float(shown) == pytest.approx(value, abs=5e-4)  # the announced value is the widget's value
    finally:
        kernel.close()
        page.close()


def test_escape_in_a_number_box_then_arrow_keys_leave_the_cost_unchanged(browser, lab):
    page = run_notebook(browser, lab, "threshold.ipynb", (PANEL, ""))
    output = page.locator(".jp-OutputArea-output").first
    box = output.locator(".widget-text input").first  # "cost of FP"
    kernel = Kernel(lab, "threshold.ipynb")
    try:
        cost = kernel.value("_course_explorers()[-1].controls['cost_fp'].value")
        box.focus()
        page.keyboard.press("Escape")
        for key in ["ArrowUp"] * 5 + ["ArrowDown"] * 2:
            page.keyboard.press(key)
        page.wait_for_timeout(500)
        assert box.input_value() == f"{cost:g}" or float(box.input_value()) == cost
        assert kernel.value("_course_explorers()[-1].controls['cost_fp'].value") == cost
        assert not box.evaluate("b => b === document.activeElement"), "Escape left the number box"
        # and the notebook is in command mode, where the arrows moved between cells
        expect(page.locator(".jp-Notebook.jp-mod-commandMode")).to_have_count(1)
    finally:
        kernel.close()
        page.close()


def test_concept_check_with_the_keyboard_only_and_its_feedback_announced(browser, lab):
    from helpers.quiz import CHECKS, check_answer, reveal_answer

    key = "01.imbalance"
    check = CHECKS[key]
    page = run_notebook(browser, lab, "concept.ipynb", (".concept-check", check.question[:30]))
    output = page.locator(".jp-OutputArea-output").first
    question = f"Concept check. {check.question}"
    snapshot = output.aria_snapshot()
    assert f'- radiogroup "{question}"' in snapshot.replace("''", "'"), snapshot
    for option in check.options:
        assert f'radio "{option}"' in snapshot.replace("''", "'"), f"{option!r} is not a named radio:\n{snapshot}"
    feedback = output.locator(".concept-feedback p:visible")
    expect(feedback).to_have_text(check_answer(key, None)["feedback"])
    page.keyboard.press("Escape")  # command mode; then Tab to the first radio, as a keyboard user does
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type") == "radio":
            break
    radios = output.locator("input[type=radio]")
    expect(radios.first).to_be_focused()
    page.keyboard.press("Space")  # picks the focused option
    expect(radios.first).to_be_checked()
    expect(feedback).to_have_text(check_answer(key, 0)["feedback"])
    # a wrong choice: Tab goes on to "Show the answer", Enter opens it, Shift+Tab comes back to the choice
    page.keyboard.press("Tab")
    summary = output.locator(".concept-answer summary")
    expect(summary).to_be_focused()
    expect(output.locator(".concept-answer p")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(output.locator(".concept-answer p")).to_have_text(reveal_answer(key))
    assert reveal_answer(key) in output.aria_snapshot().replace("''", "'")
    page.keyboard.press("Shift+Tab")
    expect(radios.first).to_be_focused()
    for index in (1, 2, 1):  # the arrow keys choose: JupyterLab's notebook shortcuts leave them to the radios
        page.keyboard.press("ArrowDown" if index > int(page.evaluate("document.activeElement.value")) else "ArrowUp")
        expect(radios.nth(index)).to_be_focused()
        expect(radios.nth(index)).to_be_checked()
        expect(feedback).to_have_text(check_answer(key, index)["feedback"])
    page.keyboard.press("Enter")  # confirms nothing more, moves nothing: still on the same radio
    expect(radios.nth(1)).to_be_focused()
    assert check.answer == 1 and feedback.text_content().startswith("Right.")
    # the feedback is inside a polite live region that was there before the choice (announced when it changes)
    assert feedback.evaluate("p => p.closest('[aria-live]').getAttribute('aria-live')") == "polite"
    assert any(region.get("live") == "polite" for region in live_regions(page)), "no polite live region in the tree"
    assert f'radio "{check.options[1]}" [checked]' in output.aria_snapshot().replace("''", "'")
    expect(summary).to_be_hidden()   # the right answer picked: nothing left to show
    page.close()


def test_a_committed_figure_has_its_short_alt_and_a_long_description_to_open_with_the_keyboard(browser, lab):
    """A course notebook as a student opens it (nothing run): each figure's <img> carries the short alt and the
    collapsed "Figure details" under it opens with Enter and reads the panels' sentences."""
    import json

    from browser_support import ROOT

    name = "01_metrics.ipynb"
    notebook = json.loads((ROOT / "notebooks" / name).read_text())
    figures = [(output["metadata"]["image/png"]["alt"], "".join(outputs[i + 1]["data"]["text/plain"]))
               for cell in notebook["cells"] for outputs in [cell.get("outputs", [])]
               for i, output in enumerate(outputs) if "image/png" in output.get("data", {})]
    base, token, _ = lab
    page = browser.new_page(viewport=PROJECTOR)
    page.goto(f"{base}/lab/workspaces/a11y-figures/tree/{name}?token={token}&reset")
    expect(page.get_by_text("(ipykernel) | Idle")).to_be_visible()
    alt, details = figures[0]
    image = page.get_by_role("img", name=alt, exact=True)
    page.locator(".jp-Notebook").hover()
    for _ in range(60):  # JupyterLab renders the cells near the view only: scroll down to the figure
        if image.count():
            break
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(150)
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible()
    output = page.locator(".jp-Cell").filter(has=image)
    summary = output.locator("details > summary")
    expect(summary).to_have_text("Figure details")
    body = output.locator("details p").first
    expect(body).not_to_be_visible()  # collapsed
    summary.focus()
    page.keyboard.press("Enter")
    expect(body).to_be_visible()
    assert details.removeprefix("Figure details: ").startswith(body.text_content()[:60])
    page.close()
