"""Browser tests of the live slideshow (jupyterlab-slideshow in the lecture JupyterLab of `make present`, at
1280 x 720): a lecturer's walk through every slide of every lecture version with the keys the README names and
the on-screen remote, after a real Restart Kernel and Run All; and each slider's slide, its sliders moved by
keyboard and by drag, the figure and numbers the pure state function's.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from browser_support import (ROOT, SCREENSHOTS, SMALL_FIGURES, TEXT_TABLE, WIDE_TABLES, check_explorer, explorers, Kernel, lecture,
                             open_course_notebook, restart_and_run_all, serve_lab)

import frames  # noqa: E402  (tools/publishing/frames.py, on the path by browser_support: the figure recorder)

pytestmark = pytest.mark.slow


LECTURES = sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lecture JupyterLab (the options of `make present`: presenting style, nbgrader off, its own settings)
    over the browser tests' folder, with the live lecture version of every notebook in lecture/."""
    root = tmp_path_factory.mktemp("present")
    options, env = lecture.present_options(root / ".config")
    startup = root / ".ipython" / "profile_default" / "startup" / "00-figure-text.py"
    startup.parent.mkdir(parents=True)
    startup.write_text(frames.FIGURE_RECORDER)  # the smallest text of every figure shown, in display order
    with serve_lab(root, options, {**env, "IPYTHONDIR": str(root / ".ipython")}) as served:
        for name in LECTURES:
            lecture.write_lecture(ROOT / "notebooks" / name, root / "lecture")
        yield served
    shutil.rmtree(root, ignore_errors=True)




# --------------------------------------------------------------------------- a lecturer's walk, key by key
# What the projector shows now: the cells on screen (their indexes), whether something is drawn there (text,
# an image, a widget inside the window), where the focus is, how tall the slide is against the window, and
# the smallest body text and code font on screen.
SCREEN = """() => {
  const deck = document.querySelector('.jp-Deck');
  const notebook = deck && deck.querySelector('.jp-Notebook');
  const cells = notebook ? [...notebook.querySelectorAll(':scope .jp-Cell')] : [];
  const on = cells.map((c, k) => [c, k]).filter(([c]) => c.classList.contains('jp-deck-mod-onscreen')
      && c.classList.contains('jp-deck-mod-visible'));
  const inView = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
      return r.width > 4 && r.height > 4 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth
             && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.5; };
  let drawn = 0, text = '', tall = 0, bodyPx = 99, codePx = 99, bodyAt = '', codeAt = '', panelPx = 99,
      figureScale = 99, backticks = '';
  for (const [cell] of on) {
    const shown = [...cell.querySelectorAll('p, li, td, th, h1, h2, h3, pre, .cm-line, img, svg, .widget-slider')]
        .filter(inView);
    drawn += shown.length;
    text += cell.innerText.trim().slice(0, 80) + ' | ';
    for (const e of cell.querySelectorAll('.jp-RenderedMarkdown p, .jp-RenderedMarkdown li')) {
      const px = parseFloat(getComputedStyle(e).fontSize); if (inView(e) && px < bodyPx) { bodyPx = px; bodyAt = e.innerText.slice(0, 40); } }
    for (const e of cell.querySelectorAll('.cm-content, .jp-RenderedMarkdown pre, .jp-OutputArea-output pre')) {
      const px = parseFloat(getComputedStyle(e).fontSize); if (inView(e) && px < codePx) { codePx = px; codeAt = e.innerText.slice(0, 40); } }
    for (const e of cell.querySelectorAll('.widget-html pre')) {  // a slider's number panel
      if (inView(e)) panelPx = Math.min(panelPx, parseFloat(getComputedStyle(e).fontSize)); }
    for (const e of cell.querySelectorAll('.widget-image')) {  // a slider's figure: the scale its pixels are shown at
      // (the picture is fitted inside the image's box, object-fit: contain, so the tighter of the two ratios)
      const r = e.getBoundingClientRect();
      if (inView(e) && e.naturalWidth) figureScale = Math.min(figureScale, r.width / e.naturalWidth, r.height / e.naturalHeight); }
    for (const e of cell.querySelectorAll('.concept-check')) {
      if (inView(e) && e.innerText.includes('`')) backticks = e.innerText.slice(0, 80); }
  }
  // what a box on screen hides (it scrolls, or clips): the most pixels hidden, down or across, and where; a table
  // whose cells wrap a number ("0.315 (0." / "065)")
  """ + TEXT_TABLE + """
  let hidden = 0, hiddenAt = '', wrapped = '', wrappedTable = '';
  for (const [cell] of on) {
    for (const e of cell.querySelectorAll('.jp-Cell-outputArea, .jp-OutputArea-output, .jp-RenderedHTMLCommon, pre, table')) {
      const s = getComputedStyle(e);
      if (!inView(e) || (s.overflowY === 'visible' && s.overflowX === 'visible')) continue;
      const px = Math.max(e.scrollHeight - e.clientHeight, e.scrollWidth - e.clientWidth);
      if (px > hidden) { hidden = px; hiddenAt = e.innerText.trim().slice(0, 60); } }
    for (const td of cell.querySelectorAll('.jp-OutputArea-output td, .jp-OutputArea-output th')) {
      const line = parseFloat(getComputedStyle(td).lineHeight) || 1.4 * parseFloat(getComputedStyle(td).fontSize);
      if (!wrappedTable && inView(td) && /[0-9]/.test(td.innerText) && td.getBoundingClientRect().height > 1.6 * line + 8)
        wrapped = wrappedTable = td.innerText.slice(0, 40); }
    for (const pre of cell.querySelectorAll('.jp-OutputArea-output pre')) {  // a text: more lines drawn than it has
      const line = parseFloat(getComputedStyle(pre).lineHeight) || 1.2 * parseFloat(getComputedStyle(pre).fontSize);
      const rows = pre.innerText.replace(/\\n$/, '').split('\\n').length;
      if (!wrapped && inView(pre) && pre.scrollHeight > (rows + 0.5) * line) wrapped = pre.innerText.slice(0, 40);
      if (!wrappedTable && inView(pre) && tableWraps(pre)) wrappedTable = pre.innerText.trim().slice(0, 40); }
  }
  // each static figure on screen (an output image that is no slider's): its index among the notebook's static
  // images, in order, and the scale its pixels are shown at
  const statics = [...document.querySelectorAll('.jp-Deck .jp-OutputArea-output img:not(.widget-image)')];
  const figures = statics.flatMap((e, k) => inView(e) && e.naturalWidth
      ? [[k, Math.min(e.getBoundingClientRect().width / e.naturalWidth, e.getBoundingClientRect().height / e.naturalHeight)]] : []);
  // the first explorer (a slider's output area, tests/browser_support.py explorers) shown now, as Playwright's
  // is_visible sees it (a box on the page, not hidden), or -1
  const shownExplorer = [...document.querySelectorAll('.jp-OutputArea-output:has(.widget-image)')].findIndex(e => {
      const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; });
  const active = document.activeElement;
  return {on: on.map(([, k]) => k), drawn, hidden, hiddenAt, wrapped, wrappedTable, figures, statics: statics.length, explorer: shownExplorer, text, bodyPx, codePx, bodyAt, codeAt, panelPx, figureScale, backticks,
          focus: !!(active && notebook && notebook.contains(active)),
          focusAt: active ? active.tagName + '.' + active.className : null,
          // taller than the window: the notebook scrolls, or a cell on screen runs past the window's bottom or top
          // (the deck's scroll container clips it without the notebook growing: measured on the cells themselves)
          overflow: Math.round(Math.max(notebook ? notebook.scrollHeight - notebook.clientHeight : 0,
              ...on.map(([c]) => { const r = c.getBoundingClientRect(); return r.height > 0 ? Math.max(r.bottom - innerHeight, -r.top) : 0; }))),
          presenting: document.body.dataset.jpDeckMode === 'presenting',
          enabled: Object.fromEntries(['forward', 'back', 'up', 'down'].map(d => {
              const b = document.querySelector('.jp-Deck-Remote .jp-deck-mod-direction-' + d);
              return [d, !!b && !b.classList.contains('jp-mod-disabled')]; }))};
}"""
# The presenter's keys (tools/publishing/present/shortcuts.json, docs/slides.md): a clicker sends PageDown/PageUp
# (some send the arrows). Every key forward goes to the next stop in order, every key back to the one before. The
# walk presses mostly PageDown
# and, now and then, the other keys and the on-screen remote; back and forth with each key back in turn.
FORWARD_KEYS = ["PageDown", "PageDown", "Space", "PageDown", "ArrowRight", "PageDown", "ArrowDown"]
BACK_KEYS = ["PageUp", "Shift+Space", "ArrowLeft", "PageUp", "ArrowUp"]
NOTES = "Speaker notes"
# In the notebook's kernel (tests/browser_support.py Kernel): the smallest text of explorer {index}'s figure, in
# px at the figure's own size (every course slider keeps its figure in `.figure`).
FIGURE_TEXT_PX = "__import__('helpers.widgets').widgets.smallest_text_px(_course_explorers()[{index}].figure)"


# One look at the screen after a key press or a click, waited for in the page: animation frame by animation
# frame until the cells on screen differ from `before` and they and the remote's buttons stay the same for two
# more frames (or `timeout` ms pass: the key did nothing), then until those cells are opaque (the deck fades
# them in over 0.1 s), then SCREEN once. One evaluation per press, where polling SCREEN from Python every 40 ms
# took three or more.
SETTLE = """async ([before, timeout]) => {
  const onscreen = () => { const notebook = document.querySelector('.jp-Deck .jp-Notebook');
    const cells = notebook ? [...notebook.querySelectorAll(':scope .jp-Cell')] : [];
    return JSON.stringify(cells.flatMap((c, k) => c.classList.contains('jp-deck-mod-onscreen')
                                                 && c.classList.contains('jp-deck-mod-visible') ? [k] : [])); };
  // the remote's buttons are enabled or greyed a moment after the cells change: they must have settled too
  const remote = () => [...document.querySelectorAll('.jp-Deck-Remote button')].map(b => b.className).join();
  const frame = () => new Promise(done => requestAnimationFrame(done));
  const want = JSON.stringify(before), start = performance.now();
  let last = null, same = 0, frames = 0;
  for (;;) {
    await frame(); frames++;
    const cells = onscreen(), now = cells + '|' + remote();
    same = now === last ? same + 1 : 0;
    if ((cells !== want && same >= 2) || performance.now() - start > timeout) break;
    last = now;
  }
  const cells = [...document.querySelectorAll('.jp-Deck .jp-Cell.jp-deck-mod-onscreen.jp-deck-mod-visible')];
  while (cells.some(c => Number(getComputedStyle(c).opacity) < 0.99) && performance.now() - start < timeout) {
    await frame(); frames++;
  }
  await frame();
  const look = (""" + SCREEN + """)();
  look.frames = frames + 1;
  return look;
}"""
LOOKS = {"evaluations": 0, "frames": 0, "seconds": 0.0}  # what the walk cost the page, whatever the machine's load


def stops_of(path: Path) -> dict[int, str]:
    """The stops of a live lecture version, in order: the index of each slide's and sub-slide's first cell -> its
    kind (``slide`` or ``subslide``)."""
    cells = nbformat.read(path, as_version=4).cells
    return {k: lecture.kind(cell) for k, cell in enumerate(cells) if lecture.kind(cell) in ("slide", "subslide")}


def slides_of(path: Path) -> int:
    """The number of slides and sub-slides of a live lecture version (each is one stop of the slideshow)."""
    return len(stops_of(path))


def expected_stop(stops: dict[int, str], here: int, key: str) -> int:
    """The stop a presenter's key goes to from stop ``here`` (the first cell's index) in a walk that went through
    every stop in order: forward, the next stop; back, the one before (from a section's first stop, the stop the
    previous section was left from: its last one)."""
    order = list(stops)
    at = order.index(here)
    if key in BACK_KEYS:
        return order[max(at - 1, 0)]
    return order[min(at + 1, len(order) - 1)]


def settle(page, before: list[int], timeout: float = 5.0) -> dict:
    """The screen after a key press or a click: as soon as the cells on screen differ from ``before`` and have
    stayed so for an animation frame, their fade-in over (or after ``timeout`` seconds, when the key did
    nothing). One evaluation in the page (SETTLE)."""
    LOOKS["evaluations"] += 1
    start = time.monotonic()
    now = page.evaluate(SETTLE, [before, timeout * 1000])
    LOOKS["frames"] += now.pop("frames")
    LOOKS["seconds"] += time.monotonic() - start
    return now


@pytest.mark.parametrize("name", LECTURES, ids=lambda n: n[:2])
def test_a_lecturer_presents_every_slide_with_the_keys(browser, lab, name):
    """Restart Kernel and Run All (the menu) on the live lecture version: no error output, every figure still on
    its slide. Then the slideshow, started with its toolbar button on the first cell, is walked to its end with
    the keys a clicker sends (mostly PageDown; Space, ArrowRight, ArrowDown and the remote's buttons now and then),
    with PageUp/Shift+Space/ArrowLeft/ArrowUp back and forth on the way: every key goes to exactly the stop
    docs/slides.md says (expected_stop), never skipping a sub-slide. After each press: the screen shows something,
    changed, the focus is in the notebook, no speaker
    notes, no concept check showing raw markdown, text at least 20 px and code 18 px, the slide no taller than
    the window; a slider's figure text (as projected) and number panel at least 18 px. Every slide is reached. On a
    slider's slide its sliders move by keyboard and by drag, the figure and numbers its pure state function's in
    the same kernel (tests/browser_support.py check_explorer), and PageDown on its focused handle then moves on to
    the next stop without changing the slider (the lecture JupyterLab's extension, tools/publishing/present/speaker,
    gives PageDown/PageUp/Space to the slideshow on a focused slider; tests/test_browser_speaker.py presses the others
    and Escape there)."""
    _, _, root = lab
    path = f"lecture/{name}"
    page = open_course_notebook(browser, lab, path, f"walk-{name[:2]}")
    problems, figures, kernel = [], {}, None
    try:
        seconds = restart_and_run_all(page)
        errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        assert errors.count() == 0, f"{name}: Run All wrote errors or warnings: {errors.first.text_content()[:300]}"
        # a cell whose outputs have a sub-slide of their own (tools/publishing/lecture.py) still has them after Run All
        hidden = page.locator(".jp-Notebook .jp-CodeCell:has(.jp-InputPlaceholder)")
        emptied = [k for k in range(hidden.count()) if hidden.nth(k).locator(".jp-OutputArea-output").count() == 0]
        assert not emptied, f"{name}: Run All emptied {len(emptied)} outputs-only sub-slides"
        assert "BEGIN SOLUTION" not in page.locator(".jp-Notebook").text_content()
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.locator(".jp-NotebookPanel-toolbar [data-jp-item-name='deck'] jp-button").click()  # the deck button
        expect(page.locator("body[data-jp-deck-mode='presenting']")).to_have_count(1)
        looks_before, walk_start = dict(LOOKS), time.monotonic()
        now = settle(page, [])
        assert now["drawn"] and now["focus"], f"{name}: the first slide: {now}"
        seen, presses, blank, dead, step = [now["on"]], 0, 0, 0, 0
        stops = stops_of(root / path)
        assert min(now["on"]) == list(stops)[0], f"{name}: the slideshow started at cell {now['on']}"
        keys_used: dict[str, int] = {}
        cut, wraps, tables = [], [], []  # stops where a box hides pixels, a text wraps, a table wraps a number
        scales: dict[int, float] = {}  # static image (its index) -> the smallest scale it was shown at
        checked, kernel, readable = set(), None, {}

        def check(now, key, before):
            nonlocal blank, dead
            where = f"{name} slide {len(seen)} after {key}"
            if now["on"] == before:
                dead += 1
                problems.append(f"{where}: nothing changed ({now['text'][:60]!r})")
            if not now["drawn"]:
                blank += 1
                problems.append(f"{where}: blank screen")
            if not now["focus"]:
                problems.append(f"{where}: the focus left the notebook ({now['focusAt']})")
            if not now["presenting"]:
                problems.append(f"{where}: the slideshow ended")
            if NOTES in now["text"]:
                problems.append(f"{where}: speaker notes on the projected slide")
            if now["bodyPx"] < 20:
                problems.append(f"{where}: body text {now['bodyPx']} px ({now['bodyAt']!r})")
            if now["codePx"] < 18:
                problems.append(f"{where}: code {now['codePx']} px ({now['codeAt']!r})")
            if now["backticks"]:
                problems.append(f"{where}: a concept check shows raw markdown ({now['backticks']!r})")
            if now["overflow"] > 2:
                problems.append(f"{where}: {now['overflow']} px taller than the window")
            for index, scale in now["figures"]:
                scales[index] = min(scale, scales.get(index, scale))
            if now["hidden"] > 0 and key not in BACK_KEYS:
                cut.append((len(seen), now["hidden"], now["hiddenAt"][:40]))
            if now["wrapped"] and key not in BACK_KEYS:
                wraps.append((len(seen), now["wrapped"]))
            if now["wrappedTable"] and key not in BACK_KEYS:
                tables.append((len(seen), now["wrappedTable"]))
            if key in FORWARD_KEYS + BACK_KEYS and before and now["on"]:
                want = expected_stop(stops, min(before), key)
                if min(now["on"]) != want:
                    problems.append(f"{where}: went to the stop at cell {min(now['on'])}, not {want} "
                                    f"(from the stop at cell {min(before)})")

        def press(key):
            nonlocal presses, now
            before = now["on"]  # the screen as the last look left it (a slider's moves change no slide)
            if key.startswith("remote-"):
                page.locator(f".jp-Deck-Remote .jp-deck-mod-direction-{key[7:]}").click()
            else:
                page.keyboard.press(key)
            presses += 1
            keys_used[key] = keys_used.get(key, 0) + 1
            now = settle(page, before)
            check(now, key, before)
            return now

        while now["enabled"]["forward"] or now["enabled"]["down"]:
            step += 1
            if step % 7 == 0:
                key = "remote-down" if now["enabled"]["down"] else "remote-forward"
            else:
                key = FORWARD_KEYS[step % len(FORWARD_KEYS)]
            now = press(key)
            if problems:
                break
            if now["on"] not in seen:
                seen.append(now["on"])
            shown = now["explorer"]  # the first explorer on screen (one look per press, SETTLE), or -1
            if shown >= 0 and shown not in checked:  # a slider's slide: move its sliders, then Space moves on
                assert explorers(page).nth(shown).is_visible(), f"{name}: explorer {shown} is not on screen"
                kernel = kernel or Kernel(lab, path)
                check_explorer(page, kernel, shown, f"live-{name}", move=True)
                checked.add(shown)
                # its figure's smallest text as projected: the size drawn (points at 96 px per inch) times the
                # scale the slide shows the image at; and its number panel's font
                drawn_px = kernel.value(FIGURE_TEXT_PX.format(index=shown))
                readable[shown] = {"figure_text_px": round(drawn_px * now["figureScale"], 1),
                                   "panel_px": now["panelPx"]}
                if min(readable[shown].values()) < 18:
                    problems.append(f"{name} slider {shown}: text too small from the back of the room: "
                                    f"{readable[shown]}")
                values = explorers(page).nth(shown).locator(".widget-readout").all_text_contents()
                # a clicker's PageDown on the focused slider (its handle, as after a move) moves on, not the slider
                explorers(page).nth(shown).locator(".noUi-handle").first.focus()
                now = press("PageDown")
                after = explorers(page).nth(shown).locator(".widget-readout").all_text_contents()
                if after != values:
                    problems.append(f"{name} slider {shown}: PageDown changed the slider {values} -> {after}")
                if now["on"] not in seen:
                    seen.append(now["on"])
                if now["enabled"]["forward"] or now["enabled"]["down"]:  # the slider gave the clicker's key back
                    now = press("PageDown")
                    if now["on"] not in seen:
                        seen.append(now["on"])
                continue
            if step % 5 == 0:  # back and forth: the key back returns to a slide already seen, then on again
                there = now["on"]
                back = BACK_KEYS[(step // 5) % len(BACK_KEYS)]
                now = press(back)
                assert now["on"] in seen, f"{name}: {back} went to a slide not seen before"
                for _ in range(60):
                    if now["on"] == there or problems:
                        break
                    now = press("PageDown")
                assert now["on"] == there or problems, f"{name}: PageDown did not come back after {back}"
            if now["on"] not in seen:
                seen.append(now["on"])
            if problems:
                break
            if len(seen) % 25 == 0:
                page.screenshot(path=SCREENSHOTS / f"walk-{name[:2]}-{len(seen)}.png")
        assert not problems, "\n".join(problems[:10])
        slides = slides_of(root / path)
        assert len(seen) == slides, f"{name}: the keys reached {len(seen)} of the {slides} slides"
        assert "End of" in now["text"], f"{name}: the walk ended before the closing slide: {now['text'][:80]}"
        assert len(checked) == explorers(page).count(), f"{name}: {len(checked)} sliders reached by the keys"
        assert set(keys_used) >= set(FORWARD_KEYS + BACK_KEYS), f"{name}: keys never pressed: {keys_used}"
        # the static figures' smallest text as projected (recorded, not yet failed on: the figures are drawn by
        # helpers/ for the notebook's width): drawn size (the kernel's record) times the scale shown
        kernel = kernel or Kernel(lab, path)
        drawn = kernel.value(f"[[px, title] for _, px, title in __import__('builtins').__dict__.get("
                             f"'{frames.FIGURES_RECORDED}', [])]")
        projected = {index: round(drawn[index][0] * scale, 1) for index, scale in scales.items()
                     if len(drawn) == now["statics"] and drawn[index][0]}
        small = sorted({drawn[index][1] for index, px in projected.items() if px < 18})
        static_text = {"figures": now["statics"], "recorded": len(drawn), "reached": len(scales),
                       "smallest_px": min(projected.values(), default=None),
                       "under_18": len([px for px in projected.values() if px < 18])}
        figures[name] = {"slides": slides, "presses": presses, "keys": keys_used, "blank": blank, "dead": dead,
                         "run_all_s": round(seconds, 1),
                         "evaluations_per_press": round((LOOKS["evaluations"] - looks_before["evaluations"]) / presses, 2),
                         "frames_per_press": round((LOOKS["frames"] - looks_before["frames"]) / presses, 1),
                         "settle_ms_per_press": round((LOOKS["seconds"] - looks_before["seconds"]) / presses * 1000),
                         "walk_s": round(time.monotonic() - walk_start, 1),
                         "sliders_text_px": readable, "static_text": static_text, "cut": cut, "wrapped": wraps,
                         "wrapped_tables": tables, "small_figures": small,
                         "static_px": {drawn[index][1]: px for index, px in sorted(projected.items())}}
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"walk-{name[:2]}.json").write_text(json.dumps(figures[name]))
        print(f"\n{name}: {figures[name]}")
        # nothing on a stop is cut (the presenter's keys cannot scroll a box): every stop of the walk, listed at once
        assert not cut, f"{name}: a box hides pixels on {len(cut)} stops (stop, px, text): {cut}"
        # no text table wraps a number, but for the ones too wide for the slide at 18 px that docs/slides.md lists
        # (WIDE_TABLES: each still wraps, so one made narrower leaves the list)
        known = WIDE_TABLES.get(name[:2], ())
        assert all(any(text.startswith(k) for k in known) for _, text in tables), f"{name}: tables wrap: {tables}"
        assert all(any(text.startswith(k) for _, text in tables) for k in known), f"{name}: {known} no longer wrap"
        # every static figure's text as projected is 18 px or more, but for those docs/slides.md lists (SMALL_FIGURES:
        # the text would run into itself at that size; each still small, so one redrawn leaves the list)
        assert static_text["reached"] == static_text["figures"] == static_text["recorded"], static_text
        assert small == sorted(SMALL_FIGURES.get(name[:2], ())), f"{name}: static figures under 18 px: {small}"
    finally:
        if kernel:
            kernel.close()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"walk-{name[:2]}-last.png")
        page.evaluate("() => window.jupyterapp.commands.execute('deck:stop')")
        page.close()
