"""Browser test of the live slideshow: the lecture version of each notebook with a slider, presented with
jupyterlab-deck inside JupyterLab (its commands run through ``window.jupyterapp``): Run All, deck:start, each
slider's slide; the sliders move by keyboard and by drag, the figure and numbers are the pure state
function's, the keys do not leave the slideshow, and neither solutions nor speaker notes show.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import (COURSE, SCREENSHOTS, check_explorer, explorers, Kernel, open_course_notebook,
                             restart_and_run_all)

pytestmark = pytest.mark.slow


ACTIVATE = "i => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i; }"
DECK = "command => window.jupyterapp.commands.execute(command)"
STDERR_UP_TO_LAST_SLIDER = """() => {
    const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
    const last = Math.max(...cells.map((c, k) => c.querySelector('.widget-image') ? k : -1));
    const stderr = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']";
    return last < 0 ? -1 : cells.slice(0, last + 1).filter(c => c.querySelector(stderr)).length; }"""


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
    # up to the last slider (the exercises after it stop Run All: the lecture version has no solutions)
    assert page.evaluate(STDERR_UP_TO_LAST_SLIDER) == 0, \
        f"{name}: a cell up to the last slider wrote to stderr (a warning or an error) during Run All"
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
