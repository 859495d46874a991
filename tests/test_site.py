"""The course website of `make site` (tools/publishing/website.py), built once per run (tests/conftest.py
course_site) and opened from files in Debian's Chromium with every request that is not a file blocked and
counted: every page loads with no console error and passes axe-core, reads at 320 px wide and at 200 % zoom
with body text of at least 16 px, and shows the default frame with JavaScript off; every slider, reached with
Tab and moved with real key presses, shows the figure, text alternative and numbers that a kernel running the
notebook's own explorer gives for the value it announces; every link and anchor resolves.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from PIL import Image
from playwright.sync_api import expect

from browser_support import ROOT, SCREENSHOTS, block_network, reference_kernel
from conftest import venv_sharing_course_packages
from test_accessibility import AXE, TAGS, report

import elsewhere  # noqa: E402  (tools/publishing/elsewhere.py)
import website  # noqa: E402  (tools/publishing/website.py, on the path browser_support set)
from decks import has_explorer  # noqa: E402  (tools/publishing/decks.py)

from helpers.widgets import announcement  # noqa: E402

pytestmark = pytest.mark.slow

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PAGES = ["index.html", "glossary.html", "accessibility.html"] + [f"{path.stem}.html" for path in NOTEBOOKS]
WITH_SLIDERS = [path.stem for path in NOTEBOOKS if has_explorer(nbformat.read(path, as_version=4))]
MAX_FIRST_LOAD = 3_000_000  # bytes a page fetches before a slider moves (the budget)


def open_page(browser, site: Path, name: str, **context):
    """A page of the site in a new context, network blocked; returns (page, blocked requests, console errors,
    files requested)."""
    ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 800}} | context))
    page = ctx.new_page()
    network = block_network(page)
    errors, requested = [], []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requested.append(request.url))
    page.goto((site / name).as_uri(), wait_until="load")
    return page, network, errors, requested


def typeset(page) -> None:
    """Wait until MathJax (on a notebook page) has typeset every formula."""
    if page.evaluate("() => typeof MathJax !== 'undefined'"):
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")


def file_bytes(urls: list[str]) -> int:
    return sum(Path(unquote(urlsplit(url).path)).stat().st_size for url in set(urls) if url.startswith("file:"))


def test_make_site_writes_every_page_and_download(course_site):
    for name in PAGES:
        assert (course_site / name).is_file(), f"make site did not write {name}"
    downloads = course_site / "downloads"
    for path in NOTEBOOKS:
        student = nbformat.read(downloads / path.name, as_version=4)
        source = "\n".join(cell.source for cell in student.cells)
        assert "### BEGIN SOLUTION" not in source and "### BEGIN HIDDEN TESTS" not in source, path.name
    import zipfile
    with zipfile.ZipFile(downloads / "model-evaluation-handout.zip") as handout:
        names = handout.namelist()
    assert "model-evaluation/README.md" in names and "model-evaluation/helpers/metrics.py" in names
    with zipfile.ZipFile(downloads / "model-evaluation-decks.zip") as decks:
        names = decks.namelist()
    for path in NOTEBOOKS:
        assert f"model-evaluation-decks/{path.stem}.slides.html" in names
    assert "model-evaluation-decks/vendor/node_modules/reveal.js/dist/reveal.js" in names


def test_notebook_pages_are_the_student_version(course_site):
    """No solution and no hidden test on a page; each exercise's visible tests are shown; the sections are the
    notebook's, each a heading with an anchor in the page's table of contents."""
    for path in NOTEBOOKS:
        text = (course_site / f"{path.stem}.html").read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text and "END SOLUTION" not in text
        notebook = nbformat.read(path, as_version=4)
        hidden = []  # the hidden tests' lines that the visible part of their cell does not also have
        for cell in notebook.cells:
            blocks = re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", cell.source, re.S)
            visible = re.sub(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS", "", cell.source, flags=re.S)
            hidden += [line.strip() for block in blocks for line in block.splitlines()
                       if len(line.strip()) > 25 and line.strip() not in visible]
        leaked = [line for line in hidden if html.escape(line, quote=False) in text]
        assert not leaked, f"{path.name}: hidden test lines on the page: {leaked[:2]}"
        visible = [cell for cell in notebook.cells if cell.cell_type == "code"
                   and cell.metadata.get("nbgrader", {}).get("grade") and not cell.metadata["nbgrader"].get("solution")]
        assert text.count("The visible tests of this exercise") == len(visible), path.name
        sections = website.section_ids(notebook)
        page = parsed(course_site / f"{path.stem}.html")
        toc = Links()
        toc.feed(text.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0])
        assert len(sections) >= 5, f"{path.name}: {sections}"
        for number, anchor in sections.items():
            assert anchor in page.ids, f"{path.name}: no heading id for section {number}"
            assert ("a", f"#{anchor}") in toc.links, f"{path.name}: section {number} not in the contents"


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append((tag, attrs[name]))


def parsed(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_link_and_anchor_resolves(course_site):
    """Every relative link and source of every page points to a file of the site, and every #anchor to an id
    there; the only address outside the site is a link a reader follows, to the course's repository."""
    pages = {path: parsed(path) for path in course_site.glob("*.html")}
    broken, outside, checked = [], set(), 0
    for path, page in pages.items():
        for tag, link in page.links:
            if re.match(r"[a-z]+:", link):
                assert tag == "a", f"{path.name}: a <{tag}> loads {link}"
                outside.add(link)
                continue
            target, _, anchor = link.partition("#")
            file = (path.parent / unquote(target.split("?")[0])).resolve() if target else path
            checked += 1
            if not file.is_file():
                broken.append(f"{path.name}: {link} (no file)")
            elif anchor and file.suffix == ".html" and unquote(anchor) not in pages.get(file, parsed(file)).ids:
                broken.append(f"{path.name}: {link} (no such anchor)")
    assert checked > 500, f"only {checked} links checked"
    assert broken == [], "\n".join(broken[:20])
    expected = {website.repository()} | {url(website.repository(), path.stem) for path in NOTEBOOKS
                                         for url in (elsewhere.binder_url, elsewhere.colab_url)}
    assert outside == expected, f"links out of the site other than the repository, Binder and Colab: {outside ^ expected}"


def test_binder_and_colab_find_their_files_on_the_published_branch(course_site, tmp_path):
    """The site is the published branch (docs/site.md): Binder builds its binder/ folder and opens handout/NAME,
    Colab opens colab/NAME. Binder's postBuild installs the site's helpers wheel: run here in a fresh venv, the
    installed helpers load both data sets with their checksums."""
    for path in NOTEBOOKS:
        for url in (elsewhere.binder_url(website.repository(), path.stem),
                    elsewhere.colab_url(website.repository(), path.stem)):
            relative = re.search(r"(?:/gh-pages\?urlpath=lab/tree/|/blob/gh-pages/)(.+)$", url)[1]
            assert (course_site / relative).is_file(), f"{url}: the published branch has no {relative}"
        colab = nbformat.read(course_site / "colab" / path.name, as_version=4)
        student = nbformat.read(course_site / "downloads" / path.name, as_version=4)
        assert colab.cells[0].metadata["tags"] == [elsewhere.COLAB_TAG] and len(colab.cells) == len(student.cells) + 1
        assert website.site_url().rstrip("/") + "/downloads/model_evaluation_helpers-" in colab.cells[0].source
    assert (course_site / "binder" / "requirements.txt").read_text() == (
        course_site / "handout" / "requirements.txt").read_text()
    for name in ("helpers/metrics.py", "data/bank_marketing.csv", "glossary.md", "README.md"):
        assert (course_site / "handout" / name).is_file(), f"handout/{name}: the notebooks need it beside them"
    assert not elsewhere.handout.is_graded(course_site / "handout"), "the site publishes the self-study hand-out"
    branch = tmp_path / "branch"
    (branch / "downloads").mkdir(parents=True)
    [wheel] = (course_site / "downloads").glob("model_evaluation_helpers-*.whl")
    shutil.copy(wheel, branch / "downloads" / wheel.name)
    python, site_packages = venv_sharing_course_packages(tmp_path / "venv")
    environment = {**os.environ, "PATH": f"{python.parent}:{os.environ['PATH']}", "PIP_NO_INDEX": "1"}
    subprocess.run(["bash", course_site / "binder" / "postBuild"], cwd=branch, env=environment, check=True,
                   capture_output=True)
    loaded = subprocess.run([python, "-c", "import helpers, helpers.datasets as d; print(helpers.__file__); "
                             "print(len(d.load_bank_marketing()[0]), len(d.load_power_plant()[0]))"],
                            cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert Path(loaded[0]).is_relative_to(site_packages), f"the helpers were not installed in the venv: {loaded[0]}"
    assert loaded[1:] == ["4521", "9568"]


def test_glossary_taught_in_links_land_on_the_section(course_site):
    """Review N4: every "taught in" link of the glossary opened the notebook at its top. On the site each lands
    on the heading of the section it names (01 §4 -> the heading "4. ...")."""
    page = parsed(course_site / "glossary.html")
    taught = [link for tag, link in page.links if re.fullmatch(r"\d\d_\w+\.html#.+", link)]
    assert len(taught) > 100
    for link in taught:
        name, anchor = link.split("#")
        assert re.match(r"\d+\.-", unquote(anchor)), f"{link} does not name a numbered section"


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_offline_reads_at_any_width_and_passes_axe(browser, course_site, name):
    """Network blocked: no request leaves the site and nothing fails or logs an error; axe-core (WCAG 2.1 A/AA
    and best practices) finds nothing; body text is at least 16 px; the page reflows at 320 px wide and at
    200 % zoom with no sideways scrolling; the first load fetches at most 3 MB and no slider frame beyond the
    one each explorer shows."""
    page, network, errors, requested = open_page(browser, course_site, name)
    typeset(page)
    assert network == [], f"{name} asked the network for {network}"
    assert errors == [], f"{name}: console errors {errors}"
    weight = file_bytes(requested)
    assert weight <= MAX_FIRST_LOAD, f"{name}: the first load fetches {weight / 1e6:.2f} MB"
    frames = {url for url in requested if "/explorer-" in url}
    assert len(frames) == page.locator(".explorer").count(), f"{name}: frames fetched up front: {frames}"
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("""async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags},
        resultTypes: ['violations']})).violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map(n => ({target: n.target}))}))""", TAGS)
    assert violations == [], f"{name}:\n{report(violations)}"
    smallest = page.evaluate("""() => {
        let least = [1e9, ''];
        for (const e of document.querySelectorAll('main p, main li, main td, main th, main pre, main code, main label, main summary, main a, nav a, footer p')) {
            if (!e.offsetParent || !e.textContent.trim() || e.closest('.MathJax, .MathJax_CHTML, mjx-container')) continue;
            const size = parseFloat(getComputedStyle(e).fontSize);
            if (size < least[0]) least = [size, e.tagName + ': ' + e.textContent.trim().slice(0, 40)];
        }
        return least;
    }""")
    assert smallest[0] >= 16, f"{name}: text of {smallest[0]} px ({smallest[1]})"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"site-{name.removesuffix('.html')}.png")
    page.context.close()
    for viewport, scale, label in (({"width": 320, "height": 640}, 1, "320 px"), ({"width": 640, "height": 400}, 2, "200 %")):
        page, network, errors, _ = open_page(browser, course_site, name, viewport=viewport, device_scale_factor=scale)
        typeset(page)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{name} at {label}: the page is {wide} px wide, it scrolls sideways"
        assert errors == [] and network == []
        page.context.close()


def test_javascript_off_shows_each_explorers_notebook_frame(browser, course_site):
    """With JavaScript disabled, each explorer shows the notebook's own frame (its picture loaded, its text
    alternative and numbers), its sliders disabled, and says so."""
    for stem in WITH_SLIDERS:
        page, network, errors, _ = open_page(browser, course_site, f"{stem}.html", java_script_enabled=False)
        explorers = page.locator(".explorer")
        assert explorers.count() >= 1, stem
        for index in range(explorers.count()):
            explorer = explorers.nth(index)
            manifest = json.loads(explorer.locator("script.explorer-manifest").text_content())
            image = explorer.locator(".explorer-frame img")
            image.scroll_into_view_if_needed()
            expect(image).to_have_js_property("complete", True)
            assert image.evaluate("i => i.naturalWidth") > 0, f"{stem}: the default frame did not load"
            start = start_index(explorer)
            assert image.get_attribute("alt") == manifest["alts"][start]
            assert explorer.locator(".explorer-panel").text_content() == manifest["panels"][start]
            assert all(s.is_disabled() for s in explorer.locator("input[type=range]").all())
            expect(explorer.locator(".explorer-noscript")).to_be_visible()
        assert network == [] and errors == []
        page.context.close()


def start_index(explorer) -> int:
    """The flat frame index the explorer's sliders show now (the last slider varies fastest)."""
    sizes = [int(s.get_attribute("max")) + 1 for s in explorer.locator("input[type=range]").all()]
    values = [int(s.evaluate("s => s.value")) for s in explorer.locator("input[type=range]").all()]
    at = 0
    for size, value in zip(sizes, values):
        at = at * size + value
    return at


def shown_frame(explorer) -> dict:
    """What an explorer shows now: its picture's pixels (read from the file it loads), alt, panel, status."""
    image = explorer.locator(".explorer-frame img")
    expect(image).to_have_js_property("complete", True)
    src = image.evaluate("i => i.src")
    pixels = Image.open(io.BytesIO(Path(unquote(urlsplit(src).path)).read_bytes())).convert("RGB")
    return {"pixels": hashlib.sha256(pixels.tobytes()).hexdigest(), "size": list(pixels.size), "src": src,
            "alt": image.get_attribute("alt"), "panel": explorer.locator(".explorer-panel").text_content(),
            "status": explorer.locator(".explorer-status").text_content()}


# At the first animation frame after a key press: which picture the explorer shows, whether it is loaded, and
# the alt and panel beside it.
ARM = """root => { window.__siteFrame = new Promise(resolve => {
  window.addEventListener('keydown', () => requestAnimationFrame(() => {
    const image = root.querySelector('.explorer-frame img');
    resolve({src: image.src, complete: image.complete && image.naturalWidth > 0, alt: image.alt,
             panel: root.querySelector('.explorer-panel').textContent});
  }), {once: true, capture: true});
}); }"""


def accessibility_sliders(page) -> list[dict]:
    """The sliders of the page as Chromium's accessibility tree gives them: name, position and whether focused.
    (CDP reports a slider's ``valuetext`` as its number whatever ``aria-valuetext`` says, even for a static
    ``<div role=slider aria-valuetext="five">``: tests/test_browser_accessibility.py; the value text is read from
    the attribute that the platform accessibility API passes to screen readers.)"""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return [{"name": node.get("name", {}).get("value"), "position": node.get("value", {}).get("value"),
             "focused": any(p["name"] == "focused" and p["value"]["value"] for p in node.get("properties", []))}
            for node in nodes if node.get("role", {}).get("value") == "slider"]


@pytest.mark.parametrize("stem", WITH_SLIDERS)
def test_sliders_move_by_keys_and_show_what_the_notebook_computes(browser, course_site, stem):
    """Each slider, reached with Tab from its explorer and moved with ArrowRight, ArrowLeft, Home, End, PageUp
    and PageDown: its value text is the grid's label, and the picture (pixel for pixel), its text alternative
    and the number panel equal what the notebook's own explorer shows at that value in a kernel that ran the
    notebook; a cached frame is on screen at the first animation frame after the key; the accessibility tree
    names the slider and reads its value; the live status line says the new value."""
    page, network, errors, _ = open_page(browser, course_site, f"{stem}.html")
    explorers = page.locator(".explorer")
    with reference_kernel(ROOT / "notebooks" / f"{stem}.ipynb") as reference:
        for index in range(explorers.count()):
            explorer = explorers.nth(index)
            controls = reference(f"_course_describe({index})")["controls"]
            names = [name for name, kind in controls if kind == "slider"]
            sliders = explorer.locator("input[type=range]")
            labels = explorer.locator(".explorer-slider label").all_text_contents()
            assert len(labels) == len(names) == sliders.count()
            where = f"{stem} explorer {index + 1}"

            def check(after: str) -> None:
                shown = {names[s]: sliders.nth(s).get_attribute("aria-valuetext") for s in range(len(names))}
                expected = reference(f"_course_at({index}, {json.dumps(shown)})")
                frame = shown_frame(explorer)
                assert frame["panel"] == expected["panel"], f"{where} at {shown} after {after}: the panel differs"
                assert frame["alt"] == expected["alt"], f"{where} at {shown} after {after}: the alt differs"
                assert (frame["pixels"], frame["size"]) == (expected["pixels"], expected["size"]), \
                    f"{where} at {shown} after {after}: the figure differs"

            check("loading")
            explorer.locator(".explorer-how").click()  # a click on the explorer's text, then Tab: the first slider
            page.keyboard.press("Tab")
            for s in range(sliders.count()):
                slider = sliders.nth(s)
                if s:
                    page.keyboard.press("Tab")
                expect(slider).to_be_focused()
                manifest = json.loads(explorer.locator("script.explorer-manifest").text_content())
                grid = manifest["sliders"][s]
                position = int(slider.evaluate("s => s.value"))
                tree = accessibility_sliders(page)
                assert {"name": labels[s], "position": position, "focused": True} in tree, \
                    f"{where}: the accessibility tree has {tree}"
                assert slider.get_attribute("aria-valuetext") == grid[position]
                keys = ["ArrowRight", "ArrowLeft", "End", "PageDown", "Home", "PageUp"]
                if int(slider.evaluate("s => s.value")) == len(grid) - 1:
                    keys = ["ArrowLeft", "ArrowRight", "Home", "PageUp", "End", "PageDown"]
                for key in keys:
                    before = int(slider.evaluate("s => s.value"))
                    panel_before = explorer.locator(".explorer-panel").text_content()
                    page.wait_for_function("e => e.dataset.framesPending === '0'", arg=explorer.element_handle())
                    explorer.evaluate(ARM)
                    page.keyboard.press(key)
                    at_frame = page.evaluate("() => window.__siteFrame")
                    now = int(slider.evaluate("s => s.value"))
                    step = max(1, round((len(grid) - 1) / 10))
                    want = {"ArrowRight": before + 1, "ArrowLeft": before - 1, "Home": 0, "End": len(grid) - 1,
                            "PageUp": before + step, "PageDown": before - step}[key]
                    assert now == min(len(grid) - 1, max(0, want)), f"{where}: {key} moved {before} to {now}"
                    expect(slider).to_have_attribute("aria-valuetext", grid[now])
                    # the live line says what changed, as the JupyterLab explorer does (helpers.widgets.announcement)
                    panel_after = explorer.locator(".explorer-panel").text_content()
                    expect(explorer.locator(".explorer-status")).to_have_text(announcement(panel_before, panel_after))
                    if key in ("ArrowRight", "ArrowLeft"):  # a neighbour: prefetched, so shown at once
                        frame = shown_frame(explorer)
                        assert at_frame["complete"] and at_frame["src"] == frame["src"] and \
                            at_frame["panel"] == frame["panel"], f"{where}: {key} showed no frame at the next animation frame"
                    check(key)
                    tree = accessibility_sliders(page)
                    assert {"name": labels[s], "position": now, "focused": True} in tree, f"{where} after {key}: {tree}"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            explorer.screenshot(path=SCREENSHOTS / f"site-{stem[:2]}-explorer{index + 1}.png")
    assert network == [], f"{stem} asked the network for {network}"
    assert errors == [], f"{stem}: console errors {errors}"
    page.context.close()
