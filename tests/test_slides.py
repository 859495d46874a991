"""The lecture versions and the offline decks, without a browser (tests/test_browser_decks.py opens them).

tools/execute.py writes the slide structure, tools/publishing/lecture.py removes what a
lecturer must not show and fits the slides to 1280 x 720, tools/publishing/decks.py
exports the decks with every script taken from build/slides/vendor.
"""

from __future__ import annotations

import ast
import base64
import copy
import html
import json
import re
import struct
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import execute  # noqa: E402
import lecture  # noqa: E402
import decks  # noqa: E402  (tools/publishing/decks.py: the offline decks)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTION = re.compile(r"### (BEGIN|END) (SOLUTION|HIDDEN TESTS)")


def kind(cell):
    return cell.metadata.get("slideshow", {}).get("slide_type")


def md(source):
    return nbformat.v4.new_markdown_cell(source)


def code(source, outputs=()):
    return nbformat.v4.new_code_cell(source, outputs=list(outputs))


# --------------------------------------------------------------------------- slide structure (tools/execute.py)
def test_slide_types_of_each_kind_of_cell():
    cells = [md("# Title\n\nintro"), code("import numpy as np"), code("def helper(): pass"),
             md("## 1. A section"), md("Prose."), md("**Erratum.** The notes say 3."), md("**Erratum**: also"),
             md("**Trapezoids.** An aside."), md("**expected cost** is the total cost ..."),
             md("### A sub-section"), md("## Practice\n\nExercises."), md("**Exercise 1 (2 points).** Write f."),
             code("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"), code("assert f() == 1"),
             md("## Summary\n\n- a"), md("**Next:** notebook 02.")]
    execute.set_slide_types(cells)
    assert [kind(c) for c in cells] == [
        "slide", "subslide", None,  # the set-up cell leaves the title slide; helpers follow it
        "slide", None, "subslide", "subslide", "subslide", None, "subslide",
        "slide", "slide", None, None,  # an exercise is a slide; its answer and tests stay on it
        "slide", None]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_course_notebooks_title_slide_holds_no_code(path):
    cells = execute.build(ROOT / "notebooks" / "py" / f"{path.stem}.py").cells
    assert kind(cells[0]) == "slide"
    first_code = next(c for c in cells if c.cell_type == "code")
    assert kind(first_code) == "subslide", "the imports must not fill the title slide"
    exercises = [c for c in cells if c.cell_type == "markdown" and c.source.startswith("**Exercise")]
    assert all(kind(c) == "slide" for c in exercises)
    sections = [c for c in cells if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert len(sections) >= 5 and all(kind(c) == "slide" for c in sections)


# --------------------------------------------------------------------------- the lecture version
@pytest.fixture(scope="module", params=NOTEBOOKS, ids=lambda p: p.stem)
def versions(request):
    original = nbformat.read(request.param, as_version=4)
    return original, lecture.lecture_version(original, lecture.speaker_notes(request.param), request.param.name)


def sources(notebook) -> str:
    return "\n".join(cell.source for cell in notebook.cells)


def test_lecture_version_has_no_solutions_or_hidden_tests(versions):
    original, version = versions
    solutions = sum(1 for c in original.cells if c.metadata.get("nbgrader", {}).get("solution"))
    hidden = sources(original).count("### BEGIN HIDDEN TESTS")
    assert solutions >= 4 and hidden >= 4, "the instructor notebook has its exercises"
    assert not SOLUTION.search(sources(version))
    # every solution region became the student stub, as in the student release
    assert sources(version).count("raise NotImplementedError()") >= solutions


def test_lecture_version_keeps_every_output_and_the_widget_state(versions):
    original, version = versions
    def outputs(nb):
        return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert outputs(version) == outputs(original), "outputs are kept, in order, unchanged"
    assert version.metadata.get("widgets") == original.metadata.get("widgets")
    assert "rise" not in version.metadata, "one slideshow tool (jupyterlab-slideshow), no RISE settings"


def test_lecture_version_keeps_the_code_that_runs(versions):
    """Cells split for the slides still hold the same code: joined back, every non-exercise cell is there."""
    original, version = versions
    kept = sources(version)
    for cell in original.cells:
        if cell.cell_type == "code" and not cell.metadata.get("nbgrader"):
            for line in cell.source.splitlines():
                assert line in kept


def test_estimated_slide_heights_fit(versions):
    _, version = versions
    used = None
    for cell in version.cells:
        if kind(cell) == "notes":  # the speaker view's, never on the slide
            continue
        if kind(cell) in ("slide", "subslide") or used is None:
            used = 0
        used += lecture.cell_height(cell)
        alone = lecture.cell_height(cell)
        assert used <= lecture.BUDGET or alone == used, "a slide holds more than fits, beside a single tall cell"


def test_a_long_markdown_cell_is_split_at_paragraphs():
    paragraphs = [f"Paragraph {i}. " + "word " * 120 for i in range(8)]
    cell = md("\n\n".join(paragraphs))
    cell.metadata["slideshow"] = {"slide_type": "slide"}
    parts = lecture.split_markdown(cell)
    assert len(parts) > 1
    assert "\n\n".join(p.source for p in parts) == cell.source
    assert kind(parts[0]) == "slide" and all(kind(p) == "subslide" for p in parts[1:])
    assert all(lecture.markdown_height(p.source) <= lecture.BUDGET for p in parts)


def test_a_list_taller_than_a_slide_is_split_at_its_items():
    """A summary's bullet list on one slide ran 230 px off the screen (02): a list taller than a slide on its own
    is cut between its items (an item's continuation lines stay with it), the heading stays with the first."""
    items = [f"- Item {i}: " + "word " * 50 + f"\n  continued {i}" for i in range(12)]
    cell = md("## Summary\n\n" + "\n".join(items) + "\n\nNext: notebook 03.")
    cell.id = "sum"
    parts = lecture.split_markdown(cell)
    assert len(parts) > 1 and parts[0].source.startswith("## Summary\n\n- Item 0")
    assert all(lecture.markdown_height(p.source) <= lecture.BUDGET for p in parts)
    assert [p.id for p in parts[1:]] == [f"sum-{i}" for i in range(1, len(parts))]
    assert all(kind(p) == "subslide" for p in parts[1:])
    shown = [line for p in parts for line in p.source.splitlines() if line.startswith("- Item")]
    assert shown == [item.splitlines()[0] for item in items], "every item once, in order, never cut"
    for part in parts:
        for number in re.findall(r"^- Item (\d+)", part.source, re.M):
            assert f"  continued {number}" in part.source
    assert parts[-1].source.endswith("Next: notebook 03.")


def test_a_code_block_taller_than_a_slide_is_split_between_statements():
    """An exercise's visible tests, shown as a code block (1,100 px in 02 and 1,500 px in 06): each part is a fenced
    block of whole top-level statements that compiles on its own, and together they are the code, in order."""
    statements = [f"value_{i} = answer({i})\nassert value_{i} == {i}, \\\n    (f\"got {{value_{i}}}, expected {i}\")"
                  for i in range(30)] + ["def helper(x):\n    return x\n\n\n@decorate\ndef other(y):\n    return y"]
    source = "\n".join(statements)
    cell = md("*The tests (students run them in their copy):*\n\n" + lecture.fenced(source))
    cell.id = "tests"
    parts = lecture.split_markdown(cell)
    assert len(parts) > 2 and parts[0].source.startswith("*The tests")
    code_parts = []
    for part in parts:
        assert lecture.markdown_height(part.source) <= lecture.BUDGET
        block = part.source.split("```python\n", 1)[1]
        assert block.endswith("\n```")
        code_parts.append(block[:-4])
        compile(code_parts[-1], "<part>", "exec")
    assert "\n".join(code_parts) == source
    assert any(p.startswith("@decorate") or "\n@decorate" in p for p in code_parts)
    assert not any(p.rstrip().endswith("@decorate") for p in code_parts), "a decorator stays with its function"
    other = md("```text\n" + "\n".join(f"line {i}" for i in range(60)) + "\n```")
    other.id = "text"
    pieces = lecture.split_markdown(other)
    assert len(pieces) > 1 and all(p.source.startswith("```text\n") and p.source.endswith("\n```") for p in pieces)


def test_a_long_code_cell_is_split_between_statements_and_runs_the_same():
    source = "\n".join(f"x{i} = {i}\nif x{i}:\n    y{i} = x{i} * 2\n" for i in range(40)) + "\nprint(sum([y1, y39]))"
    cell = code(source, [])
    pieces = lecture.split_code(cell)
    assert len(pieces) > 1
    namespace = {}
    for piece in pieces:
        compile(piece.source, "<piece>", "exec")  # each piece is valid on its own
        exec(piece.source, namespace)
    assert namespace["y39"] == 78


def test_a_long_code_cell_that_shows_something_runs_whole_its_code_shown_in_pieces():
    """Cut, a cell would show other things (an expression's value, a figure still empty): its code is shown as
    markdown code blocks cut between statements, then the cell runs whole, input hidden, on its own sub-slide."""
    source = "\n".join(f"x{i} = {i}\nif x{i}:\n    y{i} = x{i} * 2\n" for i in range(40)) + "\nprint(sum([y1, y39]))"
    cell = code(source, [nbformat.v4.new_output("stream", name="stdout", text="80\n")])
    assert lecture.split_code(cell) == [cell]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    lecture.fit_slides(notebook)
    shown = [c for c in notebook.cells if c.cell_type == "markdown"]
    runs = [c for c in notebook.cells if c.cell_type == "code"]
    assert len(shown) > 1 and len(runs) == 1, "the code in several slides' blocks, the cell once"
    assert runs[0].source == source and runs[0].outputs == cell.outputs
    assert runs[0].metadata["jupyter"]["source_hidden"] and runs[0].metadata["slideshow"]["slide_type"] == "subslide"
    blocks = [c.source.split("\n", 1)[1].rsplit("\n", 1)[0] for c in shown]  # inside each fence
    assert "\n".join(blocks).replace("\n", "") == source.replace("\n", ""), "every line of the code is shown"


def test_a_long_code_cell_is_never_cut_after_an_expression_that_would_display():
    """A piece's last statement is never a bare expression (it would show its value, as ``ax.hist(...)`` showed
    its arrays on 03's slide): the cut moves to after the statement before it."""
    plain = [f"a{i} = {i}" for i in range(40)]
    natural = len(lecture.split_code(code("\n".join(plain), []))[0].source.splitlines())  # where it is cut
    lines = plain[:natural - 1] + ["len('shown')"] + plain[natural:]  # an expression just before that cut
    cell = code("\n".join(lines), [])
    pieces = lecture.split_code(cell)
    assert len(pieces) > 1
    assert "\n".join(p.source for p in pieces) == cell.source
    for piece in pieces[:-1]:
        last = ast.parse(piece.source).body[-1]
        assert not isinstance(last, ast.Expr), f"a piece ends on an expression it would display: {piece.source[-40:]!r}"
    printed = code("\n".join(plain[:natural - 1] + ["print('printed')"] + plain[natural:]), [])
    assert lecture.split_code(printed)[0].source.endswith("print('printed')"), "a cut after print() is fine"


def png(width: int, height: int) -> str:
    """A base64 PNG header of ``width`` x ``height`` pixels (all that tools/publishing/lecture.py reads of an image)."""
    header = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + struct.pack(">II", width, height)
    return base64.b64encode(header + b"\x08\x06\x00\x00\x00").decode()


def test_an_image_counts_as_tall_as_a_slide_shows_it_scaled_to_the_width():
    assert lecture.png_size(png(415, 353)) == (415, 353)
    assert lecture.shown_image_height(png(lecture.IMAGE_WIDTH, 300)) == 300
    assert lecture.shown_image_height(png(lecture.IMAGE_WIDTH // 4, 100)) == 400, "a narrow figure is scaled up"
    assert lecture.shown_image_height(png(415, 353)) == lecture.IMAGE_MAX, "never taller than IMAGE_MAX"


def test_tall_outputs_move_to_a_subslide_of_their_own_cell():
    """A cell too tall for its slide: its code shows on the slide (a markdown code block), the cell itself, input
    hidden, opens a sub-slide with every output; the code runs once, so Run All refills that sub-slide."""
    image = {"image/png": "iVBORw0KGgoAAAANSUhEUgAAAfQAAAHCCAYAAAAO4K4VAAAA"}  # a 500 x 450 PNG header
    outputs = [nbformat.v4.new_output("display_data", data=image) for _ in range(3)]
    cell = code("plot(`x`)", outputs)
    cell.id = "cell-1"
    shown, runs = lecture.split_outputs(cell)
    assert lecture.png_size(image["image/png"]) == (500, 450)
    assert shown.cell_type == "markdown" and shown.source == "```python\nplot(`x`)\n```"
    assert runs.source == "plot(`x`)" and runs.outputs == outputs and kind(runs) == "subslide"
    assert lecture.OUTPUT_TAG in runs.metadata["tags"] and runs.metadata["jupyter"]["source_hidden"]
    assert lecture.fenced("a = '```'") == "````python\na = '```'\n````"


def test_visible_tests_are_shown_not_run(versions):
    """The lecture version has no solutions, so an exercise's visible tests would raise in Run All: each is a
    markdown cell showing the tests and saying the students run them; no graded code cell is left."""
    original, version = versions
    tests = [c for c in original.cells if lecture.is_visible_test(c)]
    assert len(tests) >= 4
    assert not any(lecture.is_visible_test(c) for c in version.cells)
    shown = [c for c in version.cells if c.cell_type == "markdown" and c.source.startswith("*The tests (students")]
    assert len(shown) == len(tests)
    assert all(t.source.splitlines()[0] in sources(version) for t in tests)


def test_one_stop_per_slide_and_a_closing_slide(versions):
    """Every cell that continues a slide is a layer of it (jupyterlab-slideshow does not stop on it); the last
    slide is a single cell, the closing slide."""
    _, version = versions
    on_slides = [c for c in version.cells if kind(c) not in ("notes", "skip")]
    for cell in on_slides:
        layered = cell.metadata.get(lecture.LAYER_KEY, {}).get("layer") == "slide"
        assert layered == (kind(cell) in (None, "-")), cell.source[:60]
    assert version.cells[-1].id == "lecture-end" and kind(version.cells[-1]) == "slide"
    assert version.cells[-1].source.startswith("# End of ")


def test_live_version_has_its_speaker_notes_beside_it(tmp_path):
    """The live lecture version has no notes cells (the slideshow would stop on them with nothing on screen);
    every section's notes, and those of the part before section 1, are in NN_name.notes.md beside it, headed by
    their slide's number."""
    path = NOTEBOOKS[0]
    target = lecture.write_lecture(path, tmp_path)
    live = nbformat.read(target, as_version=4)
    assert not any(kind(c) == "notes" for c in live.cells)
    text = (tmp_path / f"{path.stem}.notes.md").read_text()
    slides = [c for c in live.cells if kind(c) == "slide"]
    for heading, fields in lecture.speaker_notes(path).items():
        number = next(k for k, h in enumerate(lecture.notes_headings(slides), start=1) if h == heading)
        assert f"### Slide {number}: {heading} ({fields['Time']})" in text
        assert fields["Ask"] in text and fields["Answer"] in text
        assert fields.get(lecture.PACE, "") in text
    # every stop of the slideshow (sub-slides too) under its section's notes, in order, by its opening words
    stops = [c for c in live.cells if kind(c) in ("slide", "subslide")]
    listed = re.findall(r"^- stop (\d+): (.*)$", text, re.MULTILINE)
    assert [int(n) for n, _ in listed] == list(range(1, len(stops) + 1))
    assert [words for _, words in listed] == [lecture.stop_line(c) for c in stops]
    for block in text.split("\n### ")[1:]:
        heading = block.split("\n", 1)[0].split(": ", 1)[1].rsplit(" (", 1)[0]
        first = next(k for k, c in enumerate(stops) if lecture.notes_headings([c])[0] == heading
                     or lecture.section_heading(c) == heading)
        assert f"- stop {first + 1}: " in block, f"{heading}: its first stop is not under its notes"


def test_live_version_gives_the_speaker_view_each_stops_notes_and_opening(tmp_path):
    """The live lecture version's metadata, which the lecture JupyterLab's speaker view reads: every stop's first
    cell has its number, its slide's and the notes block of its section (its sub-slides too), and its opening words;
    the notebook has the number of stops and each block's fields as notebooks/speaker_notes gives them, with its first
    stop."""
    path = NOTEBOOKS[1]
    live = nbformat.read(lecture.write_lecture(path, tmp_path), as_version=4)
    notes = lecture.speaker_notes(path)
    stops = [c for c in live.cells if kind(c) in ("slide", "subslide")]
    shown = live.metadata[lecture.NOTES_KEY]
    assert shown["stops"] == len(stops) and [b["heading"] for b in shown["blocks"]] == list(notes)
    for block in shown["blocks"]:
        assert {k: v for k, v in block.items() if k not in ("heading", "slide", "first")} == notes[block["heading"]]
    heading, slide = None, 0
    for number, cell in enumerate(stops, start=1):
        slide += kind(cell) == "slide"
        heading = lecture.section_heading(cell) or (lecture.INTRO if number == 1 else heading)
        meta = cell.metadata[lecture.SPEAKER_KEY]
        assert meta == {"stop": number, "slide": slide, "notes": list(notes).index(heading),
                        "opening": lecture.stop_line(cell)}, cell.source[:60]
        if lecture.section_heading(cell) or number == 1:
            assert shown["blocks"][meta["notes"]]["first"] == number
    assert not any(lecture.SPEAKER_KEY in c.metadata for c in live.cells if kind(c) not in ("slide", "subslide"))


def test_the_lecture_jupyterlab_has_its_own_configuration(tmp_path):
    """`make present`: the presenting style, nbgrader's lab extension off, and the slideshow's remembered
    "presenting" state cleared at each start."""
    remembered = tmp_path / "lab" / "user-settings" / "jupyterlab-slideshow" / "plugin.jupyterlab-settings"
    remembered.parent.mkdir(parents=True)
    remembered.write_text('{"active": true}')
    options, env = lecture.present_options(tmp_path)
    assert options == ["--custom-css", f"--LabApp.extra_labextensions_path={lecture.SPEAKER_EXTENSIONS}"]
    assert env == {"JUPYTER_CONFIG_DIR": str(tmp_path), lecture.PROJECTOR: "1"}
    # its own extension (the speaker view, the slider keys), built from tools/publishing/present/speaker
    built = json.loads((lecture.SPEAKER_EXTENSIONS / "course-speaker-view" / "package.json").read_text())
    assert (lecture.SPEAKER_EXTENSIONS / "course-speaker-view" / built["jupyterlab"]["_build"]["load"]).is_file()
    assert not remembered.exists()
    assert "font-size" in (tmp_path / "custom" / "custom.css").read_text()
    page_config = json.loads((tmp_path / "labconfig" / "page_config.json").read_text())
    assert page_config["disabledExtensions"] == {"@jupyter/nbgrader": True}
    shortcuts = tmp_path / "lab" / "user-settings" / "@jupyterlab" / "shortcuts-extension" / "shortcuts.jupyterlab-settings"
    keys = {binding["keys"][0] for binding in json.loads(shortcuts.read_text())["shortcuts"]}
    assert keys >= {"PageDown", "PageUp", "Space", "Shift Space", "ArrowRight", "ArrowLeft", "Escape"}


def test_the_lecture_jupyterlab_starts_without_errors_or_warnings(tmp_path):
    """`make present`'s JupyterLab logs no error and no warning while it starts (nbgrader's server extensions,
    which logged "[E ...] The course directory root is not a subdirectory ...", are off in it)."""
    import os
    import socket
    import subprocess
    import sys
    import time

    options, env = lecture.present_options(tmp_path / ".config")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}", str(tmp_path),
         "--ServerApp.ip=127.0.0.1", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", *options],
        env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / ".runtime"), **env},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        log, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            line = server.stdout.readline()
            log.append(line)
            if "http://127.0.0.1" in line and "/lab" in line or not line:
                break
    finally:
        server.terminate()
        log += server.communicate(timeout=30)[0].splitlines(keepends=True)
    assert any("jupyterlab | extension was successfully loaded" in line for line in log), "".join(log)[-2000:]
    assert not [line for line in log if line.startswith(("[E", "[W"))], "".join(log)[-3000:]


# --------------------------------------------------------------------------- the decks
@pytest.fixture(scope="module")
def deck_html():
    notebook = lecture.lecture_version(nbformat.read(NOTEBOOKS[0], as_version=4),
                                       lecture.speaker_notes(NOTEBOOKS[0]), NOTEBOOKS[0].name)
    return decks.deck(notebook)


def test_deck_loads_nothing_from_the_network(deck_html):
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", deck_html)
    assert "import mermaid" not in deck_html
    for option, path in decks.ASSETS.items():
        assert path.split("?")[0] in deck_html, f"{option} points into build/slides/vendor"


def test_deck_is_1280_by_720_and_fits(deck_html):
    assert "width: 1280" in deck_html and "height: 720" in deck_html
    assert "margin: 0" in deck_html, "the slide fills the screen: shown at scale 1, its text as large as set"
    assert "white-space: pre-wrap" in deck_html, "code wraps instead of running off the slide"
    assert "max-height: 330px" not in deck_html, "no output in a scroll box: the presenter's keys cannot scroll it"
    assert "max-height: 470px" in deck_html, "a figure at most as tall as tools/publishing/lecture.py plans it"
    assert "celltag_lecture-output" in deck_html
    assert not SOLUTION.search(deck_html)


def test_vendored_files_exist_after_make_slides():
    missing = decks.missing_assets()
    assert missing == [], f"run `make slides` (npm ci into build/slides/vendor): {missing}"
    lock = (ROOT / "tools" / "publishing" / "vendor" / "package-lock.json").read_text()
    package = (ROOT / "tools" / "publishing" / "vendor" / "package.json").read_text()
    for name in ("reveal.js", "requirejs", "jquery", "mathjax", "@jupyter-widgets/html-manager"):
        assert f'"node_modules/{name}"' in lock and f'"{name}"' in package


def test_remote_guard_rejects_a_cdn_script():
    notebook = nbformat.v4.new_notebook(cells=[md('<script src="https://cdn.example/x.js"></script>')])
    with pytest.raises(RuntimeError, match="network"):
        decks.deck(copy.deepcopy(notebook))


def test_notebooks_with_a_slider_are_executed_again_for_their_decks():
    assert decks.has_explorer(nbformat.v4.new_notebook(cells=[code("x = 1\nfbeta_explorer()")]))
    assert not decks.has_explorer(nbformat.v4.new_notebook(cells=[code("concept_check('01.kappa')"),
                                                                    md("`fbeta_explorer()` in prose")]))
    with_sliders = [p.stem for p in NOTEBOOKS if decks.has_explorer(nbformat.read(p, as_version=4))]
    assert with_sliders == ["01_metrics", "02_roc_by_hand", "03_cross_validation", "04_oversampling",
                            "05_learning_curves"]


def figure_output(png: bytes, alt: str):
    data = base64.b64encode(png).decode()
    return nbformat.v4.new_output("display_data", data={"image/png": data, "text/plain": f"<Figure: {alt}>",
                                                        "text/html": f'<img src="data:image/png;base64,{data}" alt="{alt}">'},
                                  metadata={"image/png": {"alt": alt}})


def test_every_notebook_with_a_slider_or_a_figure_runs_again_up_to_the_later_of_its_last_two():
    """Issue 43: a deck run draws the static figures for the projector too, so it runs up to the last explorer or
    the last figure, whichever comes later; a notebook with neither is not run."""
    from frames import run_end

    figure = figure_output(b"png", "a figure")
    assert run_end(nbformat.v4.new_notebook(cells=[code("x = 1"), code("fbeta_explorer()"), code("show(fig)", [figure]),
                                                   code("y = 2")])) == 2
    assert run_end(nbformat.v4.new_notebook(cells=[code("show(fig)", [figure]), code("fbeta_explorer()"),
                                                   md("text")])) == 1
    assert run_end(nbformat.v4.new_notebook(cells=[code("x = 1"), md("`show(fig)`")])) is None
    assert all(run_end(nbformat.read(path, as_version=4)) is not None for path in NOTEBOOKS), "a notebook with neither"


def test_a_deck_shows_the_figures_the_run_drew_for_the_projector_with_their_text_size():
    """decks.projector_figures: each figure output takes the deck run's PNG (frames.PROJECTOR_FIGURES, by cell id and
    order), its <img> keeps its alt and says its smallest text as drawn and its title; the record leaves the
    notebook; a cell whose figures the run did not draw is an error."""
    from frames import PROJECTOR_FIGURES

    notebook = nbformat.v4.new_notebook(cells=[code("show(a)\nshow(b)", [figure_output(b"own-a", "A & co"),
                                                                           figure_output(b"own-b", "B")])])
    drawn = [{"image/png": base64.b64encode(name).decode(), "text/html": None, "text_px": px, "title": title}
             for name, px, title in ((b"projector-a", 15.28, 'a "title"'), (b"projector-b", 12.0, "b"))]
    notebook.metadata[PROJECTOR_FIGURES] = {notebook.cells[0].id: drawn}
    assert decks.projector_figures(notebook) == 2
    assert PROJECTOR_FIGURES not in notebook.metadata
    first, second = notebook.cells[0].outputs
    assert base64.b64decode(first.data["image/png"]) == b"projector-a"
    assert base64.b64decode(second.data["image/png"]) == b"projector-b"
    assert f'<img {decks.FIGURE_TITLE}="a &quot;title&quot;" {decks.FIGURE_TEXT_PX}="15.28"' in first.data["text/html"]
    assert 'alt="A &amp; co"' in first.data["text/html"] and drawn[0]["image/png"] in first.data["text/html"]
    assert f'{decks.FIGURE_TEXT_PX}="12.0"' in second.data["text/html"]
    mismatched = nbformat.v4.new_notebook(cells=[code("show(a)", [figure_output(b"own", "A")])])
    mismatched.metadata[PROJECTOR_FIGURES] = {}
    with pytest.raises(ValueError, match="shows 1 figure"):
        decks.projector_figures(mismatched)


def test_a_concept_check_and_the_line_announcing_it_share_a_slide_in_a_deck():
    """Review L8: a deck's slide that only announces a concept check joins the check's slide; an announcement with
    more to read, or a slide before other code, keeps its own."""
    intro = "**Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong."

    def subslide(cell):
        cell.metadata["slideshow"] = {"slide_type": "subslide"}
        return cell

    cells = [subslide(md(intro)), subslide(code('concept_check("01.kappa")')),
             subslide(md("Some text.\n\n" + intro)), subslide(code('concept_check("01.fbeta")')),
             subslide(md(intro)), subslide(code("x = 1"))]
    notebook = nbformat.v4.new_notebook(cells=cells)
    assert decks.join_concept_checks(notebook) == 1
    assert [kind(cell) for cell in notebook.cells] == ["subslide", "-", "subslide", "subslide", "subslide", "subslide"]


def test_deck_keeps_slider_keys_from_the_slides_and_names_the_handles(deck_html):
    """The deck's script: a key on a focused slider stops at the deck (reveal.js listens on the document);
    each handle gets its label as accessible name; the frames' tab bars are hidden."""
    assert "deck.addEventListener('keydown'" in deck_html and "event.stopPropagation()" in deck_html
    assert "handle.setAttribute('aria-labelledby', label.id)" in deck_html
    assert ".course-deck-frames > .lm-TabBar" in deck_html
    assert "table.setAttribute('tabindex', '0')" in deck_html, "a table that scrolls takes the focus"


# --------------------------------------------------------------------------- speaker notes
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_section_has_speaker_notes(path):
    """notebooks/speaker_notes/NN_name.md has one complete block per section heading of the notebook and one for
    the part before section 1 (lecture.INTRO), no more; a block may say how it is skimmed (lecture.PACE)."""
    notes = lecture.speaker_notes(path)
    headings = [h for h in map(lecture.section_heading, nbformat.read(path, as_version=4).cells) if h]
    assert len(headings) >= 5 and sorted(notes) == sorted([lecture.INTRO, *headings])
    for heading, fields in notes.items():
        assert set(lecture.NOTE_FIELDS) <= set(fields) <= {*lecture.NOTE_FIELDS, lecture.PACE}, heading
        assert fields["Ask"].endswith("?"), f"{heading}: the question to ask ends with a question mark"
        assert re.fullmatch(r"\d+ min", fields["Time"]) and 1 <= int(fields["Time"].split()[0]) <= 15


def test_speaker_notes_follow_their_section_heading_as_notes_cells(versions):
    original, version = versions
    cells = version.cells
    sections = [i for i, c in enumerate(cells) if lecture.section_heading(c)]
    assert sections and not lecture.section_heading(cells[0])
    for i in [0, *sections]:  # the title (the part before section 1), then each section's heading
        note = cells[i + 1]
        assert kind(note) == "notes" and lecture.NOTES_TAG in note.metadata["tags"]
        assert note.source.startswith(f"**Speaker notes: {lecture.notes_headings(cells)[i]}**")
        assert "**Ask:**" in note.source and "**Answer:**" in note.source and "**Get across:**" in note.source
    notes_cells = [c for c in cells if kind(c) == "notes"]
    assert len(notes_cells) == len(sections) + 1
    assert not any(kind(c) == "notes" for c in original.cells), "the instructor notebook has no notes"


def test_speaker_notes_are_never_in_the_student_material():
    """The student versions are built from notebooks/*.ipynb and notebooks/py/*.py (nbgrader strips only
    solutions and hidden tests): the notes' questions and answers appear in neither."""
    for path in NOTEBOOKS:
        notes = lecture.speaker_notes(path)
        texts = [(ROOT / "notebooks" / "py" / f"{path.stem}.py").read_text(), path.read_text()]
        for heading, fields in notes.items():
            for field in ("Ask", "Answer"):
                assert not any(fields[field] in text for text in texts), f"{path.name} {heading}: {field} leaked"


def test_deck_puts_speaker_notes_in_the_speaker_view_only(deck_html):
    """Each section's notes are a reveal.js <aside class="notes"> (shown by the speaker view, S), and their
    text appears nowhere else on the slides."""
    notes = lecture.speaker_notes(NOTEBOOKS[0])
    asides = re.findall(r'<aside class="notes">(.*?)</aside>', deck_html, re.S)
    assert len(asides) == len(notes)
    projected = re.sub(r'<aside class="notes">.*?</aside>', "", deck_html, flags=re.S)
    for heading, fields in notes.items():
        ask = html.escape(fields["Ask"], quote=False).split("`")[0][:40]
        assert any(ask in aside for aside in asides), f"{heading}: no notes in the speaker view"
        assert ask not in projected, f"{heading}: the notes show on the projected slide"


def test_the_same_slides_live_and_in_the_deck(versions):
    """jupyterlab-slideshow and the deck read the same slide types: the deck has one <section> per slide, inside
    it one per sub-slide (the slide's first part included)."""
    _, version = versions
    kinds = [kind(c) for c in version.cells]
    body = decks.deck(version)
    assert body.count("<section") == 2 * kinds.count("slide") + kinds.count("subslide")
    # the deck adds only the sub-slides of outputs too tall for one (decks.split_tall_outputs)
    deck = copy.deepcopy(version)
    decks.split_tall_outputs(deck)
    assert [c.id for c in deck.cells if "-outputs-" not in c.id] == [c.id for c in version.cells]


def figure_outputs(height: int, details: bool = True) -> list:
    """A figure's outputs as helpers.figures.show writes them: the PNG (its header says ``height``), then its long
    description, collapsed."""
    image = nbformat.v4.new_output("display_data", data={"image/png": png(lecture.IMAGE_WIDTH, height),
                                                          "text/html": "<img>"})
    text = nbformat.v4.new_output("display_data", data={"text/html": '<details class="x"><summary>Figure details'})
    return [image, text] if details else [image]


def test_the_deck_spreads_outputs_taller_than_a_slide_over_subslides():
    """An outputs-only sub-slide whose outputs together are taller than a slide (02: a 250 px table above a 480 px
    figure) becomes, in the deck, one sub-slide per group of outputs that fits; a figure keeps its "Figure details"
    with it; the lecture version (live) keeps them in one cell (Run All refills it)."""
    table = nbformat.v4.new_output("stream", name="stdout", text="\n".join(f"row {i}" for i in range(10)) + "\n")
    outputs = [table, *figure_outputs(450), *figure_outputs(300)]
    assert [len(g) for g in decks.output_groups(outputs)] == [1, 2, 2]
    assert decks.output_groups(outputs[:3])[1] == outputs[1:3]
    assert [len(g) for g in decks.output_groups(figure_outputs(100) * 3)] == [6], "small ones share a slide"
    cell = code("make_figures()", outputs)
    cell.id = "c1"
    shown, runs = lecture.split_outputs(cell)
    notebook = nbformat.v4.new_notebook(cells=[shown, runs, md("after")])
    assert decks.split_tall_outputs(notebook) == 2
    cells = notebook.cells
    assert [c.id for c in cells[1:4]] == ["c1", "c1-outputs-1", "c1-outputs-2"]
    assert [c.outputs for c in cells[1:4]] == decks.output_groups(outputs)
    assert all(kind(c) == "subslide" and lecture.OUTPUT_TAG in c.metadata["tags"] for c in cells[1:4])
    assert cells[4].source == "after"
    for group in decks.output_groups(outputs):
        assert sum(lecture.output_height(o) for o in group) <= lecture.BUDGET


def test_a_slider_stays_with_its_code_on_a_subslide_of_its_own():
    """Run All in the live slideshow puts a live widget back into its own cell: a tall explorer cell is not
    split (as an image output would be) but opens a sub-slide, so both slideshows show the same slide."""
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "x", "version_major": 2, "version_minor": 0}}
    cell = code("\n".join(f"line_{i} = {i}" for i in range(4)) + "\nexplorer()",
                [nbformat.v4.new_output("display_data", data=view)])
    assert lecture.cell_height(cell) > lecture.BUDGET
    pieces = lecture.split_outputs(cell)
    assert pieces == [cell] and kind(cell) == "subslide" and len(cell.outputs) == 1


@pytest.mark.parametrize("path", NOTEBOOKS[:5], ids=lambda p: p.stem)
def test_course_explorers_keep_their_outputs_in_the_lecture_version(path):
    version = lecture.lecture_version(nbformat.read(path, as_version=4), lecture.speaker_notes(path), path.name)
    cells = [c for c in version.cells if c.cell_type == "code" and re.search(r"\w+_explorer\(", c.source)
             and "import" not in c.source]
    assert cells and all(any(lecture.WIDGET_VIEW in o.get("data", {}) for o in c.outputs) for c in cells)
    assert all(kind(c) in ("slide", "subslide") for c in cells), "each slider opens its own (sub-)slide"


def test_shown_models_follows_references_and_ignores_the_rest():
    state = {
        "box": {"state": {"children": ["IPY_MODEL_aa01", "IPY_MODEL_bb02"], "layout": "IPY_MODEL_cc03"}},
        "aa01": {"state": {"style": "IPY_MODEL_dd04"}},
        "bb02": {"state": {"description": "no reference"}},
        "cc03": {"state": {}},
        "dd04": {"state": {"layout": "IPY_MODEL_box"}},  # a cycle ends
        "unshown": {"state": {"layout": "IPY_MODEL_ee05"}},
        "ee05": {"state": {}},
    }
    outputs = [{"output_type": "display_data", "data": {decks.WIDGET_VIEW: {"model_id": "box"}}},
               {"output_type": "stream", "text": "IPY_MODEL_unshown"},
               {"output_type": "display_data", "data": {decks.WIDGET_VIEW: {"model_id": "gone"}}}]
    shown = decks.shown_models(outputs, state)
    assert shown.found == {"box", "aa01", "bb02", "cc03", "dd04"}
    assert shown.missing == {"gone"}, "a shown model with no state is reported, not dropped"
    state["aa01"]["state"]["style"] = "IPY_MODEL_ff06"  # a reference to a model the state lacks
    assert decks.shown_models(outputs, state).missing == {"gone", "ff06"}
    assert decks.shown_models([], state) == ({*()}, {*()})


def test_every_slide_of_a_section_carries_its_speaker_notes():
    """Review L5: the deck's speaker view showed a section's notes on its first slide only. After
    decks.notes_on_every_slide each sub-slide of a section has the section's notes, marked "(continued)"; the
    slides before the first section have none, and a slide that has notes keeps only its own."""
    def cell(kind, source):
        made = md(source)
        made.metadata["slideshow"] = {"slide_type": kind}
        return made

    def notes(heading):
        made = cell("notes", f"**Speaker notes: {heading}** (5 min)\n\n**Get across:** {heading} matters.")
        made.metadata["tags"] = [lecture.NOTES_TAG]
        return made

    notebook = nbformat.v4.new_notebook(cells=[
        cell("slide", "# Title"), cell("subslide", "You will learn"),
        cell("slide", "## 1. A"), notes("1. A"), cell("subslide", "a table"), md("more of it"), cell("subslide", "b"),
        cell("slide", "## 2. B"), notes("2. B"), cell("subslide", "c")])
    assert decks.notes_on_every_slide(notebook) == 3
    slides, current = [], None
    for made in notebook.cells:
        kind = made.metadata.get("slideshow", {}).get("slide_type")
        if kind in ("slide", "subslide"):
            current = [made.source, []]
            slides.append(current)
        elif kind == "notes":
            current[1].append(made.source.split("\n")[0])
    assert slides == [
        ["# Title", []], ["You will learn", []],
        ["## 1. A", ["**Speaker notes: 1. A** (5 min)"]],
        ["a table", ["**Speaker notes: 1. A** (continued) (5 min)"]],
        ["b", ["**Speaker notes: 1. A** (continued) (5 min)"]],
        ["## 2. B", ["**Speaker notes: 2. B** (5 min)"]],
        ["c", ["**Speaker notes: 2. B** (continued) (5 min)"]]]
    assert len({made.id for made in notebook.cells}) == len(notebook.cells), "each copy has an id of its own"


def test_published_links_point_at_the_published_files_and_keep_a_query():
    cases = {"02_roc_by_hand.ipynb#7.-Costs": "02_roc_by_hand.slides.html#7.-Costs",
             "glossary.md#recall": "glossary.html#recall",
             "lite/lab/index.html?path=02_roc_by_hand.ipynb": "lite/lab/index.html?path=02_roc_by_hand.ipynb",
             "01_metrics.ipynb?x=1#a": "01_metrics.slides.html?x=1#a",
             "https://example.org/a.ipynb": "https://example.org/a.ipynb", "#top": "#top"}
    assert {url: decks.published_link(url, ".slides.html") for url in cases} == cases
    assert decks.published_link("downloads/01_metrics.ipynb", ".html", keep=("downloads/",)) == \
        "downloads/01_metrics.ipynb"


def runs_of(source: str, outputs: list):
    """An outputs-only sub-slide of the lecture version (lecture.split_outputs) with ``outputs``."""
    cell = code(source, outputs)
    cell.id = "c1"
    return lecture.split_outputs(cell)[-1] if lecture.cell_height(cell) > lecture.BUDGET else None


def test_live_outputs_taller_than_a_stop_run_as_cells_of_their_own_cut_at_a_figures_edges():
    """Live, a cell's outputs taller than a stop (02 section 11: a 16-line table above a 480 px figure) run as
    consecutive cells cut between top-level statements, never with a figure open: the text printed before the
    figure on one stop, the figure (from the statement that opens it to its show) and its long description on the
    next, what is printed after it on a third if it does not fit; together the pieces are the cell's code and
    outputs, in order."""
    table = nbformat.v4.new_output("stream", name="stdout", text="".join(f"row {i}\n" for i in range(16)))
    after = nbformat.v4.new_output("stream", name="stdout", text="".join(f"after {i}\n" for i in range(12)))
    source = ("scores = compute()\nfor row in scores:\n    print(row)\nlabel = 'x'\n"
              "fig, ax = plt.subplots()\nax.plot(scores)\nshow(fig, 'a figure')\nprint(summary)")
    runs = runs_of(source, [table, *figure_outputs(450), after])
    pieces = lecture.split_live_outputs(runs)
    assert [p.source for p in pieces] == ["scores = compute()\nfor row in scores:\n    print(row)\nlabel = 'x'",
                                          "fig, ax = plt.subplots()\nax.plot(scores)\nshow(fig, 'a figure')",
                                          "print(summary)"]
    assert [p.outputs for p in pieces] == [[table], runs.outputs[1:3], [after]]
    assert [p.id for p in pieces] == ["c1", "c1-part-1", "c1-part-2"]
    assert all(kind(p) == "subslide" and lecture.OUTPUT_TAG in p.metadata["tags"] for p in pieces)
    assert all(sum(map(lecture.live_height, p.outputs)) <= lecture.LIVE_STOP for p in pieces)
    # a statement that would display (a bare expression) is never a piece's last: no cut before the figure there
    shown = lecture.split_live_outputs(runs_of(source.replace("label = 'x'", "scores.mean()"),
                                               [table, *figure_outputs(450), after]))
    assert [len(p.outputs) for p in shown] == [3, 1] and shown[0].source.endswith("show(fig, 'a figure')")
    # outputs that fit a stop keep their cell; so does a cell whose outputs do not match its code
    assert lecture.split_live_outputs(runs_of(source, [table, *figure_outputs(100)])) != []
    small = runs_of(source + "\n" * 30, [*figure_outputs(300)])
    assert small is None or lecture.split_live_outputs(small) == [small]
    odd = runs_of("draw()", [table, *figure_outputs(450), after])
    assert lecture.split_live_outputs(odd) == [odd]


def test_live_text_taller_than_a_stop_is_cut_between_its_prints():
    """Live, one text output taller than a stop (04 section 9: three tables printed one after another) runs as
    cells cut after a statement that prints, where the next print's text begins (found by its f-string's words or a
    string in its arguments)."""
    first = "".join(f"fold {k}: kept\n" for k in range(20))
    second = "each test fold:\n" + "".join(f"{k}  0.1  0.2\n" for k in range(20))
    third = "     lower  upper  count\n" + "".join(f"{k}  0.1  0.2\n" for k in range(20))
    text = nbformat.v4.new_output("stream", name="stdout", text=first + second + third)
    source = ("for k in range(20):\n    print(f'fold {k}: kept')\nper_fold = table()\nprint('each test fold:')\n"
              "print(per_fold.to_string())\nbins = reliability()\nprint(bins[['lower', 'upper']].to_string())")
    runs = runs_of(source, [text])
    pieces = lecture.split_live_outputs(runs)
    assert [p.outputs[0]["text"] if len(p.outputs) == 1 else None for p in pieces] == [first, second, third]
    assert "\n".join(p.source for p in pieces) == source
    assert lecture.first_line(ast.parse("print(f'{n} synthetic: {k:.2f}')").body[0], ["a\n", "12 synthetic: 1\n"], 0) == 1
    assert lecture.first_line(ast.parse("print(x.to_string())").body[0], ["a\n"], 0) is None
