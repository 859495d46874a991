"""Browser tests of the offline decks of `make slides` (built once per run by tests/conftest.py), opened from
files in headless Chromium with every other request blocked: they show as slides and advance, and every
slider, moved by keyboard and by drag, shows the live explorer's figure, numbers and text alternative at the
values its readouts show, from the first animation frame after a key press; every slide fits the screen and
reads from the back of the room (body, code, tables, and every static figure's smallest text as projected, the
figures drawn for the projector by the deck run); a presenter's remote walks every slide; the speaker view shows
each slide's notes and the next slide unobscured.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from browser_support import (ARM_FRAME_CHECK, COURSE, PROJECTOR, REVEAL, ROOT, SCREENSHOTS, SMALL_FIGURES, TEXT_TABLE,
                             VISIBLE_FRAME, WIDE_TABLES,
                             answer_concept_check, assert_drawn, block_network, handle_position, patience,
                             pixels_sha256, reference_kernel)

import lecture  # noqa: E402  (tools/publishing/lecture.py: the speaker notes)
import decks as deck_builder  # noqa: E402  (tools/publishing/decks.py; `decks` is the fixture below)

pytestmark = pytest.mark.slow
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def decks(course_decks):
    """The offline decks of `make slides` of the notebooks with sliders (built once per run: tests/conftest.py)."""
    return [course_decks[Path(name).stem] for name in COURSE]


WIDGET_SCRIPT = re.compile(r'<script type="application/vnd\.jupyter\.widget-(?P<kind>state|view)\+json">(?P<body>.*?)</script>',
                           re.S)


def test_every_widget_a_deck_shows_has_its_state_in_the_deck(decks):
    """A deck re-runs its notebook only up to the last explorer (tools/publishing/decks.py): the widgets after it (concept
    checks) keep their committed state, which must be in the deck with every model it references."""
    for path in decks:
        scripts = [(match["kind"], json.loads(match["body"])) for match in WIDGET_SCRIPT.finditer(path.read_text())]
        states = [body["state"] for kind, body in scripts if kind == "state"]
        assert len(states) == 1, f"{path.name}: {len(states)} widget states embedded, expected 1"
        shown = [body["model_id"] for kind, body in scripts if kind == "view"]
        assert shown, f"{path.name} shows no widget"
        state = states[0]
        outputs = [{"data": {deck_builder.WIDGET_VIEW: {"model_id": model}}} for model in shown]
        missing = sorted(deck_builder.shown_models(outputs, state).missing)
        assert missing == [], f"{path.name} shows widget models with no state: {missing[:5]}"


def test_concept_checks_in_every_deck_show_code_as_code_not_backticks(course_decks):
    """Review item 10: the decks showed "`best_score_`" with its backticks (06 slide 85, 02 slide 41). In each of
    the six decks, every concept check's HTML (in the embedded widget state, the committed one after the last
    explorer) shows no backtick to the reader, and each code span of its notebook's checks is a <code>."""
    from helpers.quiz import CHECKS, checks_for

    for stem, path in course_decks.items():
        if not stem[:2].isdigit():
            continue
        text = path.read_text(encoding="utf-8")
        (state,) = [json.loads(match["body"])["state"] for match in WIDGET_SCRIPT.finditer(text)
                    if match["kind"] == "state"] or [{}]
        checks = [model["state"]["value"] for model in state.values()
                  if 'class="concept-check"' in str(model.get("state", {}).get("value", ""))]
        keys = checks_for(stem[:2])
        assert len(checks) == len(keys), f"{path.name}: {len(checks)} concept checks, the notebook asks {len(keys)}"
        for value in checks:
            shown = re.sub(r"<[^>]+>", "", re.sub(r"<style>.*?</style>", "", value, flags=re.S))
            assert "`" not in shown, f"{path.name}: a concept check shows a backtick: {shown[:120]!r}"
        spans = {span for key in keys for part in (CHECKS[key].question, *CHECKS[key].options, *CHECKS[key].why)
                 for span in part.split("`")[1::2]}
        for span in spans:
            assert any(f"<code>{span}</code>" in value for value in checks), f"{path.name}: `{span}` not as <code>"


def test_a_concept_check_in_a_deck_gives_another_try_and_the_answer_on_request(browser, course_decks):
    """In the offline deck (no Python, no network), reached with Space as a lecturer does: a wrong option says why
    it is wrong and not what is right; "Show the answer" gives it (helpers.quiz.reveal_answer); the right option
    says why and takes "Show the answer" away."""
    from helpers.quiz import CHECKS, checks_for

    key = checks_for("01")[0]
    page = browser.new_page(viewport=PROJECTOR)
    network = block_network(page)
    page.goto(course_decks["01_metrics"].as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
    shown = page.locator(".reveal section.present:not(:has(section)) .concept-check")  # on the current slide
    for _ in range(200):
        if shown.count():
            break
        page.keyboard.press("Space")
    expect(shown.first).to_be_visible()
    assert CHECKS[key].question.replace("`", "") in shown.first.inner_text()
    answer_concept_check(shown.first, key, "the offline deck 01")
    assert network == [], f"the deck asked the network for {network}"
    page.close()


def test_the_deck_run_keeps_the_notebooks_figures_and_gives_the_decks_the_projectors(course_decks):
    """Issue 43: the deck run (tools/publishing/frames.py, shared with the website) draws every static figure for the
    projector and keeps it aside, each with its smallest text as drawn; its outputs keep the notebook's own figures
    (the website shows those), and the deck shows the projector's (whether they fit their slides:
    test_every_deck_slide_fits_the_screen_and_reads_from_the_back_of_the_room)."""
    import frames

    for path in NOTEBOOKS:
        committed, run = nbformat.read(path, as_version=4), frames.rendered(path)  # built by course_decks: cached
        drawn = run.metadata[frames.PROJECTOR_FIGURES]
        deck = course_decks[path.stem].read_text(encoding="utf-8")
        changed = 0
        for own, ran in zip(committed.cells, run.cells):
            figures = frames.figure_outputs(own)
            assert [o["data"]["image/png"] for o in frames.figure_outputs(ran)] == [o["data"]["image/png"] for o in figures], \
                f"{path.name} cell {own.id}: the run's outputs do not keep the notebook's own figures"
            projected = drawn.get(own.id, [])
            assert len(projected) == len(figures), f"{path.name} cell {own.id}: {len(projected)} figures drawn"
            for output, figure in zip(figures, projected):
                assert figure["text_px"] > 0 and "".join(figure["image/png"]) in deck
                if "".join(figure["image/png"]) != "".join(output["data"]["image/png"]):
                    changed += 1
                    assert "".join(output["data"]["image/png"]) not in deck, f"{path.name}: the deck shows a committed figure"
        assert drawn and changed, f"{path.name}: no figure drawn for the projector ({len(drawn)} cells)"


def test_offline_deck_shows_slides_and_advances(browser, decks):
    """Every request that is not a file is blocked: the deck still shows as slides and ArrowRight advances."""
    for deck in decks:
        assert deck.stat().st_size <= deck_builder.MAX_DECK_MB * 1e6, f"{deck.name} is over {deck_builder.MAX_DECK_MB} MB"
        page = browser.new_page(viewport=PROJECTOR)
        network = block_network(page)
        page.goto(deck.as_uri())
        expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
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


# The visible frame of a deck explorer: its image's shown width over its drawn width, and its number panel's font.
SHOWN_SIZES = """view => {
  const image = [...view.querySelectorAll('img')].find(e => e.offsetParent !== null);
  const panel = [...view.querySelectorAll('.widget-html pre')].find(e => e.offsetParent !== null);
  return [image.getBoundingClientRect().width / image.naturalWidth, parseFloat(getComputedStyle(panel).fontSize)];
}"""


def deck_frame(view) -> tuple[bytes, str, str]:
    """The PNG, number panel text and image title (text alternative) the deck explorer shows now."""
    shown = view.evaluate(VISIBLE_FRAME)
    assert shown["count"] == 1, f"{shown['count']} frames visible at once"
    data = view.evaluate("""async (view, src) => { const buffer = await (await fetch(src)).arrayBuffer();
        let s = ''; new Uint8Array(buffer).forEach(b => s += String.fromCharCode(b)); return btoa(s); }""", shown["src"])
    return base64.b64decode(data), shown["panel"], shown["title"]


def deck_readouts(view) -> dict:
    labels = view.locator(".widget-slider .widget-label").all_text_contents()
    return dict(zip(labels, view.locator(".widget-slider .widget-readout").all_text_contents()))


def check_deck_frame(view, reference, index, names, where) -> bytes:
    """The deck explorer ``index`` shows the live explorer's figure (same pixels), numbers and text alternative
    at the values its readouts show; return the PNG."""
    shown = {names[label]: value for label, value in deck_readouts(view).items()}
    png, panel, title = deck_frame(view)
    expected = reference(f"_course_at({index}, {json.dumps(shown)})")
    assert panel == expected["panel"], f"{where} at {shown}: the panel differs"
    assert pixels_sha256(png) == (expected["pixels"], expected["size"]), f"{where} at {shown}: the figure differs"
    assert title == expected["alt"], f"{where} at {shown}: the text alternative differs"
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
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
    views = page.locator(".course-deck-explorer")
    expect(views).to_have_count(COURSE[name][0])
    sizes = {}
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
            # from the back of the room: the number panel's font and the figure's smallest text as projected (its
            # size drawn times the scale the slide shows the image at)
            scale, panel_px = view.evaluate(SHOWN_SIZES)
            drawn_px = reference(f"__import__('helpers.widgets').widgets.smallest_text_px("
                                 f"_course_explorers()[{index}].figure)")
            sizes[index] = {"figure_text_px": round(drawn_px * scale, 1), "image_scale": round(scale, 3),
                            "panel_px": panel_px}
            assert panel_px >= 18, f"{where}: the number panel's text is {panel_px} px"
            assert sizes[index]["figure_text_px"] >= 18, \
                f"{where}: the figure's smallest text is {sizes[index]['figure_text_px']} px as projected ({sizes[index]})"
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
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"deck-{name[:2]}-text-px.json").write_text(json.dumps(sizes))
    print(f"\n{deck.name}: slider text px {sizes}")



# Every slide and sub-slide of a deck, visited with reveal.js's API in one evaluation (the key-press walk is the
# live slideshow's test): how far its content runs past the slide (down, and off the right edge, which the slide
# cuts), and the smallest body text (p, li) and code as rendered (computed size times reveal.js's scale), with the
# first words of the element, after any formula on it is typeset.
EVERY_SLIDE = """async () => {
  const R = """ + REVEAL + """;
  const scale = R.getScale(), seen = [];
  const shown = e => e.offsetParent !== null && e.getClientRects().length > 0 && e.textContent.trim() !== '';
  """ + TEXT_TABLE + """
  for (const slide of document.querySelectorAll('.reveal .slides section:not(.stack)')) {
    const at = R.getIndices(slide);
    R.slide(at.h, at.v);
    if (slide.querySelector('.MathJax, script[type^="math/tex"]')) await new Promise(done => MathJax.Hub.Queue(done));
    const look = {h: at.h, v: at.v, number: seen.length + 1, scale,
                  over: slide.scrollHeight - slide.clientHeight, wide: slide.scrollWidth - slide.clientWidth,
                  height: slide.clientHeight, bodyPx: null, bodyAt: '', codePx: null, codeAt: ''};
    for (const [selector, px, where] of [['p, li', 'bodyPx', 'bodyAt'], ['pre, code', 'codePx', 'codeAt']]) {
      for (const e of slide.querySelectorAll(selector)) {
        if (!shown(e)) continue;
        const size = parseFloat(getComputedStyle(e).fontSize) * scale;
        if (look[px] === null || size < look[px]) { look[px] = size; look[where] = e.textContent.trim().slice(0, 50); }
      }
    }
    // what a text output's box hides (it scrolls), and a text table whose lines wrap (HTML tables still scroll in a
    // box of 330 px, course.css)
    look.hidden = 0; look.hiddenAt = ''; look.wrappedTable = '';
    for (const e of slide.querySelectorAll('.jp-OutputArea-output.jp-RenderedText, .jp-OutputArea-output pre')) {
      const s = getComputedStyle(e);
      if (!shown(e) || (s.overflowY === 'visible' && s.overflowX === 'visible')) continue;
      const px = Math.max(e.scrollHeight - e.clientHeight, e.scrollWidth - e.clientWidth);
      if (px > look.hidden) { look.hidden = px; look.hiddenAt = e.textContent.trim().slice(0, 50); } }
    for (const pre of slide.querySelectorAll('.jp-OutputArea-output pre'))
      if (!look.wrappedTable && shown(pre) && tableWraps(pre)) look.wrappedTable = pre.innerText.trim().slice(0, 40);
    // an HTML table (a DataFrame): what its box or its output's box hides (scrolled), a cell whose text runs over
    // more than one line (wrapped), its smallest text
    look.tables = [];
    for (const table of slide.querySelectorAll('.jp-OutputArea-output table')) {
      if (!shown(table)) continue;
      let hidden = 0;
      for (let e = table; e && e !== slide; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.overflowY !== 'visible' || s.overflowX !== 'visible')
          hidden = Math.max(hidden, e.scrollHeight - e.clientHeight, e.scrollWidth - e.clientWidth);
      }
      let wrapped = '', px = Infinity;
      for (const cell of table.querySelectorAll('th, td')) {
        if (!shown(cell)) continue;
        px = Math.min(px, parseFloat(getComputedStyle(cell).fontSize) * scale);
        const range = document.createRange();
        range.selectNodeContents(cell);
        const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.top).sort((a, b) => a - b);
        if (!wrapped && tops.length && tops[tops.length - 1] - tops[0] > 3) wrapped = cell.textContent.trim();
      }
      const box = table.getBoundingClientRect(), edge = slide.getBoundingClientRect();
      look.tables.push({at: table.innerText.trim().replace(/\\s+/g, ' ').slice(0, 40), hidden, wrapped, px,
                        right: Math.round(box.right - edge.right), bottom: Math.round(box.bottom - edge.bottom)});
    }
    // every static figure's smallest text as projected: as drawn (the deck run's record on its <img>,
    // tools/publishing/decks.py projector_figures) times the scale the slide shows its picture at (the picture is
    // contained in the image's box: object-fit)
    look.figures = [];
    for (const img of slide.querySelectorAll('.jp-OutputArea-output img:not(.widget-image)')) {
      if (img.offsetParent === null) continue;
      await img.decode().catch(() => null);
      const box = img.getBoundingClientRect();
      const shownScale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
      const drawn = img.dataset.courseTextPx === undefined ? null : parseFloat(img.dataset.courseTextPx);
      look.figures.push({title: img.dataset.courseFigure ?? null, drawn, scale: shownScale,
                         px: drawn === null ? null : drawn * shownScale});
    }
    // what the stop holds: its text's length, whether it shows a figure, table or widget, a concept check, and
    // the speaker notes the speaker view shows for it (reveal.js: the slide's aside.notes)
    const notes = slide.querySelector(':scope > aside.notes, :scope > * aside.notes');
    look.chars = slide.innerText.trim().length;
    look.media = slide.querySelector('img, table, .widget-subarea > *') !== null;
    look.check = slide.querySelector('.concept-check') !== null;
    look.notes = notes ? notes.textContent.trim().slice(0, 80) : '';
    seen.push(look);
  }
  return seen;
}"""
# Every widget view a deck embeds is rendered (the html manager replaces each view's script by its widget).
WIDGETS_RENDERED = """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
    .every(script => script.parentElement.querySelector('.widget-subarea > *'))"""
BODY_PX, CODE_PX = 20, 18  # issue 27: readable from the back of a room at 1280 x 720
FIGURE_PX = 18  # issue 43: a figure's smallest text and a table's text as projected
NEAR_EMPTY = 160  # characters: a stop with less text and no figure, table or widget is near-empty


def test_every_deck_slide_fits_the_screen_and_reads_from_the_back_of_the_room(browser, course_decks):
    """Issue 27 (review items 9 and 11): every slide and sub-slide of the six decks at 1280 x 720, network
    blocked, once its widgets and formulas are drawn: no slide taller than the screen (its content's height
    within the slide's), none cut off on the right, body text (p, li) at least 20 px and code at least 18 px as
    rendered. Per deck: slides, overflowing slides, smallest body and code px, in
    build/screenshots/deck-slides.json."""
    report, problems = {}, []
    for stem, deck in course_decks.items():
        if not stem[:2].isdigit():
            continue
        page = browser.new_page(viewport=PROJECTOR)
        network = block_network(page)
        page.goto(deck.as_uri())
        expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
        page.wait_for_function(WIDGETS_RENDERED, timeout=patience(60_000))
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")
        looks = page.evaluate(EVERY_SLIDE)
        assert network == [], f"{deck.name} asked the network for {network}"
        page.close()
        assert len(looks) > 50, f"{deck.name}: {len(looks)} slides"
        assert all(look["height"] == PROJECTOR["height"] for look in looks), f"{deck.name}: a slide is not 720 px"
        assert {look["scale"] for look in looks} == {1}, f"{deck.name}: the deck is shown at {looks[0]['scale']}"
        body = [look for look in looks if look["bodyPx"] is not None]
        code = [look for look in looks if look["codePx"] is not None]
        assert len(body) > len(looks) / 3 and len(code) > len(looks) / 4, f"{deck.name}: too few texts measured"
        smallest_body, smallest_code = min(body, key=lambda k: k["bodyPx"]), min(code, key=lambda k: k["codePx"])
        overflowing = [look for look in looks if look["over"] > 1 or look["wide"] > 1]
        report[deck.name] = {"slides": len(looks), "overflowing": len(overflowing),
                             "overflowing_slides": [f"{k['number']} ({k['h']}/{k['v']}): {k['over']} px down, "
                                                    f"{k['wide']} px right" for k in overflowing],
                             "body_px_min": round(smallest_body["bodyPx"], 1),
                             "code_px_min": round(smallest_code["codePx"], 1)}
        problems += [f"{deck.name} slide {entry}" for entry in report[deck.name]["overflowing_slides"]]
        # no text output scrolls (nothing hidden in a box), no text table wraps but the known wide ones
        scrolled = [(k["number"], k["hidden"], k["hiddenAt"]) for k in looks if k["hidden"] > 1]
        wrapped = [(k["number"], k["wrappedTable"]) for k in looks if k["wrappedTable"]]
        report[deck.name].update(scrolled=scrolled, wrapped_tables=wrapped)
        problems += [f"{deck.name} slide {n}: a box hides {px} px ({at!r})" for n, px, at in scrolled]
        problems += [f"{deck.name} slide {n}: a text table wraps ({at!r})" for n, at in wrapped
                     if not any(at.startswith(k) for k in WIDE_TABLES.get(stem[:2], ()))]
        # every static figure's smallest text as projected is 18 px or more, but for those SMALL_FIGURES lists (the
        # live walk's list: each still small here too, so one redrawn leaves the list); every figure measured once
        figures = [dict(figure, number=k["number"]) for k in looks for figure in k["figures"]]
        drawn = [figure for figure in figures if figure["drawn"] is not None]
        small = sorted({figure["title"] for figure in drawn if figure["px"] < FIGURE_PX})
        tagged = deck.read_text(encoding="utf-8").count(f' {deck_builder.FIGURE_TITLE}="')
        report[deck.name].update(
            figures=len(figures), small_figures=small,
            figure_px_min=round(min(figure["px"] for figure in drawn), 1) if drawn else None,
            figure_px={f"{figure['number']}: {figure['title']}": round(figure["px"], 1) for figure in drawn})
        problems += [f"{deck.name} slide {figure['number']}: a figure with no record of its text size"
                     for figure in figures if figure["drawn"] is None]
        if not figures or len(figures) != tagged:
            problems.append(f"{deck.name}: {len(figures)} static figures measured on its slides, {tagged} in the deck")
        if small != sorted(SMALL_FIGURES.get(stem[:2], ())):
            problems.append(f"{deck.name}: static figures under {FIGURE_PX} px as projected {small}, SMALL_FIGURES "
                            f"lists {sorted(SMALL_FIGURES.get(stem[:2], ()))} ("
                            + ", ".join(f"{t}: {px}" for t, px in report[deck.name]["figure_px"].items()
                                        if px < FIGURE_PX) + ")")
        # HTML tables (DataFrames): none scrolled or cut, no cell's number wrapped (but WIDE_TABLES), text 18 px or more
        tables = [dict(table, number=k["number"]) for k in looks for table in k["tables"]]
        report[deck.name]["tables"] = [{key: table[key] for key in ("number", "at", "hidden", "wrapped", "px")}
                                       for table in tables]
        for table in tables:
            where = f"{deck.name} slide {table['number']}: the table {table['at']!r}"
            if table["hidden"] > 1 or table["right"] > 1 or table["bottom"] > 1:
                problems.append(f"{where} is scrolled or cut ({table['hidden']} px hidden, {table['right']} px past "
                                f"the right edge, {table['bottom']} px below the slide)")
            if table["wrapped"] and not any(table["at"].startswith(k) for k in WIDE_TABLES.get(stem[:2], ())):
                problems.append(f"{where} wraps a cell ({table['wrapped']!r})")
            if table["px"] < FIGURE_PX:
                problems.append(f"{where} has text of {table['px']:.1f} px")
        # review L8: no near-empty stop (a line announcing the check) before a concept check
        problems += [f"{deck.name} slide {before['number']}: a near-empty stop ({before['chars']} characters) before "
                     f"the concept check of slide {look['number']}"
                     for before, look in zip(looks, looks[1:])
                     if look["check"] and before["chars"] < NEAR_EMPTY and not before["media"]]
        # review L5: the speaker view has notes for every stop from the first that has any (sub-slides too)
        first_notes = next(k for k, look in enumerate(looks) if look["notes"])
        problems += [f"{deck.name} slide {look['number']} ({look['h']}/{look['v']}): no speaker notes"
                     for look in looks[first_notes:] if not look["notes"].startswith("Speaker notes")]
        report[deck.name].update(concept_checks=sum(look["check"] for look in looks),
                                 slides_before_notes=first_notes)
        if smallest_body["bodyPx"] < BODY_PX:
            problems.append(f"{deck.name} slide {smallest_body['number']}: body text {smallest_body['bodyPx']:.1f} px "
                            f"({smallest_body['bodyAt']!r})")
        if smallest_code["codePx"] < CODE_PX:
            problems.append(f"{deck.name} slide {smallest_code['number']}: code {smallest_code['codePx']:.1f} px "
                            f"({smallest_code['codeAt']!r})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "deck-slides.json").write_text(json.dumps(report, indent=1))
    print("\n" + json.dumps({name: {k: v for k, v in entry.items() if k not in ("overflowing_slides", "figure_px")}
                              for name, entry in report.items()}, indent=1))
    assert len(report) == 6, f"decks measured: {sorted(report)}"
    assert not problems, "\n".join(problems[:20])


# The speaker view's panes and notes, measured in its window.
SPEAKER_PANES = """() => {
  const box = selector => { const r = document.querySelector(selector).getBoundingClientRect();
                            return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  return {width: innerWidth, height: innerHeight, layout: document.body.dataset.speakerLayout,
          current: box('#current-slide iframe'), upcoming: box('#upcoming-slide iframe'),
          upcomingLabel: box('#upcoming-slide .label'),
          // what is on top at nine points of the upcoming slide's pane (5 px inside its edges): the pane itself
          upcomingCovered: (() => { const r = document.querySelector('#upcoming-slide iframe').getBoundingClientRect();
            const frame = document.querySelector('#upcoming-slide iframe'), covered = [];
            for (const fx of [0, 0.5, 1]) for (const fy of [0, 0.5, 1]) {
              const x = r.x + 5 + fx * (r.width - 10), y = r.y + 5 + fy * (r.height - 10);
              const top = document.elementFromPoint(x, y);
              if (top !== frame) covered.push([Math.round(x), Math.round(y), top ? top.id || top.className || top.tagName : null]);
            }
            return covered; })(),
          notesPx: parseFloat(getComputedStyle(document.querySelector('.speaker-controls-notes .value')).fontSize)};
}"""
# The slide reveal.js shows after the current one (the speaker view's "upcoming": the next sub-slide, else the
# next slide), and the id of its first cell (nbconvert's "cell-id=..."), in the deck's own page.
NEXT_SLIDE = """() => {
  const R = """ + REVEAL + """;
  const at = R.getIndices(), stack = R.getHorizontalSlides()[at.h];
  const below = stack.querySelectorAll(':scope > section');
  const next = below.length && at.v + 1 < below.length ? {h: at.h, v: at.v + 1} : {h: at.h + 1, v: 0};
  return {next, cell: R.getSlide(next.h, next.v).querySelector('.jp-Cell').id};
}"""
SHOWN_SLIDE = ("() => { const R = " + REVEAL + "; "
               "return {at: R.getIndices(), cell: R.getCurrentSlide().querySelector('.jp-Cell').id}; }")


def test_speaker_view_shows_the_notes_and_a_readable_upcoming_slide(browser, course_decks):
    """Review item 12: S opens the speaker view (reveal.js's notes plugin, offline); in a 1280 x 720 window it shows
    the section's speaker notes at 20 px or more, the current slide, and the upcoming slide in a pane at least 40 %
    of the window's width at the slides' 16:9, showing the slide that comes next, nothing over it (review L5: its
    label covered the slide's first line); the next key moves both on, and on the section's sub-slides the notes
    pane shows the section's notes, "(continued)" (review L5: they were blank there)."""
    deck = course_decks["01_metrics"]
    notes = lecture.speaker_notes(ROOT / "notebooks" / "01_metrics.ipynb")
    page = browser.new_page(viewport=PROJECTOR)
    network = block_network(page)
    page.goto(deck.as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
    heading = page.evaluate("""() => { const R = """ + REVEAL + """;
        const slide = [...document.querySelectorAll('.reveal .slides section:not(.stack)')]
            .find(s => s.querySelector('aside.notes') && s.querySelector('h2'));  // a section's (the title has notes too)
        const at = R.getIndices(slide); R.slide(at.h, at.v);
        return slide.querySelector('h2').textContent.replace('¶', '').trim(); }""")
    assert heading in notes, f"the first section slide with notes is not a section's: {heading!r}"
    with page.expect_popup() as opened:
        page.keyboard.press("s")
    popup = opened.value
    popup.set_viewport_size(PROJECTOR)
    shown_notes = popup.locator(".speaker-controls-notes .value")
    expect(shown_notes).to_contain_text(f"Speaker notes: {heading}", timeout=patience(30_000))
    expect(shown_notes).to_contain_text(notes[heading]["Ask"].split("`")[0][:40])
    expect(popup.locator("#course-speaker-view")).to_have_count(1)  # the course's layout is in the window

    def upcoming_frame():
        return next(frame for frame in popup.frames if "controls=false" in frame.url)

    sub_slides = 0
    for step in range(3):
        expected = page.evaluate(NEXT_SLIDE)
        for _ in range(100):  # the speaker view follows the deck within its 200 ms debounce
            shown = upcoming_frame().evaluate(SHOWN_SLIDE)
            if shown["at"]["h"] == expected["next"]["h"] and shown["at"]["v"] == expected["next"]["v"]:
                break
            popup.wait_for_timeout(100)
        assert (shown["at"]["h"], shown["at"]["v"]) == (expected["next"]["h"], expected["next"]["v"]), \
            f"step {step}: the upcoming pane shows {shown['at']}, the next slide is {expected['next']}"
        assert shown["cell"] == expected["cell"] and shown["cell"].startswith("cell-id=01-")
        panes = popup.evaluate(SPEAKER_PANES)
        assert panes["width"] == PROJECTOR["width"] and panes["layout"] == "default"
        upcoming = panes["upcoming"]
        assert upcoming["width"] >= 0.4 * panes["width"], f"the upcoming slide's pane is {upcoming} in {panes}"
        assert upcoming["height"] >= 0.95 * upcoming["width"] * 9 / 16, f"the upcoming pane is cut: {upcoming}"
        assert upcoming["x"] >= panes["current"]["x"] + panes["current"]["width"] - 1, "the panes overlap"
        assert panes["notesPx"] >= 20, f"the notes are {panes['notesPx']} px"
        label = panes["upcomingLabel"]  # review L5: the "Upcoming" label covered the next slide's first line
        assert label["y"] + label["height"] <= upcoming["y"] + 1, f"the label {label} covers the slide {upcoming}"
        assert panes["upcomingCovered"] == [], f"the upcoming slide is covered at {panes['upcomingCovered']}"
        # review L5: the notes of the slide shown, on a section's sub-slides too (marked "continued")
        at = page.evaluate(AT)
        expect(shown_notes).to_contain_text(f"Speaker notes: {heading}" + (" (continued)" if at[1] else ""))
        sub_slides += bool(at[1])
        popup.screenshot(path=SCREENSHOTS / f"deck-speaker-view-{step}.png")
        page.bring_to_front()
        page.keyboard.press("ArrowDown" if expected["next"]["v"] else "ArrowRight")
    assert sub_slides == 2, f"the walk met {sub_slides} sub-slides, not the section's next two"
    assert network == [], f"{deck.name} asked the network for {network}"
    popup.close()
    page.close()


# The slide reveal.js shows (innermost section: a sub-slide inside its stack), as (h, v).
AT = f"() => {{ const i = {REVEAL}.getIndices(); return [i.h, i.v || 0]; }}"


def press_and_follow(page, key: str, before: list) -> list:
    """Press ``key`` and return the slide shown after it (waiting, within patience, for a slide change)."""
    page.keyboard.press(key)
    now = page.evaluate(AT)
    if now == before:
        with contextlib.suppress(Exception):
            page.wait_for_function(f"b => JSON.stringify(({AT})()) !== JSON.stringify(b)", arg=before,
                                   timeout=patience(2_000))
        now = page.evaluate(AT)
    return now


@pytest.mark.parametrize("stem", [path.stem for path in NOTEBOOKS], ids=lambda s: s[:2])
def test_a_clicker_walks_every_slide_and_a_slider_gives_its_keys_back(browser, course_decks, stem):
    """Review L2: with a presenter remote's keys only, PageDown goes through every slide and sub-slide of the deck
    one at a time and PageUp all the way back (no dead key); on each slide with a slider, at most two Tab presses
    reach its handle, an arrow key moves the slider and not the slide, and PageDown then moves the slide and not
    the slider."""
    page = browser.new_page(viewport=PROJECTOR)
    network = block_network(page)
    page.goto(course_decks[stem].as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
    total = page.evaluate(f"() => {REVEAL}.getTotalSlides()")
    visited, moved = [page.evaluate(AT)], 0
    for _ in range(total + 5):
        view = page.locator(".reveal .slides section.present:not(.stack) .course-deck-explorer")
        readout = None
        if view.count():
            handle = view.locator(".noUi-handle").first
            for presses in range(3):
                if handle.evaluate("h => h === document.activeElement"):
                    break
                page.keyboard.press("Tab")
            assert presses <= 2 and handle.evaluate("h => h === document.activeElement"), \
                f"{stem} slide {visited[-1]}: the slider's handle is not reached in two Tab presses"
            readout = view.locator(".widget-readout").first.element_handle()  # this slide's, after PageDown too
            before = readout.text_content()
            page.keyboard.press("ArrowLeft" if handle_position(view.locator(".widget-slider").first) > 0.95 else "ArrowRight")
            page.wait_for_function("([r, b]) => r.textContent !== b", arg=[readout, before], timeout=patience(10_000))
            assert page.evaluate(AT) == visited[-1], f"{stem}: an arrow key on the slider changed the slide"
            shown, moved = readout.text_content(), moved + 1
        now = press_and_follow(page, "PageDown", visited[-1])
        if readout is not None:
            assert readout.text_content() == shown, f"{stem} slide {visited[-1]}: PageDown moved the slider"
        if now == visited[-1]:
            break
        visited.append(now)
    assert len(visited) == total, f"{stem}: PageDown reached {len(visited)} of {total} slides (a dead key?)"
    assert len(set(map(tuple, visited))) == total, f"{stem}: PageDown skipped or repeated a slide"
    sliders = page.locator(".course-deck-explorer").count()
    assert moved == sliders, f"{stem}: {moved} slider slides met on the walk, the deck has {sliders} explorers"
    for expected in reversed(visited[:-1]):
        now = press_and_follow(page, "PageUp", page.evaluate(AT))
        assert now == expected, f"{stem}: PageUp went to {now}, not {expected}"
    assert network == [], f"{stem}: the deck asked the network for {network}"
    page.close()


def test_space_escape_and_shift_space_on_a_deck_slider(browser, course_decks):
    """Review L2: on deck 02's threshold slider, moved by an arrow key: Escape leaves the slider (the focus goes
    back to the slide, which stays); Tab reaches the handle again; Space goes to the next slide and Shift+Space
    comes back, the slider where the arrow left it."""
    page = browser.new_page(viewport=PROJECTOR)
    block_network(page)
    page.goto(course_decks["02_roc_by_hand"].as_uri())
    expect(page.locator(".reveal.ready")).to_have_count(1, timeout=patience(30_000))
    view = page.locator(".course-deck-explorer").first
    indices = view.evaluate(f"v => {REVEAL}.getIndices(v.closest('.slides section:not(.stack)'))")
    for _ in range(400):  # PageDown to the slider's slide, as a lecturer would
        if page.evaluate(AT) == [indices["h"], indices.get("v") or 0]:
            break
        press_and_follow(page, "PageDown", page.evaluate(AT))
    handle, readout = view.locator(".noUi-handle").first, view.locator(".widget-readout").first
    page.keyboard.press("Tab")
    expect(handle).to_be_focused()
    before = readout.text_content()
    page.keyboard.press("ArrowRight")
    expect(readout).not_to_have_text(before)
    moved, slide = readout.text_content(), page.evaluate(AT)
    page.keyboard.press("Escape")
    assert not handle.evaluate("h => h === document.activeElement"), "Escape left the focus on the slider"
    assert page.evaluate(AT) == slide and readout.text_content() == moved
    assert page.evaluate(f"() => !{REVEAL}.isOverview()"), "Escape on the slider opened the overview"
    page.keyboard.press("Tab")
    expect(handle).to_be_focused()
    assert press_and_follow(page, "Space", slide) != slide, "Space on the slider did not go to the next slide"
    assert press_and_follow(page, "Shift+Space", page.evaluate(AT)) == slide, "Shift+Space did not come back"
    assert readout.text_content() == moved, "the slider moved with Space"
    page.close()
