"""Lecture mode in the browser: slider latency, Run-All times, slide counts and overflow.

    python bench/bench_browser.py          # the kernel's CPU per move, then the browser figures
    python bench/bench_browser.py --cpu    # only the kernel's CPU per move (no browser, a few seconds)
    python bench/bench_browser.py --decks  # only the offline decks (build, sizes, slider moves)

First, without a browser: the kernel-side CPU time of one slider move (state,
draw, PNG encoding and text), median over 20 moves between cached states, for
every slider of the course, with the load average (the browser latency below
includes this, the comm round trip and the page's rendering). Then it starts JupyterLab (as the browser tests do: tests/browser_support.py) and drives headless Chromium
at 1280 x 720:

- Run All: Kernel > Restart Kernel and Run All Cells on each course notebook
  with a slider, seconds until every cell ran;
- latency: for every slider of every explorer, the time from the key press
  (an arrow key on the focused handle, measured in the page) until both the
  number panel and the figure show the new value; median and maximum over 20
  moves (target: median <= 100 ms). It also counts the moves during which the
  number panel was empty at any moment (target: 0);
- decks: `make slides` (all decks, two at a time: build time, limit 3 minutes
  on 2 cores), each deck's size (limit 25 MB), its slides and how many are
  taller or wider than the 1280 x 720 slide (they scroll), and for every
  slider of every deck, with the network blocked, the time from an arrow key
  to the animation frame that shows the new frame and number panel, and the
  moves whose frame was not there at that first animation frame (limit: 0).

Figures are printed, not asserted (timings on 2 shared cores are noisy).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import matplotlib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

import decks  # noqa: E402  (tools/publishing/decks.py: the offline decks)
import browser_support as tb  # noqa: E402

MOVES = 20
TARGET_MS = 100


def course_explorers():
    """(name, explorer, control, values to move between) for every slider, built as the notebooks build them."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from helpers.curves import noisy_sample
    from helpers.cv import cv_spread_state
    from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
    from helpers.resampling import toy_imbalanced
    from helpers.widgets import (complexity_explorer, cv_spread_explorer, fbeta_explorer, smote_explorer,
                                 threshold_explorer)
    import numpy as np

    yield "01 beta", fbeta_explorer(), "beta", [1.0, 1.25, 1.5, 1.25]
    threshold = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.5)
    yield "02 threshold", threshold, "threshold", [0.5, 0.505, 0.51, 0.505]
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression())
    states = {(k, r): cv_spread_state(model, X, y, k, r) for k in (5, 10) for r in (4, 5)}  # cached, as in 03
    cv = cv_spread_explorer(model, X, y, states=states, xlim=(0.95, 1.0))  # 03 fixes its x-axis too
    yield "03 k", cv, "k", [5, 10]
    yield "03 repeats", cv, "n_repeats", [5, 4]
    X_toy, y_toy = toy_imbalanced(n_majority=150, n_minority=15, random_state=0)
    smote = smote_explorer(X_toy, y_toy)
    yield "04 k_neighbors", smote, "k_neighbors", [5, 6, 5, 4]
    yield "04 ratio", smote, "ratio", [0.5, 0.6, 0.5, 0.4]
    x, y_ = noisy_sample(lambda v: np.sin(2 * np.pi * v), 30, 0.3, random_state=0)
    x_val, y_val = noisy_sample(lambda v: np.sin(2 * np.pi * v), 200, 0.3, random_state=1)
    yield "05 degree", complexity_explorer(x, y_, x_val, y_val, degree=1, noise=0.09), "degree", [1, 2, 3, 2]


def bench_cpu() -> None:
    """The kernel's CPU per slider move: state + blit + PNG + text, as the callback runs it."""
    matplotlib.use("Agg")
    print(f"kernel CPU per slider move (state + draw + PNG + text), median of {MOVES} moves; "
          f"load average {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores:")
    for name, explorer, control, values in course_explorers():
        slider = explorer.controls[control]
        cpu, wall = [], []
        for move in range(MOVES + len(values)):
            value = values[move % len(values)]
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            slider.value = value
            if move >= len(values):  # the first round fills the caches
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start_wall)
        print(f"  {name:<15s} CPU {statistics.median(cpu) * 1000:6.1f} ms, wall {statistics.median(wall) * 1000:6.1f} ms, "
              f"PNG {len(explorer.image.value) / 1024:5.1f} KiB")

# Watches one explorer from the key press until the panel and the image have both changed.
WATCH = """
view => { window.__courseLatency = new Promise(resolve => {
  const panel = view.querySelectorAll('.widget-html pre');
  const pre = panel[panel.length - 1], img = view.querySelector('.widget-image');
  const text0 = pre.textContent, src0 = img.src;
  let start = null, textAt = null, imgAt = null, vanished = false;
  const handle = document.activeElement;
  handle.addEventListener('keydown', () => { start = performance.now(); }, {once: true, capture: true});
  const check = () => {
    const now = performance.now();
    const current = view.querySelectorAll('.widget-html pre');
    const text = current.length ? current[current.length - 1].textContent : '';
    if (start !== null && text.trim() === '') vanished = true;
    if (start !== null && textAt === null && text !== text0 && text.trim() !== '') textAt = now;
    if (start !== null && imgAt === null && view.querySelector('.widget-image').src !== src0) imgAt = now;
    if (textAt !== null && imgAt !== null) {
      observer.disconnect();
      resolve({ms: Math.max(textAt, imgAt) - start, vanished});
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(view, {subtree: true, childList: true, characterData: true, attributes: true,
                          attributeFilter: ['src']});
  setTimeout(() => { observer.disconnect(); resolve({ms: null, vanished}); }, 10000);
}); }
"""


def slider_latencies(page, view, slider) -> tuple[list[float], int]:
    times, vanished = [], 0
    handle = slider.locator(".noUi-handle")
    for move in range(MOVES):
        position = tb.handle_position(slider)
        key = "ArrowLeft" if position > 0.95 or (move % 2 and position > 0.05) else "ArrowRight"
        handle.focus()
        view.evaluate(WATCH)  # arms the watcher; the promise waits in the page
        page.keyboard.press(key)
        outcome = page.evaluate("() => window.__courseLatency")
        if outcome["ms"] is not None:
            times.append(outcome["ms"])
        vanished += bool(outcome["vanished"])
        time.sleep(0.3)  # let the kernel's echo arrive before the next move
    return times, vanished


def bench_lab(browser, served) -> None:
    print(f"browser at {tb.PROJECTOR['width']} x {tb.PROJECTOR['height']}, median over {MOVES} key presses:")
    for name in tb.COURSE:
        page = tb.open_course_notebook(browser, served, name, f"bench-{name[:2]}")
        seconds = tb.restart_and_run_all(page)
        print(f"  {name:<28s} Restart and Run All {seconds:6.1f} s")
        views = tb.explorers(page)
        for index in range(views.count()):
            view = views.nth(index)
            view.scroll_into_view_if_needed()
            expect(view.locator(tb.PANEL).last).not_to_be_empty()
            sliders = view.locator(".widget-slider")
            for s in range(sliders.count()):
                label = sliders.nth(s).locator(".widget-label").text_content().strip() or f"slider {s}"
                times, vanished = slider_latencies(page, view.element_handle(), sliders.nth(s))
                if times:
                    median = statistics.median(times)
                    verdict = "ok" if median <= TARGET_MS else f"ABOVE {TARGET_MS} ms"
                    print(f"    explorer {index} {label:<10s} median {median:6.0f} ms, max {max(times):6.0f} ms "
                          f"({len(times)}/{MOVES} moves) [{verdict}]; panel empty during {vanished} move(s)")
                else:
                    print(f"    explorer {index} {label:<10s} no update within 10 s")
        page.close()


def deck_slider_latencies(page, view, slider) -> list[float]:
    """Milliseconds from an arrow key on the focused handle to the animation frame that shows the new frame
    (``None`` for a move whose frame was not there at that animation frame)."""
    times = []
    handle = slider.locator(".noUi-handle")
    handle.focus()
    for move in range(MOVES):
        position = tb.handle_position(slider)
        key = "ArrowLeft" if position > 0.95 or (move % 2 and position > 0.05) else "ArrowRight"
        view.evaluate(tb.ARM_FRAME_CHECK)
        page.keyboard.press(key)
        outcome = page.evaluate("() => window.__courseFrame")
        shown = view.evaluate(tb.VISIBLE_FRAME)
        times.append(outcome["ms"] if outcome["complete"] and outcome["panel"] == shown["panel"] else None)
    return times


def bench_decks(browser) -> None:
    if decks.missing_assets():
        print("\nslides: run `make slides` first (build/slides/vendor is missing)")
        return
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"\nmake slides: {len(paths)} decks, two at a time; load average {os.getloadavg()[0]:.2f} (1 min):")
    start = time.perf_counter()
    built = decks.write_decks(paths)
    total = time.perf_counter() - start
    for deck, seconds in built:
        size = deck.stat().st_size / 1e6
        verdict = "ok" if size <= decks.MAX_DECK_MB else f"OVER {decks.MAX_DECK_MB} MB"
        print(f"  {deck.name:<36s} {size:5.1f} MB [{verdict}], {seconds:5.0f} s")
    print(f"  all decks built in {total:.0f} s [{'ok' if total <= 180 else 'OVER 180 s'}]")
    print(f"offline decks at {tb.PROJECTOR['width']} x {tb.PROJECTOR['height']} (build/slides), "
          f"network blocked; slider moves: key press to the animation frame showing the new frame:")
    for deck, _ in built:
        page = browser.new_page(viewport=tb.PROJECTOR)
        tb.block_network(page)
        page.goto(deck.as_uri())
        expect(page.locator(".reveal.ready")).to_have_count(1, timeout=30_000)
        counts = page.evaluate("""() => {
          const Reveal = require('vendor/node_modules/reveal.js/dist/reveal.js');
          const all = Reveal.getSlides();
          let tall = 0, wide = 0;
          for (const slide of all) {
            Reveal.slide(...Object.values(Reveal.getIndices(slide)));
            if (slide.scrollHeight > slide.clientHeight + 2) tall += 1;
            if ([...slide.querySelectorAll('*')].some(e => e.getBoundingClientRect().right >
                 slide.getBoundingClientRect().right + 2 && e.offsetParent !== null &&
                 !e.closest('.jp-OutputArea-output, .jp-RenderedHTMLCommon table'))) wide += 1;
          }
          return {slides: all.length, tall, wide};
        }""")
        print(f"  {deck.name:<36s} {counts['slides']:3d} slides, {counts['tall']} taller than the slide "
              f"(they scroll), {counts['wide']} wider")
        views = page.locator(".course-deck-explorer")
        for index in range(views.count()):
            view = views.nth(index)
            indices = view.evaluate(f"v => {tb.REVEAL}.getIndices(v.closest('.slides section:not(.stack)'))")
            page.evaluate(f"i => {tb.REVEAL}.slide(i.h, i.v)", indices)
            sliders = view.locator(".widget-slider")
            for s in range(sliders.count()):
                label = sliders.nth(s).locator(".widget-label").text_content().strip()
                times = deck_slider_latencies(page, view, sliders.nth(s))
                late = sum(t is None for t in times)
                shown = [t for t in times if t is not None]
                median = f"{statistics.median(shown):5.1f} ms" if shown else "   -"
                print(f"    explorer {index} {label:<12s} median {median}, max "
                      f"{max(shown) if shown else float('nan'):5.1f} ms over {MOVES} moves; "
                      f"frame missing at the first animation frame: {late} [{'ok' if late == 0 else 'LATE'}]")
        page.close()


def main() -> None:
    if "--decks" in sys.argv[1:]:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=tb.CHROMIUM, args=tb.CHROMIUM_ARGS)
            expect.set_options(timeout=60_000)
            bench_decks(browser)
            browser.close()
        return
    bench_cpu()
    if "--cpu" in sys.argv[1:]:
        return
    print(f"\nload average before the browser: {os.getloadavg()[0]:.2f} (1 min)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=tb.CHROMIUM, args=tb.CHROMIUM_ARGS)
        expect.set_options(timeout=60_000)
        with tempfile.TemporaryDirectory() as folder, tb.serve_lab(Path(folder)) as served:
            bench_lab(browser, served)
        bench_decks(browser)
        browser.close()
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
