"""Every HTML page the course produces passes axe-core with no violation.

The pages: the offline decks (build/slides/*.slides.html, as `make slides` writes them; the tests build
them once per run, tests/conftest.py), the
glossary beside them (build/slides/glossary.html) and, where they exist, the
grading feedback pages, the grade summaries (build/grades-NAME.html) and the similarity reports
(build/similarity-NAME.html). axe-core comes from the npm registry with the decks'
vendored scripts (tools/publishing/vendor/package.json, installed by `make slides` into
build/slides/vendor/node_modules/axe-core); it is injected into each page in
Debian's Chromium through Playwright for Python (no browser download).

:func:`axe_violations` is the reusable audit: give it an HTML file, get axe's
violations (an empty list when the page passes). Also from a shell:

    .venv/bin/python tests/test_accessibility.py build/slides/*.html
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from browser_support import CHROMIUM, CHROMIUM_ARGS, patience

ROOT = Path(__file__).resolve().parent.parent
SLIDES = ROOT / "build" / "slides"
AXE = SLIDES / "vendor" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0/2.1 A and AA, and axe's best practices (landmarks, regions, heading order).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
PLACEHOLDER = "No description has been provided for this image"


@contextmanager
def launched_chromium():
    """Debian's Chromium under Playwright, headless (the tests use the worker's, tests/conftest.py browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def axe_audits(path, chromium=None, audits: dict | None = None, axe_script: Path = AXE,
               settle_ms: int = 1500) -> dict[str, list[dict] | None]:
    """axe-core's violations on the HTML file ``path`` (WCAG 2.1 A/AA and best practices), for each audit of
    ``audits``, all in one load of the page: ``{name: violations}``, each ``[]`` when that audit passes.

    ``audits`` maps a name to ``(include, exclude)``, CSS selectors that narrow
    the audit (axe's context), e.g. to a deck's widgets; ``None`` for either is
    the whole page; an audit whose ``include`` matches nothing gives ``None``
    (nothing to audit). Each violation is axe's own record: ``id``, ``impact``,
    ``help`` and the offending ``nodes``. ``chromium`` is a Playwright browser
    to reuse (one is started otherwise). reveal.js hides every slide but the
    current one, so a deck's slides are all shown and audited as one page; the
    page is given ``settle_ms`` for MathJax and reveal.js to finish rendering.
    """
    path = Path(path).resolve()
    if not path.is_file():
        raise ValueError(f"no such HTML file: {path}")
    if not Path(axe_script).is_file():
        raise ValueError(f"axe-core is not installed at {axe_script}: run `make slides`")
    audits = audits or {"page": (None, None)}
    if chromium is None:
        with launched_chromium() as chromium:
            return axe_audits(path, chromium, audits, axe_script, settle_ms)
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(path.as_uri(), wait_until="load")
        page.wait_for_timeout(settle_ms)
        page.add_script_tag(path=str(axe_script))
        return page.evaluate(
            """async ([tags, audits]) => {
                for (const s of document.querySelectorAll('.reveal .slides section')) {
                    s.style.display = 'block'; s.hidden = false; s.removeAttribute('aria-hidden');
                }
                const found = {};
                for (const [name, [include, exclude]] of Object.entries(audits)) {
                    const context = {exclude: exclude.map(s => [s])};
                    if (include.length) context.include = include.map(s => [s]);
                    if (include.length && !include.some(s => document.querySelector(s))) { found[name] = null; continue; }
                    const r = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
                    found[name] = r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 5).map(n => ({target: n.target, summary: n.failureSummary}))}));
                }
                return found;
            }""", [TAGS, {name: [list(include or []), list(exclude or [])] for name, (include, exclude) in audits.items()}])
    finally:
        page.close()


def axe_violations(path, chromium=None, axe_script: Path = AXE, settle_ms: int = 1500, include=None,
                   exclude=None) -> list[dict] | None:
    """axe-core's violations on the HTML file ``path``, ``[]`` when it passes: one audit of :func:`axe_audits`,
    narrowed by the CSS selectors ``include`` and ``exclude`` (the whole page when both are ``None``; ``None``
    when ``include`` matches nothing)."""
    return axe_audits(path, chromium, {"page": (include, exclude)}, axe_script, settle_ms)["page"]


def report(violations: list[dict]) -> str:
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])}+ nodes, e.g. {v['nodes'][0]['target']})"
                     for v in violations)


# --------------------------------------------------------------------------- the tests
# The decks are built once per test run by the course_decks fixture (tests/conftest.py); their names are known
# from the committed notebooks, the sliders' decks from the notebooks' slider cells.
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import nbformat  # noqa: E402
import decks  # noqa: E402  (tools/publishing/decks.py: the offline decks)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DECKS = [SLIDES / f"{path.stem}.slides.html" for path in NOTEBOOKS]
SLIDER_DECKS = [SLIDES / f"{path.stem}.slides.html" for path in NOTEBOOKS
                if decks.has_explorer(nbformat.read(path, as_version=4))]
GLOSSARY = SLIDES / "glossary.html"
FEEDBACK = (sorted((ROOT / "build").glob("grading/**/*.html")) + sorted((ROOT / "build").glob("feedback/**/*.html"))
            + sorted((ROOT / "build").glob("grades-*.html")) + sorted((ROOT / "build").glob("similarity-*.html")))


@pytest.fixture(scope="module")
def chromium(browser):
    """The worker's Chromium (tests/conftest.py), with axe-core installed beside the decks."""
    if not AXE.exists():   # the decks themselves are required by test_there_are_pages_to_audit
        pytest.fail("axe-core is missing: run `make slides` first (or `make build/slides/vendor/.installed`)")
    return browser


def test_there_are_pages_to_audit(course_decks):
    assert len(DECKS) == 6 and len(SLIDER_DECKS) == 5, (DECKS, SLIDER_DECKS)
    assert sorted(course_decks.values()) == DECKS and all(deck.exists() for deck in DECKS)
    assert GLOSSARY.exists()


# The sliders' rendered widgets (their labels and image alternatives are set in helpers/widgets.py and the
# decks' slider export, not here) are audited on their own below, in the decks that have a slider figure.
WIDGETS = [".jupyter-widgets", ".widget-area", ".jp-OutputArea-output.jupyter-widgets-view"]


@pytest.fixture(scope="module")
def audited(chromium, course_decks):
    """The page audit (widgets left out) and, in a deck with sliders, the widgets' own audit of a page, both
    from one load of it (a slider deck holds every pre-rendered frame: up to 23 MB), kept for the module."""
    done = {}

    def audit(path: Path) -> dict[str, list[dict] | None]:
        if path not in done:
            audits = {"page": (None, WIDGETS)}
            if path in SLIDER_DECKS:
                audits["widgets"] = (WIDGETS, None)
            done[path] = axe_audits(path, chromium, audits)
        return done[path]
    return audit


@pytest.mark.parametrize("path", [*DECKS, GLOSSARY, *FEEDBACK], ids=lambda p: p.name)
def test_page_passes_axe(path, audited):
    violations = audited(path)["page"]
    assert not violations, f"{path.name}:\n{report(violations)}"


@pytest.mark.parametrize("path", SLIDER_DECKS, ids=lambda p: p.name)
def test_deck_sliders_pass_axe(path, audited):
    assert "ImageModel" in path.read_text(encoding="utf-8"), "the deck holds its slider's pre-rendered frames"
    violations = audited(path)["widgets"]
    assert violations is not None, f"{path.name}: no rendered widget ({', '.join(WIDGETS)}) to audit"
    assert not violations, f"{path.name}:\n{report(violations)}"


def test_a_feedback_page_passes_axe(tmp_path, chromium):
    """A feedback page as `make grade` writes it (tools/grading.write_feedback), with a note, a flag and a message."""
    sys.path.insert(0, str(ROOT / "tools"))
    import grading

    plan = grading.Plan(name="01_metrics", questions=["q1", "q2"], points={"q1": 2.0, "q2": 1.0, "m1": 3.0},
                        manual=["m1"], answer_ids=[], test_ids={"q1", "q2"}, steps=[], question_answer={})
    results = [grading.Result(student="ada", status="graded", scores={"q1": 2.0, "q2": 0.0, "m1": None},
                              feedback={"q2": "AssertionError: recall should be 0.3"}, note="late",
                              flags=["patched pytest"])]
    grading.write_feedback(plan, results, tmp_path)
    violations = axe_violations(tmp_path / "ada.html", chromium)
    assert not violations, report(violations)


def test_the_grade_summary_passes_axe(tmp_path, chromium):
    """The teacher's grade summary as `make grade` writes it (build/grades-NAME.html): the table with a name
    to escape, a flag, a note, a score still to give by hand and a late hand-in, and the distribution figure."""
    sys.path.insert(0, str(ROOT / "tools"))
    import grading

    plan = grading.Plan(name="01_metrics", questions=["q1", "q2"], points={"q1": 2.0, "q2": 1.0, "m1": 3.0},
                        manual=["m1"], answer_ids=[], test_ids={"q1", "q2"}, steps=[], question_answer={})
    results = [grading.Result(student="ada", status="graded", scores={"q1": 2.0, "q2": 0.0, "m1": None},
                              note="late", flags=["patched pytest"], late="1 day", penalty=1.0),
               grading.Result(student="<bo & b>", status="crashed", scores={"q1": 2.0, "q2": 1.0, "m1": 3.0}),
               grading.Result(student="cy", status="missing", scores={"q1": 0.0, "q2": 0.0, "m1": 0.0})]
    page = tmp_path / "grades-01_metrics.html"
    grading.write_files_atomically({page: grading.summary_page(plan, grading.table(results, plan, late=True),
                                                               results)})
    violations = axe_violations(page, chromium)
    assert not violations, report(violations)


def test_the_audit_finds_what_is_wrong(tmp_path, chromium):
    """A page with the faults the course had (no main landmark, no lang, low contrast, an image without alt)."""
    bad = tmp_path / "bad.html"
    bad.write_text('<html><head><title>t</title></head><body><h1>Title</h1><h3>skipped</h3>'
                   '<p style="color:#aaa">faint</p><img src="x.png"></body></html>')
    found = {v["id"] for v in axe_violations(bad, chromium)}
    assert {"html-has-lang", "color-contrast", "image-alt", "landmark-one-main", "heading-order"} <= found


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.name)
def test_deck_images_have_their_descriptions(path, course_decks):
    text = path.read_text(encoding="utf-8")
    assert PLACEHOLDER not in text
    assert text.count("<img") > 0 and text.count('alt="') >= text.count("<img")


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.name)
def test_deck_mathjax_gives_screen_readers_the_formulas(path, course_decks):
    text = path.read_text(encoding="utf-8")
    assert "menuSettings: {assistiveMML: true}" in text


def test_rendered_formulas_carry_assistive_mathml(course_decks, chromium):
    """In a rendered deck, MathJax writes hidden MathML beside its formulas for screen readers."""
    page = chromium.new_page()
    try:
        page.goto((SLIDES / "01_metrics.slides.html").as_uri(), wait_until="load")
        page.wait_for_function("document.querySelectorAll('.mjx-chtml').length > 0", timeout=patience(30_000))
        page.wait_for_timeout(1000)
        assistive = page.evaluate("document.querySelectorAll('.MJX_Assistive_MathML math').length")
    finally:
        page.close()
    assert assistive > 0


if __name__ == "__main__":
    failed = 0
    with launched_chromium() as shared:
        for name in sys.argv[1:]:
            found = axe_violations(name, shared)
            failed += bool(found)
            print(f"{name}: {'ok' if not found else report(found)}")
            if found and "--json" in sys.argv:
                print(json.dumps(found, indent=1))
    sys.exit(1 if failed else 0)


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.name)
def test_deck_figures_have_a_short_alt_and_their_long_description(path, course_decks):
    """A figure of a deck is read as in JupyterLab: its alt is the message (at most ALT_LIMIT characters), and the
    collapsed "Figure details" follows it."""
    import html
    import re

    from helpers.figures import ALT_LIMIT, DETAILS_CLASS

    text = path.read_text(encoding="utf-8")
    images = [tag for tag in re.findall(r"<img\s[^>]*>", text) if 'src="data:image/png' in tag]
    alts = [html.unescape(re.search(r'\balt="([^"]*)"', tag).group(1)) for tag in images if 'alt="' in tag]
    assert len(alts) == len(images), f"{path.name}: a figure without an alt"
    assert alts, f"{path.name} shows no figure"
    too_long = [alt[:60] for alt in alts if len(alt) > ALT_LIMIT]
    assert not too_long, f"{path.name}: alts over {ALT_LIMIT} characters: {too_long}"
    assert text.count(f'<details class="{DETAILS_CLASS}"><summary>Figure details</summary>') >= len(alts)
