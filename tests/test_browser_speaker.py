"""Browser tests of the lecture JupyterLab's own extension (tools/publishing/present/speaker, loaded by `make present`
only): the speaker view a lecturer opens with S while presenting, which follows the slideshow key by key with the
notes of the stop's section (sub-slides too) and the next stop; and the presenter's keys on a focused slider
(PageDown/PageUp go on, the arrows move it, Escape leaves it).
"""

from __future__ import annotations

import re
import shutil
import time

import nbformat
import pytest
from playwright.sync_api import expect

from browser_support import (ROOT, SCREENSHOTS, explorers, lecture, open_course_notebook, patience, restart_and_run_all,
                             serve_lab)
from test_accessibility import AXE, axe_violations, report

pytestmark = pytest.mark.slow

NAME = "02_roc_by_hand"
SECTION = "2. The table by hand: sort, then sweep"  # a section whose stops are a slide and its sub-slides
# a small notebook presented in the lecture JupyterLab: a slide before the slider's, the slider's, one after it
SLIDER_NOTEBOOK = "slider-keys.ipynb"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lecture JupyterLab (the options of `make present`, which build its extension when missing) over the
    browser tests' folder (02's lecture version in lecture/) and a three-slide notebook with a slider."""
    root = tmp_path_factory.mktemp("speaker")
    options, env = lecture.present_options(root / ".config")
    with serve_lab(root, options, env) as served:
        cells = [nbformat.v4.new_markdown_cell("# Before the slider"),
                 nbformat.v4.new_code_cell("from helpers.widgets import fbeta_explorer\nfbeta_explorer()"),
                 nbformat.v4.new_markdown_cell("# After the slider")]
        for cell in cells:
            cell.metadata["slideshow"] = {"slide_type": "slide"}
        notebook = nbformat.v4.new_notebook(cells=cells)
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                           "language": "python"}
        nbformat.write(notebook, root / SLIDER_NOTEBOOK)
        yield served
    shutil.rmtree(root, ignore_errors=True)


def start_slideshow(page) -> None:
    """Click the first cell, then the notebook toolbar's slideshow button (docs/slides.md, step 2)."""
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.locator(".jp-NotebookPanel-toolbar [data-jp-item-name='deck'] jp-button").click()
    expect(page.locator("body[data-jp-deck-mode='presenting']")).to_have_count(1)


# The first cell on screen that opens a stop (the slideshow's classes), by its index among the notebook's cells.
ON_SCREEN = """() => [...document.querySelectorAll('.jp-Deck .jp-Notebook .jp-Cell')].findIndex(c =>
    c.classList.contains('jp-deck-mod-onscreen') && c.classList.contains('jp-deck-mod-visible'))"""


def plain(text: str) -> str:
    """A notes field as the speaker view shows it: its `code` spans without their backticks."""
    return text.replace("`", "")


def test_the_speaker_view_follows_every_stop_with_its_notes_and_the_next_stop(browser, lab):
    """On 02's lecture version, S while presenting opens the speaker view in a window of its own. PageDown from the
    first stop to past the end of section 2 (a slide and its sub-slides), then PageUp back into section 1: at each
    stop it shows "Stop n of N", the notes of the stop's section as notebooks/speaker_notes/02_roc_by_hand.md gives
    them (read_speaker_notes), "continued" on a section's later stops, and the next stop's number and opening words
    (lecture.stop_line of the lecture version's next stop), in a box nothing covers; the presenter's keys pressed in
    the speaker view's window move the slideshow as in its own; notes at 20 px or more; the
    clock counts from the slideshow's start and runs; axe-core finds no violation."""
    _, _, root = lab
    cells = nbformat.read(root / "lecture" / f"{NAME}.ipynb", as_version=4).cells
    stops = [k for k, cell in enumerate(cells) if lecture.kind(cell) in ("slide", "subslide")]
    notes = lecture.speaker_notes(ROOT / "notebooks" / f"{NAME}.ipynb")
    headings = list(notes)
    # the section of each stop: the notes block of the last section heading at or before it (the title's: INTRO)
    section_of, heading = {}, None
    for k, cell in enumerate(cells):
        heading = lecture.section_heading(cell) or (lecture.INTRO if k == 0 else heading)
        section_of[k] = heading
    in_section = [n for n, k in enumerate(stops) if section_of[k] == SECTION]
    assert len(in_section) >= 3 and any(lecture.kind(cells[stops[n]]) == "subslide" for n in in_section)
    page = open_course_notebook(browser, lab, f"lecture/{NAME}.ipynb", "speaker")
    try:
        started = time.monotonic()  # at most this long ago when the slideshow started ...
        start_slideshow(page)
        time.sleep(2)  # ... and at least 2 s ago when S is pressed: the speaker view's clock counts from then
        with page.context.expect_page() as opened:
            page.keyboard.press("s")  # the key a lecturer presses (docs/slides.md)
        speaker = opened.value
        speaker.wait_for_load_state()
        where = speaker.locator("#where")
        elapsed = speaker.locator("#clock").text_content()
        minutes, seconds = map(int, re.fullmatch(r"Elapsed (\d+):(\d\d)", elapsed).groups())
        assert 2 <= 60 * minutes + seconds <= time.monotonic() - started + 1, elapsed

        def check(n: int) -> None:
            """The speaker view at stop ``n`` (0-based) of the slideshow."""
            expect(where).to_have_text(f"Stop {n + 1} of {len(stops)} (slide {sum(lecture.kind(cells[k]) == 'slide' for k in stops[:n + 1])})")
            assert page.evaluate(ON_SCREEN) == stops[n], f"the slideshow is not at stop {n + 1}"
            section = section_of[stops[n]]
            first = min(m for m, k in enumerate(stops) if section_of[k] == section)
            title = speaker.locator("#notes-heading").text_content()
            assert title.startswith(f"{section} ({notes[section]['Time']}") and title.endswith(", continued") == (n > first), title
            shown = dict(re.match(r"([^:]+): (.*)", p, re.S).groups()
                         for p in speaker.locator("#notes-text p").all_text_contents())
            want = {field: plain(text) for field, text in notes[section].items() if field != "Time"}
            assert shown == want, f"stop {n + 1}: the notes shown are not {section!r}'s"
            following = ("None: this is the last stop" if n + 1 == len(stops) else
                         f"Stop {n + 2}" + (f" (new section: {section_of[stops[n + 1]]})"
                                             if section_of[stops[n + 1]] != section else "")
                         + f": {plain(lecture.stop_line(cells[stops[n + 1]]))}")
            expect(speaker.locator("#next-text")).to_have_text(following)

        check(0)
        last = in_section[-1] + 1  # the first stop of section 3
        for n in range(1, last + 1):
            page.keyboard.press("PageDown")
            check(n)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        speaker.screenshot(path=SCREENSHOTS / "speaker-view.png")  # for review: the first stop of section 3
        for n in range(last - 1, in_section[0] - 2, -1):  # back into section 1
            page.keyboard.press("PageUp")
            check(n)
        assert section_of[stops[in_section[0] - 1]] == headings[1]
        # a clicker's keys reach the window with the focus: in the speaker view's they move the slideshow too
        for key, n in (("PageDown", in_section[0]), ("Space", in_section[0] + 1), ("ArrowLeft", in_section[0]),
                       ("PageUp", in_section[0] - 1)):
            speaker.keyboard.press(key)
            check(n)
        # the next stop's box: on screen, and nothing covers it (its corners and centre are its own)
        covered = speaker.evaluate("""() => {
            const box = document.getElementById('next'), r = box.getBoundingClientRect();
            if (r.bottom > innerHeight || r.right > innerWidth || r.top < 0) return 'off screen';
            const points = [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3],
                            [r.right - 3, r.bottom - 3], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
            const other = points.map(([x, y]) => document.elementFromPoint(x, y)).find(e => !box.contains(e));
            return other ? other.tagName + '#' + other.id : ''; }""")
        assert covered == "", f"the next stop's box is covered by {covered}"
        sizes = speaker.locator("#notes-text p, #next-text").evaluate_all(
            "nodes => nodes.map(n => parseFloat(getComputedStyle(n).fontSize))")
        assert sizes and min(sizes) >= 20, f"speaker notes at {sizes} px"
        clock = speaker.locator("#clock")
        before = clock.text_content()
        assert re.fullmatch(r"Elapsed \d+:\d\d", before)
        expect(clock).not_to_have_text(before, timeout=patience(3000))  # it runs
        # pressing S again brings the same window forward, no second one
        pages = len(page.context.pages)
        page.keyboard.press("s")
        time.sleep(0.3)
        assert len(page.context.pages) == pages
        if not AXE.exists():
            pytest.fail("axe-core is missing: run `make slides` first (or `make build/slides/vendor/.installed`)")
        snapshot = root / "speaker-view.html"
        snapshot.write_text(speaker.content(), encoding="utf-8")
        violations = axe_violations(snapshot, browser, settle_ms=100)
        assert violations == [], report(violations)
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('deck:stop')")
        page.context.close()


def test_a_focused_slider_gives_the_presenter_keys_to_the_slideshow(browser, lab):
    """Live, on a slider's slide: Tab reaches the slider's handle in at most two presses; ArrowRight moves it;
    PageDown then goes to the next slide and leaves the slider's value alone; PageUp comes back, the value still
    the same; Space on the focused handle goes on too and Shift+Space back; Escape leaves the slider (the focus goes
    back to the notebook) and the slideshow goes on: PageDown goes to the next slide."""
    page = open_course_notebook(browser, lab, SLIDER_NOTEBOOK, "slider-keys")
    try:
        restart_and_run_all(page)
        expect(explorers(page)).to_have_count(1)
        start_slideshow(page)
        assert page.evaluate(ON_SCREEN) == 0
        page.keyboard.press("PageDown")
        page.wait_for_function(f"() => ({ON_SCREEN})() === 1")
        view = explorers(page).first
        readout = view.locator(".widget-readout").first
        handle = view.locator(".noUi-handle").first
        focused = "() => !!document.activeElement && document.activeElement.classList.contains('noUi-handle')"
        tabs = 0
        while not page.evaluate(focused) and tabs < 10:
            page.keyboard.press("Tab")
            tabs += 1
        print(f"\nTab presses from the slider's slide to its handle: {tabs}")
        assert page.evaluate(focused) and tabs <= 2, f"the slider's handle took {tabs} Tab presses"
        start = readout.text_content()
        page.keyboard.press("ArrowRight")
        expect(readout).not_to_have_text(start)
        moved = readout.text_content()
        for forward, back in (("PageDown", "PageUp"), ("Space", "Shift+Space")):
            handle.focus()
            page.keyboard.press(forward)
            page.wait_for_function(f"() => ({ON_SCREEN})() === 2", timeout=patience(5000))
            assert readout.text_content() == moved, f"{forward} on the focused slider moved it"
            assert page.evaluate("() => document.body.dataset.jpDeckMode") == "presenting"
            assert page.evaluate("() => document.querySelector('.jp-Deck .jp-Notebook').contains(document.activeElement)")
            page.keyboard.press(back)
            page.wait_for_function(f"() => ({ON_SCREEN})() === 1", timeout=patience(5000))
            assert readout.text_content() == moved, f"{back} moved the slider"
        handle.focus()
        page.keyboard.press("ArrowLeft")  # the arrows still move it
        expect(readout).to_have_text(start)
        page.keyboard.press("Escape")  # leaves the slider, not the slideshow
        assert not page.evaluate(focused), "Escape left the focus on the slider"
        assert page.evaluate("() => document.body.dataset.jpDeckMode") == "presenting", "Escape ended the slideshow"
        assert page.evaluate("() => document.querySelector('.jp-Deck .jp-Notebook').contains(document.activeElement)")
        page.keyboard.press("ArrowRight")  # now the presenter's: the next slide, the slider untouched
        page.wait_for_function(f"() => ({ON_SCREEN})() === 2", timeout=patience(5000))
        assert readout.text_content() == start
        page.keyboard.press("Escape")  # off the slider, Escape ends the slideshow as before
        expect(page.locator("body[data-jp-deck-mode='presenting']")).to_have_count(0)
    finally:
        page.evaluate("() => window.jupyterapp.commands.execute('deck:stop')")
        page.context.close()
