"""The README's pictures, taken by the project's own browser code (tests/browser_support.py).

    make screenshots          # .venv/bin/python tools/publishing/screenshots.py [lab | deck | site]

- docs/img/jupyterlab-slider.png: notebook 02 in JupyterLab after *Restart Kernel and Run All Cells*, at its
  threshold slider, moved by three presses of the arrow key on the focused handle (the kernel redraws
  the figure and the numbers);
- docs/img/deck-slide.png: the same explorer on its slide of the offline reveal.js deck (built as
  `make slides` builds it, network blocked), its slider moved the same way over the pre-rendered frames;
- docs/img/site-explorer.png: the same explorer on notebook 02's page of the course website (`make site`),
  its native slider reached with Tab and moved by three arrow-key presses (1280 x 800).

The first two at the projector size the course is fitted to (1280 x 720), in headless Debian Chromium driven by
Playwright, as the browser tests do. The PNGs are committed; run this again when the notebook or the look
changes (it takes a few minutes: a Run All in JupyterLab, and the deck's build re-runs the notebook).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import browser_support as support  # noqa: E402  (tests/browser_support.py)
import decks  # noqa: E402  (tools/publishing/decks.py)

IMG = ROOT / "docs" / "img"
NOTEBOOK = "02_roc_by_hand.ipynb"
LAB_SHOT = IMG / "jupyterlab-slider.png"
DECK_SHOT = IMG / "deck-slide.png"
SITE_SHOT = IMG / "site-explorer.png"
PRESSES = 3


def move_slider(page, view) -> None:
    """Three arrow-key presses on the first slider's focused handle; wait until the numbers follow."""
    slider = view.locator(".widget-slider").first
    readout, handle = slider.locator(".widget-readout"), slider.locator(".noUi-handle")
    before, numbers = readout.text_content(), view.evaluate(support.VISIBLE_FRAME)["panel"]
    handle.focus()
    for _ in range(PRESSES):
        page.keyboard.press("ArrowRight" if support.handle_position(slider) < 0.9 else "ArrowLeft")
    expect(readout).not_to_have_text(before)
    for _ in range(60):   # the visible number panel follows (the kernel's redraw, or the deck's next frame)
        if view.evaluate(support.VISIBLE_FRAME)["panel"] != numbers:
            break
        page.wait_for_timeout(500)
    else:
        sys.exit("the numbers did not follow the slider")
    page.wait_for_timeout(1500)   # the new figure is decoded and painted


def save(page, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=path)
    Image.open(path).convert("RGB").save(path, optimize=True)
    return path


def lab_screenshot(browser) -> Path:
    with tempfile.TemporaryDirectory(prefix="screenshots-") as tmp, support.serve_lab(Path(tmp)) as lab:
        page = support.open_course_notebook(browser, lab, NOTEBOOK, "screenshots")
        page.keyboard.press("Control+b")   # the notebook alone: the file browser's sidebar closed
        page.keyboard.press("Control+s")   # saved: the tab shows no unsaved-changes dot
        expect(page.locator("#jp-left-stack")).to_be_hidden()
        support.restart_and_run_all(page)
        view = support.explorers(page).first
        view.evaluate("v => v.scrollIntoView({block: 'start'})")
        move_slider(page, view)
        page.keyboard.press("Escape")
        page.keyboard.press("Control+s")
        view.evaluate("v => v.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        shot = save(page, LAB_SHOT)
        page.close()
    return shot


def deck_screenshot(browser) -> Path:
    missing = decks.missing_assets()
    if missing:
        sys.exit(f"missing in build/slides: {', '.join(missing)}; run `make slides` first (npm ci)")
    decks.build([ROOT / "notebooks" / NOTEBOOK])
    deck = decks.OUT / NOTEBOOK.replace(".ipynb", ".slides.html")
    page = browser.new_page(viewport=support.PROJECTOR)
    network = support.block_network(page)
    page.goto(deck.as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=30_000)
    view = page.locator(".course-deck-explorer").first
    indices = view.evaluate(f"v => {support.REVEAL}.getIndices(v.closest('.slides section:not(.stack)'))")
    page.evaluate(f"i => {support.REVEAL}.slide(i.h, i.v)", indices)
    expect(view.locator(".widget-slider").first).to_be_visible()
    page.wait_for_timeout(1500)   # reveal.js's slide transition
    move_slider(page, view)
    if network:
        sys.exit(f"the deck asked the network for {network}")
    shot = save(page, DECK_SHOT)
    page.close()
    return shot


def site_screenshot(browser) -> Path:
    """Notebook 02's page of the website (`make site`, built here if it is not), its threshold slider moved by
    three key presses, with the network blocked; prints the figure's alt, which the README's text follows."""
    import website  # tools/publishing/website.py

    page_path = website.OUT / NOTEBOOK.replace(".ipynb", ".html")
    if not page_path.is_file():
        website.build()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    network = support.block_network(page)
    page.goto(page_path.as_uri())
    explorer = page.locator(".explorer").first
    explorer.locator(".explorer-how").click()
    page.keyboard.press("Tab")
    for _ in range(PRESSES):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("e => e.dataset.framesPending === '0'", arg=explorer.element_handle())
    explorer.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.evaluate("() => window.scrollBy(0, -60)")
    page.wait_for_timeout(300)
    if network:
        sys.exit(f"the site asked the network for {network}")
    print("site figure alt:", explorer.locator(".explorer-frame img").get_attribute("alt"))
    print("site status:", explorer.locator(".explorer-status").text_content())
    shot = save(page, SITE_SHOT)
    page.close()
    return shot


def main(argv: list[str]) -> int:
    only = argv[0] if argv else None   # "lab", "deck" or "site": retake one of the three
    if not Path(support.CHROMIUM).exists():
        sys.exit(f"{support.CHROMIUM} is missing: `make screenshots` installs it (apt-get install chromium)")
    expect.set_options(timeout=60_000)   # as the browser tests (a Run All on a busy machine)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=support.CHROMIUM, args=support.CHROMIUM_ARGS)
        try:
            takers = {"lab": lab_screenshot, "deck": deck_screenshot, "site": site_screenshot}
            for shot in (take(browser) for name, take in takers.items() if only in (None, name)):
                width, height = Image.open(shot).size
                print(f"{shot.relative_to(ROOT)}: {width} x {height}, {shot.stat().st_size / 1e3:.0f} kB")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
