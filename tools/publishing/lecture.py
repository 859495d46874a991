"""The lecture version of each notebook: what a lecturer presents, live (jupyterlab-slideshow) or as slides.

    python tools/publishing/lecture.py [notebooks/01_metrics.ipynb ...]   # -> build/lecture/
    python tools/publishing/lecture.py present                            # the lecture JupyterLab on build/lecture/

From an executed instructor notebook it keeps every output and the widget
state, and

- removes the solutions and the hidden tests with nbgrader's own
  ``ClearSolutions`` and ``ClearHiddenTests`` preprocessors (exactly what the
  student release removes), so nothing a student must find shows on a slide;
  the visible tests are shown as code, not run (they would raise without the
  solutions), so Restart Kernel and Run All runs to the end with no error;
- keeps the slide structure ``tools/execute.py`` wrote (sections are slides,
  errata and asides sub-slides, exercises their own slides) and splits what
  would not fit a 1280 x 720 slide: a long markdown cell at its paragraphs, a
  long code cell between statements, a tall cell's outputs onto a sub-slide
  of their own (the cell itself, input hidden: Run All refills it);
- makes every cell that continues a slide a layer of it, so that the live
  slideshow stops once per slide, not once per cell, and closes with a
  single-cell last slide;
- adds the speaker notes of notebooks/speaker_notes/NN_name.md (one block per
  section heading: what the slide must get across, a question for the class
  with its answer, a time): in the decks as reveal.js "notes" cells after each
  section's heading (the speaker view, S); live, in the lecture version's
  metadata for the lecture JupyterLab's speaker view (S, tools/publishing/present/speaker)
  and in ``NN_name.notes.md`` beside the lecture version (a notes cell in
  the notebook would be a stop of the slideshow with nothing on screen). The
  student versions never get them.

The same slide metadata drives both the live slideshow (jupyterlab-slideshow
reads ``metadata.slideshow.slide_type``, as nbconvert's reveal exporter does)
and the decks, so both show the same slides.

``make lecture`` writes build/lecture/, with the files the notebooks link to
(the glossary) next to them so that every link works; ``make present`` starts
the lecture JupyterLab on it (:func:`present_options`); ``make slides``
exports those same lecture notebooks (tools/publishing/decks.py).
"""

from __future__ import annotations

import ast
import base64
import copy
import math
import re
import shutil
import struct
import sys
from pathlib import Path

import nbformat
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tools/: links, execute
import links  # noqa: E402  (tools/links.py: what the notebooks link to)
from execute import set_slide_types  # noqa: E402  (the slide structure of tools/execute.py)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "build" / "lecture"

WIDTH, HEIGHT = 1280, 720
BUDGET = 600  # px of a slide's 720 that cells may fill (title bar, margins and controls take the rest)
# Estimated sizes at 1280 x 720 with the deck's fonts (tools/publishing/deck/course.css): rough but on the safe side.
TEXT_CHARS, TEXT_LINE = 95, 30  # markdown: characters per line, px per line
CODE_CHARS, CODE_LINE = 88, 26  # code and text outputs (wrapped, see course.css)
TABLE_ROW = 44  # a table row of an HTML output (a DataFrame) at 20 px, live (tools/publishing/present/custom.css)
OUTPUT_ALONE = HEIGHT - 40  # live, a text output or table is shown whole: at most a stop of its own (custom.css)
IMAGE_MAX = 470  # images are scaled down to at most this height (course.css)
IMAGE_WIDTH = 1240  # live, an output image is scaled to the slide's width (tools/publishing/present/custom.css)
IMAGE_MARGIN = 8  # above and below an image (course.css)
DETAILS = 44  # a figure's long description under it, collapsed: one "Figure details" line
WIDGET = 560  # a widget view (slider and figure)
CELL_GAP = 16
SPEAKER_NOTES = NOTEBOOKS / "speaker_notes"
NOTE_FIELDS = ("Get across", "Ask", "Answer", "Time")
PACE = "Pace"  # optional: how a section is skimmed (tests/test_speaker_notes_time.py asks for it where time is short)
INTRO = "Before section 1"  # the notes block of the part before section 1 (title, prerequisites, imports, data)
NOTES_TAG = "speaker-notes"
# Live, in the lecture version's metadata, for the lecture JupyterLab's speaker view (tools/publishing/present/speaker):
# each stop's first cell has SPEAKER_KEY (its number, slide, notes block and opening words), the notebook NOTES_KEY
# (the number of stops and every notes block with its fields and first stop). A notes cell keeps its block's fields
# under NOTES_KEY too.
SPEAKER_KEY, NOTES_KEY = "course_speaker", "course_speaker_notes"
PROJECTOR = "COURSE_PROJECTOR"  # in the lecture JupyterLab's kernels: figures drawn for the projector (helpers.figures)


def read_speaker_notes(path: Path) -> dict[str, dict[str, str]]:
    """The speaker notes of one notebook: section heading (without ``## ``) -> its fields
    (``Get across``, ``Ask``, ``Answer``, ``Time``), from a markdown file of ``## heading`` blocks
    whose lines start with the field's name and a colon."""
    notes, heading = {}, None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## "):
            heading = line[3:].strip()
            if heading in notes:
                raise ValueError(f"{path.name}:{number}: a second block for section {heading!r}")
            notes[heading] = {}
        elif heading is not None and line.strip():
            field, colon, text = line.partition(":")
            if colon and field in (*NOTE_FIELDS, PACE) and field not in notes[heading]:
                notes[heading][field] = text.strip()
            elif notes[heading]:  # a continuation line of the last field
                last = list(notes[heading])[-1]
                notes[heading][last] += " " + line.strip()
            else:
                raise ValueError(f"{path.name}:{number}: expected one of {NOTE_FIELDS} in section {heading!r}")
    for heading, fields in notes.items():
        missing = [f for f in NOTE_FIELDS if not fields.get(f)]
        if missing:
            raise ValueError(f"{path.name}: section {heading!r} lacks {', '.join(missing)}")
        if not re.fullmatch(r"\d+ min", fields["Time"]):
            raise ValueError(f"{path.name}: section {heading!r}: Time must read like '5 min', not {fields['Time']!r}")
    return notes


def section_heading(cell) -> str | None:
    """The heading of a section's opening cell (``## 1. Start from a baseline``), else ``None``."""
    if cell.cell_type != "markdown" or not cell.source.startswith("## "):
        return None
    return cell.source.splitlines()[0][3:].strip()


def notes_headings(cells) -> list[str | None]:
    """For each cell, the heading of the notes block that follows it: :data:`INTRO` for the first cell (the
    title), a section's heading for its opening cell, else ``None``."""
    return [INTRO if index == 0 else section_heading(cell) for index, cell in enumerate(cells)]


def notes_cell(heading: str, fields: dict[str, str]):
    source = "\n\n".join([f"**Speaker notes: {heading}** ({fields['Time']})",
                           *([f"**Pace:** {fields[PACE]}"] if fields.get(PACE) else []),
                           f"**Get across:** {fields['Get across']}",
                           f"**Ask:** {fields['Ask']}", f"**Answer:** {fields['Answer']}"])
    cell = nbformat.v4.new_markdown_cell(source)
    cell.metadata["slideshow"] = {"slide_type": "notes"}
    cell.metadata["tags"] = [NOTES_TAG]
    cell.metadata[NOTES_KEY] = {"heading": heading, **fields}  # live_version gives them to the speaker view
    return cell


def add_speaker_notes(notebook, notes: dict[str, dict[str, str]], name: str = "the notebook") -> int:
    """Insert a notes cell after each section heading of ``notebook`` and after its first cell (the block
    :data:`INTRO`, the part before section 1); every section must have notes and every block of notes a section.
    Return how many were added."""
    headings = notes_headings(notebook.cells)
    present = [h for h in headings if h]
    missing, unknown = [h for h in present if h not in notes], [h for h in notes if h not in present]
    if missing or unknown:
        raise ValueError(f"speaker notes of {name}: sections without notes {missing}, notes without a section "
                         f"{unknown}")
    cells = []
    for cell, heading in zip(notebook.cells, headings):
        cells.append(cell)
        if heading:
            piece = notes_cell(heading, notes[heading])
            piece.id = f"{cell.id}-notes"
            cells.append(piece)
    notebook.cells = cells
    return len(present)


def lines(text: str, chars: int) -> int:
    return sum(max(1, -(-len(line) // chars)) for line in text.splitlines() or [""])


def png_size(data: str) -> tuple[int, int]:
    """Pixel width and height of a base64 PNG (from its header); (IMAGE_WIDTH, IMAGE_MAX) if it is no PNG."""
    raw = base64.b64decode(data[:64] + "=" * (-len(data[:64]) % 4))
    return struct.unpack(">II", raw[16:24]) if raw[:8] == b"\x89PNG\r\n\x1a\n" else (IMAGE_WIDTH, IMAGE_MAX)


def shown_image_height(data: str) -> int:
    """How tall a slide shows a PNG output: scaled to the slide's width, at most IMAGE_MAX high (live, the
    lecture JupyterLab's custom.css; a deck shows it no larger)."""
    width, height = png_size(data)
    return min(IMAGE_MAX, math.ceil(height * IMAGE_WIDTH / max(width, 1)))


def markdown_height(source: str) -> int:
    height = 0
    for line in source.splitlines() or [""]:
        if line.startswith("#"):
            height += 56  # a heading
        elif line.strip().startswith("$$"):
            height += TEXT_LINE
        else:
            height += TEXT_LINE * max(1, -(-len(line) // TEXT_CHARS)) if line.strip() else TEXT_LINE // 2
    return height


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def output_height(output) -> int:
    data = output.get("data", {})
    if WIDGET_VIEW in data:
        return WIDGET
    if "image/png" in data:
        return shown_image_height(data["image/png"]) + IMAGE_MARGIN
    if is_details(output):
        return DETAILS
    if "text/html" in data:
        return min(OUTPUT_ALONE, TABLE_ROW * max(1, "".join(data["text/html"]).count("<tr")))
    text = output.get("text") or "".join(data.get("text/plain", ""))
    return min(OUTPUT_ALONE, CODE_LINE * lines(text, CODE_CHARS))


def cell_height(cell) -> int:
    if cell.cell_type == "markdown":
        return markdown_height(cell.source) + 2 * CELL_GAP
    height = CODE_LINE * lines(cell.source, CODE_CHARS) + 20
    return height + sum(output_height(o) for o in cell.get("outputs", [])) + CELL_GAP


def top_statements(source: str) -> list[ast.stmt] | None:
    """The top-level statements of Python ``source``, or ``None`` when it does not parse."""
    try:
        return ast.parse(source).body
    except SyntaxError:
        return None


def statement_starts(source: str, statements: list[ast.stmt] | None = None) -> list[int] | None:
    """The line indices (0-based) where the top-level statements of Python ``source`` start (at a statement's
    first decorator), or ``None`` when it does not parse (``statements``: its parse, if already made)."""
    statements = top_statements(source) if statements is None else statements
    if statements is None:
        return None
    return [(node.decorator_list[0].lineno if getattr(node, "decorator_list", None) else node.lineno) - 1
            for node in statements]


def is_details(output) -> bool:
    """A figure's long description, collapsed under it ("Figure details", helpers.figures)."""
    return "".join(output.get("data", {}).get("text/html", "")).startswith("<details")


LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])\s")


def paragraph_units(paragraph: str) -> list[tuple[str, str]]:
    """A markdown paragraph cut into the units a slide may end after: a list at its top-level items, a fenced
    code block between top-level statements (Python; other code between lines), anything else whole. Each unit
    is ``(block, text)``: units of one list or one fence share ``block`` (the fence's opening line, or
    ``"list"``) and are joined back by line breaks (:func:`join_units`)."""
    lines = paragraph.splitlines()
    fence = re.match(r"^ {0,3}(`{3,}|~{3,})", lines[0])
    if fence and len(lines) > 2 and lines[-1].strip().startswith(fence[1]):
        body = lines[1:-1]
        starts = statement_starts("\n".join(body)) if "python" in lines[0] or lines[0].strip() == fence[1] else None
        starts = sorted(set(starts or range(len(body))) | {0})
        key = f"fence {id(paragraph)} {lines[0]}"
        return [(key, "\n".join(body[a:b])) for a, b in zip(starts, starts[1:] + [len(body)])]
    if LIST_ITEM.match(lines[0]):
        items: list[list[str]] = []
        for line in lines:
            if LIST_ITEM.match(line) or not items:
                items.append([line])
            else:
                items[-1].append(line)  # an item's continuation (or nested) line
        return [("list", "\n".join(item)) for item in items]
    return [("", paragraph)]


def join_units(units: list[tuple[str, str]]) -> str:
    """Markdown from :func:`paragraph_units`' units: units of one list or one fence joined by line breaks (a fence
    re-opened and closed around its part), paragraphs by blank lines."""
    blocks: list[tuple[str, list[str]]] = []
    for block, text in units:
        if block and blocks and blocks[-1][0] == block:
            blocks[-1][1].append(text)
        else:
            blocks.append((block, [text]))
    out = []
    for block, texts in blocks:
        if block.startswith("fence "):
            opening = block.split(" ", 2)[2]
            closing = re.match(r"^ {0,3}(`{3,}|~{3,})", opening)[1]
            out.append("\n".join([opening, *texts, closing]))
        else:
            out.append("\n".join(texts))
    return "\n\n".join(out)


def split_markdown(cell) -> list:
    """A markdown cell too tall for one slide, cut into parts that fit: at blank lines (outside code fences),
    and a paragraph taller than a slide on its own (a long list, a long code block such as an exercise's tests)
    between its list items or its code's top-level statements (:func:`paragraph_units`)."""
    if markdown_height(cell.source) <= BUDGET:
        return [cell]
    paragraphs, current, fence = [], [], False
    for line in cell.source.splitlines():
        if line.strip().startswith("```"):
            fence = not fence
        if not line.strip() and not fence and current:
            paragraphs.append("\n".join(current))
            current = []
        elif line.strip() or current:
            current.append(line)
    if current:
        paragraphs.append("\n".join(current))
    units = [unit for paragraph in paragraphs
             for unit in (paragraph_units(paragraph) if markdown_height(paragraph) > BUDGET else [("", paragraph)])]
    parts, chunk = [], []
    for unit in units:
        if chunk and markdown_height(join_units(chunk + [unit])) > BUDGET:
            parts.append(join_units(chunk))
            chunk = []
        chunk.append(unit)
    parts.append(join_units(chunk))
    cells = []
    for index, part in enumerate(parts):
        piece = copy.deepcopy(cell)
        piece.source = part
        if index:
            piece.id = f"{cell.id}-{index}"
            piece.metadata["slideshow"] = {"slide_type": "subslide"}
        cells.append(piece)
    return cells


OUTPUT_TAG = "lecture-output"  # a cell whose input is hidden on its slide: its outputs show alone (course.css)


def fenced(source: str) -> str:
    """``source`` as a fenced Python block of markdown (a fence longer than any backtick run inside it)."""
    longest = max((len(run) for run in re.findall(r"`+", source)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}python\n{source}\n{fence}"


def split_outputs(cell) -> list:
    """A code cell too tall for one slide: its code shown on the current slide (as a markdown code block),
    then the cell itself, its input hidden, on a sub-slide of its own with every output. The code runs once, in
    its own cell, so Restart Kernel and Run All in the live slideshow puts the outputs back on that sub-slide."""
    if cell_height(cell) <= BUDGET or not cell.get("outputs"):
        return [cell]
    if any(WIDGET_VIEW in output.get("data", {}) for output in cell.outputs):
        # A slider stays with its code: it opens a sub-slide (a slide scrolls when a little too tall), the same
        # in the slideshow and in the deck.
        if cell.metadata.get("slideshow", {}).get("slide_type") != "slide":
            cell.metadata["slideshow"] = {"slide_type": "subslide"}
        return [cell]
    shown = nbformat.v4.new_markdown_cell(fenced(cell.source))
    shown.id = f"{cell.id}-code"
    if "slideshow" in cell.metadata:
        shown.metadata["slideshow"] = copy.deepcopy(cell.metadata["slideshow"])
    runs = copy.deepcopy(cell)
    runs.metadata["slideshow"] = {"slide_type": "subslide"}
    runs.metadata["tags"] = [*runs.metadata.get("tags", []), OUTPUT_TAG]
    runs.metadata.setdefault("jupyter", {})["source_hidden"] = True
    return [shown, runs]


FIGURE_OPENS = re.compile(r"\bplt\.(subplots|figure|subplot_mosaic)\(")  # a statement that opens a pyplot figure


def calls(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` calls the function ``name`` (a plain name: ``print``, ``show``) anywhere inside it."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
               for node in ast.walk(statement))


def quiet(statement: ast.stmt) -> bool:
    """A statement IPython would display nothing for when it ends a cell: anything but an expression, or a call
    of ``print`` or ``show`` (which return ``None``)."""
    return not isinstance(statement, ast.Expr) or (isinstance(statement.value, ast.Call)
                                                   and isinstance(statement.value.func, ast.Name)
                                                   and statement.value.func.id in ("print", "show"))


def figure_parts(cell) -> list[tuple[list, int | None]] | None:
    """The outputs of a cell that shows figures with ``show(fig, ...)`` (helpers.figures), in the order they came,
    as parts a stop may end after, each with the top-level statement (its index) the next part's code starts at:
    the outputs before a figure (ending where the statements that draw it start: the one that opens it,
    ``plt.subplots(...)``, else the one after the last print), the figure with its long description (ending after
    its ``show``), and the outputs after the last figure (``None``: the cell's end). A part's code never ends with
    a figure open or with an expression IPython would display. ``None`` when the outputs do not match the code
    (one image and its long description per ``show``) or the code does not parse."""
    statements = top_statements(cell.source)
    if statements is None:
        return None
    shows = [k for k, node in enumerate(statements) if calls(node, "show")]
    images = [k for k, output in enumerate(cell.outputs) if "image/png" in output.get("data", {})]
    if not shows or len(shows) != len(images) or any(
            k + 1 >= len(cell.outputs) or not is_details(cell.outputs[k + 1]) for k in images):
        return None
    source = [ast.get_source_segment(cell.source, node) or "" for node in statements]
    parts, output_at, statement_at = [], 0, 0
    for show, image in zip(shows, images):
        drawn = range(statement_at, show + 1)
        opens = [k for k in drawn if FIGURE_OPENS.search(source[k])]
        printing = [k for k in drawn[:-1] if calls(statements[k], "print")]
        start = opens[0] if opens else (printing[-1] + 1 if printing else statement_at)
        first = output_at  # the figure's part starts here, unless the outputs before it can be a part of their own
        if image > output_at and start > statement_at and quiet(statements[start - 1]):
            parts.append((cell.outputs[output_at:image], start))
            first = image
        parts.append((cell.outputs[first:image + 2], show + 1 if show + 1 < len(statements) else None))
        output_at, statement_at = image + 2, show + 1
    if output_at < len(cell.outputs):
        parts.append((cell.outputs[output_at:], None))
    return [(outputs, start) for outputs, start in parts if outputs]


def first_line(statement: ast.stmt, lines: list[str], after: int) -> int | None:
    """The line of ``lines`` (a stream's, from ``after`` on) where the output of ``print`` statement ``statement``
    starts, found by its text: an f-string's first line (its fields match anything), else a line holding one of the
    strings inside its arguments (a column's name); ``None`` when it has neither or none matches."""
    if not (isinstance(statement, ast.Expr) and calls(statement, "print") and statement.value.args):
        return None
    argument = statement.value.args[0]
    if isinstance(argument, (ast.JoinedStr, ast.Constant)):
        values = argument.values if isinstance(argument, ast.JoinedStr) else [argument]
        pattern = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else ".*?" for v in values)
        pattern = pattern.split("\\\n", 1)[0]
        if pattern.replace(".*?", "").strip():
            return next((k for k in range(after, len(lines)) if re.match(pattern, lines[k])), None)
    words = [node.value for node in ast.walk(argument) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and len(node.value) >= 4 and "{" not in node.value]
    return next((k for k in range(after, len(lines)) if any(w in lines[k] for w in words)), None) if words else None


def text_parts(cell) -> list[tuple[list, int | None]] | None:
    """The one text output of a cell that prints it with several top-level ``print`` statements, as parts a stop may
    end after (as :func:`figure_parts`): a part ends after a statement that prints, where the next ``print``'s text
    is found in the output (:func:`first_line`). ``None`` when the cell has another output."""
    statements = top_statements(cell.source)
    if statements is None or len(cell.outputs) != 1 or cell.outputs[0].get("output_type") != "stream":
        return None
    lines = cell.outputs[0]["text"].splitlines(keepends=True)
    printing = [k for k, node in enumerate(statements) if calls(node, "print")]
    parts, line_at = [], 0
    for previous, k in zip(printing, printing[1:]):
        line = first_line(statements[k], lines, line_at + 1)
        if line is not None:
            parts.append((lines[line_at:line], previous + 1))
            line_at = line
    parts.append((lines[line_at:], None))
    return [([nbformat.v4.new_output("stream", name=cell.outputs[0]["name"], text="".join(text))], start)
            for text, start in parts]


LIVE_STOP = 640  # px of a live stop that a cell's outputs alone may fill (custom.css: the window less 40 px, margins)
# A text output live and in the decks, shown whole at 18 px (present/custom.css, deck/course.css): characters per
# line, px a line.
LIVE_TEXT_CHARS, LIVE_TEXT_LINE = 108, 23


def live_height(output) -> int:
    """How tall the live slideshow (and a deck) shows ``output``: a text output whole (:func:`output_height` counts
    it at the estimate the slides are fitted with, at most a stop), anything else as :func:`output_height`."""
    if output.get("output_type") == "stream":
        return LIVE_TEXT_LINE * lines(output["text"], LIVE_TEXT_CHARS) + 8
    return output_height(output)


def split_live_outputs(cell) -> list:
    """Live only: a cell on a stop of its own with only its outputs (:func:`split_outputs`) whose outputs are taller
    than the stop, run as consecutive cells cut between top-level statements at a figure's edges
    (:func:`figure_parts`) or between its prints (:func:`text_parts`), each a stop of its own whose outputs fit (nothing on a stop is cut: the slideshow cannot
    scroll). The code shown on the stop before is the whole cell's; the pieces run exactly like it. A deck spreads
    the same outputs over sub-slides instead (decks.split_tall_outputs). Outputs that cannot be cut so (one figure
    with no statement to cut at, text alone) keep their cell."""
    if OUTPUT_TAG not in cell.metadata.get("tags", []) or sum(map(live_height, cell.outputs)) <= LIVE_STOP:
        return [cell]
    parts = figure_parts(cell) or text_parts(cell)
    if not parts or len(parts) == 1:
        return [cell]
    statements = top_statements(cell.source)
    starts = statement_starts(cell.source, statements) + [len(cell.source.splitlines())]
    groups, used = [[]], 0  # consecutive parts joined while they fit one stop
    for outputs, start in parts:
        height = sum(map(live_height, outputs))
        if groups[-1] and used + height > LIVE_STOP:
            groups.append([])
            used = 0
        groups[-1].append((outputs, start))
        used += height
    lines, pieces, begin = cell.source.splitlines(), [], 0  # begin: the line the next piece starts at
    for index, group in enumerate(groups):
        end = group[-1][1]
        last = index == len(groups) - 1 or end is None
        piece = copy.deepcopy(cell)
        piece.source = "\n".join(lines[begin:None if last else starts[end]]).strip("\n")
        piece.outputs = [output for outputs, _ in group for output in outputs]
        if index:
            piece.id = f"{cell.id}-part-{index}"
        pieces.append(piece)
        if last:
            break
        begin = starts[end]
    return pieces


def is_visible_test(cell) -> bool:
    """An exercise's visible test cell (nbgrader: graded, not a solution)."""
    grader = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and grader.get("grade") and not grader.get("solution")


def show_visible_tests(notebook) -> int:
    """The visible tests of the exercises, shown and not run: in the lecture version the solutions are left
    out, so the tests would only raise NotImplementedError; each test cell becomes a markdown cell saying
    that the students run it in their copy. Return how many."""
    count = 0
    for index, cell in enumerate(notebook.cells):
        if is_visible_test(cell):
            shown = nbformat.v4.new_markdown_cell(
                "*The tests (students run them in their copy, `make study`; `make check` grades them):*\n\n"
                + fenced(cell.source))
            shown.id = cell.id
            if "slideshow" in cell.metadata:
                shown.metadata["slideshow"] = copy.deepcopy(cell.metadata["slideshow"])
            notebook.cells[index] = shown
            count += 1
    return count


def split_code(cell) -> list:
    """A code cell with no outputs whose code alone is too tall for a slide, cut between top-level statements
    (so the pieces run exactly like the whole); a cell with outputs is left whole (split_outputs)."""
    if CODE_LINE * lines(cell.source, CODE_CHARS) + 20 + CELL_GAP <= BUDGET:
        return [cell]
    if cell.get("outputs"):
        # a cell that shows something is never cut: a piece would show other things (the value of its last
        # expression, a figure still empty when the piece ends); split_outputs shows its code as a markdown code
        # block (cut between statements by split_markdown) and runs it whole on a sub-slide of its own
        return [cell]
    statements = top_statements(cell.source)
    if statements is None:
        return [cell]
    starts = statement_starts(cell.source, statements)
    source = cell.source.splitlines()
    def height(first: int, last: int) -> int:
        return CODE_LINE * lines("\n".join(source[first:last]), CODE_CHARS) + 20 + CELL_GAP

    # a piece must not end on an expression IPython would display (``ax.hist(...)`` shows its return value when
    # it is a cell's last statement): a cut comes after any other statement, or after a print()
    quiet = [not isinstance(node, ast.Expr) or (isinstance(node.value, ast.Call)
                                                 and isinstance(node.value.func, ast.Name) and node.value.func.id == "print")
             for node in statements]
    begins, begin, first = [], 0, 0  # first: the index of the piece's first statement
    for k in range(1, len(starts)):
        end = starts[k + 1] if k + 1 < len(starts) else len(source)
        if height(begin, end) > BUDGET:  # statement k does not fit with the ones before it
            cut = next((j for j in range(k, first, -1) if quiet[j - 1]), None)
            if cut is not None:
                begins.append(begin)
                begin, first = starts[cut], cut
    begins.append(begin)
    if len(begins) == 1:
        return [cell]
    bounds = list(zip(begins, begins[1:] + [len(source)]))
    cells = []
    for index, (a, b) in enumerate(bounds):
        piece = copy.deepcopy(cell)
        piece.source = "\n".join(source[a:b]).strip("\n")
        if index:
            piece.id = f"{cell.id}-{index}"
            piece.metadata["slideshow"] = {"slide_type": "subslide"}
        if index < len(bounds) - 1:
            piece.outputs = []
        cells.append(piece)
    return cells


def fit_slides(notebook) -> int:
    """Split the slides that would overflow into sub-slides; return how many sub-slides were added."""
    cells = [piece for cell in notebook.cells
             for piece in (split_markdown(cell) if cell.cell_type == "markdown"
                           else [q for code in split_code(cell) for p in split_outputs(code)
                                 for q in (split_markdown(p) if p.cell_type == "markdown" else [p])])]
    added = sum(1 for _ in cells) - len(notebook.cells)
    used = 0
    for cell in cells:
        kind = cell.metadata.get("slideshow", {}).get("slide_type")
        height = cell_height(cell)
        if kind in ("skip", "notes"):
            continue
        if kind in ("slide", "subslide"):
            used = height
        elif used and used + height > BUDGET:
            cell.metadata["slideshow"] = {"slide_type": "subslide"}
            added += 1
            used = height
        else:
            used += height
    notebook.cells = cells
    return added


LAYER_KEY = "jupyterlab-slideshow"  # the slideshow's cell metadata


def kind(cell) -> str | None:
    """A cell's slide type (``None``: it continues the current slide)."""
    return cell.metadata.get("slideshow", {}).get("slide_type")


def one_stop_per_slide(notebook) -> int:
    """Mark every cell that continues a slide as a layer of that slide (jupyterlab-slideshow's
    ``{"layer": "slide"}``): the slideshow shows it with its slide's first cell but does not stop on it, so one
    key press moves one slide, never one cell (a stop on a cell already on screen is a key press that changes
    nothing). The presenting style (tools/publishing/present/custom.css) keeps layers in the slide's flow. The last
    slide must be a single cell (the slideshow shows the layers after its last stop on the first slide):
    :func:`closing_slide`. Return how many cells became layers."""
    count, started = 0, False
    for cell in notebook.cells:
        if kind(cell) in ("slide", "subslide"):
            started = True
        elif kind(cell) in (None, "-") and started:
            cell.metadata[LAYER_KEY] = {"layer": "slide"}
            count += 1
    return count


def closing_slide(name: str):
    """The last slide: the end of the lecture, and where the exercises go next (a single cell)."""
    title = Path(name).stem
    cell = nbformat.v4.new_markdown_cell(
        f"# End of {title}\n\nQuestions? Students work through the exercises in their own copy "
        f"(`make study`) and check them with `make check NB={title}`.")
    cell.id = "lecture-end"
    cell.metadata["slideshow"] = {"slide_type": "slide"}
    return cell


def lecture_version(notebook, notes: dict | None = None, name: str = "the notebook") -> nbformat.NotebookNode:
    """A copy of an executed instructor notebook without solutions and hidden tests (the visible tests shown,
    not run), fitted to slides, one slideshow stop per slide, closing with :func:`closing_slide`, with
    ``notes`` (:func:`read_speaker_notes`) after each section heading as reveal.js notes cells (the decks'
    speaker view; :func:`live_version` takes them out for the live slideshow)."""
    notebook = copy.deepcopy(notebook)
    resources = {}
    notebook, resources = ClearSolutions(enforce_metadata=True).preprocess(notebook, resources)
    notebook, resources = ClearHiddenTests(enforce_metadata=True).preprocess(notebook, resources)
    set_slide_types(notebook.cells)  # as tools/execute.py writes them, even in a notebook executed before
    show_visible_tests(notebook)
    fit_slides(notebook)
    notebook.cells.append(closing_slide(name))
    one_stop_per_slide(notebook)
    if notes is not None:
        add_speaker_notes(notebook, notes, name)
    return notebook


def stop_line(cell) -> str:
    """What a stop of the live slideshow opens with, in a few words, for the notes page (the lecturer finds their
    place by it)."""
    if OUTPUT_TAG in cell.metadata.get("tags", []):
        return ("(more outputs of that code)" if "-part-" in cell.id
                else "(the outputs of the code on the stop before)")
    text = " ".join(line.strip().lstrip("#").strip() for line in cell.source.splitlines()
                    if line.strip() and not line.startswith("```"))
    text = re.sub(r"[*`$]", "", text)
    if cell.cell_type == "markdown":  # a link's text only: the notes page is a place finder, not a second way in
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    words = ("code: " if cell.cell_type == "code" else "") + text
    return words[:70] + ("..." if len(words) > 70 else "")


def live_version(version) -> tuple[nbformat.NotebookNode, str]:
    """The lecture version the live slideshow presents, and its speaker notes as markdown: the notes cells
    leave the notebook (the slideshow would make each a stop with nothing on screen) for the notes page the
    lecturer opens on their own screen (and the outputs taller than a stop on several: split_live_outputs), each block headed by its section and its slide's number, then every stop
    of its part of the slideshow (sub-slides too) by number and opening words, so the notes follow each stop.
    The same notes and stops are in the notebook's metadata for the lecture JupyterLab's speaker view (S while
    presenting, tools/publishing/present/speaker): :data:`SPEAKER_KEY` on each stop's first cell (its number, its
    slide's, its notes block's index, its opening words), :data:`NOTES_KEY` on the notebook (how many stops, and
    each block's fields with its slide and first stop)."""
    notebook = copy.deepcopy(version)
    notebook.cells = [piece for cell in notebook.cells for piece in split_live_outputs(cell)]
    blocks, slide, stop, waiting = [], 0, 0, None  # waiting: the last stop, listed once it is known whose it is
    cells, fields, here = [], [], None  # fields: each notes block's, for the speaker view; here: the last stop's
    for cell in notebook.cells:
        if kind(cell) == "slide":
            slide += 1
        if kind(cell) in ("slide", "subslide"):
            if blocks and waiting:
                blocks[-1] += waiting
            stop += 1
            waiting = f"\n- stop {stop}: {stop_line(cell)}"
            cell.metadata[SPEAKER_KEY] = {"stop": stop, "slide": slide, "notes": len(fields) - 1,
                                          "opening": stop_line(cell)}
            here = cell.metadata[SPEAKER_KEY]  # (a copy of the dict: nbformat's metadata makes its own)
        if kind(cell) == "notes":  # it follows its section's heading: the stop waiting is the section's first
            blocks.append(f"### Slide {slide}: " + cell.source.split("\n", 1)[0].strip("*").removeprefix(
                "Speaker notes: ").replace("** (", " (") + "\n\n" + cell.source.split("\n\n", 1)[1]
                + "\n\n**Stops:**" + (waiting or ""))
            waiting = None
            fields.append({**cell.metadata.get(NOTES_KEY, {}), "slide": slide, "first": here and here["stop"]})
            if here:
                here["notes"] = len(fields) - 1
            continue
        cells.append(cell)
    if blocks and waiting:
        blocks[-1] += waiting
    notebook.cells = cells
    if fields:
        notebook.metadata[NOTES_KEY] = {"stops": stop, "blocks": fields}
    return notebook, "\n\n".join(blocks) + "\n"


def write_lecture(path: Path, out: Path = OUT) -> Path:
    """Write the live lecture version of ``path`` to ``out`` and its speaker notes beside it
    (``NN_name.notes.md``); return the notebook's path."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / path.name
    version = lecture_version(nbformat.read(path, as_version=4), speaker_notes(path), path.name)
    notebook, notes = live_version(version)
    nbformat.write(notebook, target)
    (out / f"{path.stem}.notes.md").write_text(f"# Speaker notes: {path.stem}\n\n{notes}", encoding="utf-8")
    return target


def speaker_notes(path: Path) -> dict[str, dict[str, str]]:
    """The speaker notes of notebook ``path`` (notebooks/speaker_notes/NN_name.md)."""
    return read_speaker_notes(SPEAKER_NOTES / f"{path.stem}.md")


def write_companions(out: Path = OUT, notebooks: Path = NOTEBOOKS) -> list[Path]:
    """Copy the files the notebooks link to (the glossary) next to the lecture versions."""
    written = []
    for relative in links.companions(notebooks):
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(notebooks / relative, target)
        written.append(target)
    return written


PRESENTING = Path(__file__).resolve().parent / "present"  # the live slideshow's style and page config
PRESENT_CONFIG = ROOT / "build" / "present"
SPEAKER_EXTENSIONS = ROOT / "build" / "present-speaker" / "labextensions"  # `make speaker-view` (Makefile)


def speaker_extensions() -> Path:
    """The folder of the lecture JupyterLab's own extension (tools/publishing/present/speaker: the speaker view and the
    presenter's keys on a focused slider), built by ``make speaker-view`` (npm and JupyterLab's extension builder) when
    it is missing or older than its sources; one build at a time (the browser tests' workers may all start a lecture
    JupyterLab at once)."""
    import fcntl
    import subprocess

    SPEAKER_EXTENSIONS.parent.parent.mkdir(parents=True, exist_ok=True)
    with open(SPEAKER_EXTENSIONS.parent.parent / "present-speaker.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "speaker-view"], check=True,
                       stdout=subprocess.DEVNULL)
    return SPEAKER_EXTENSIONS


def present_options(config: Path = PRESENT_CONFIG) -> tuple[list[str], dict[str, str]]:
    """The options and environment of the lecture JupyterLab (``make present``; the slideshow tests start theirs
    with the same), whose configuration folder ``config`` is its own: the presenting style
    (tools/publishing/present/custom.css, loaded by ``--custom-css``), nbgrader's menus and panels off
    (tools/publishing/present/labconfig/page_config.json) and its server extensions too (jupyter_server_config.json:
    they would log an error about nbgrader's course directory, which a lecture does not use), and user settings of its own in which the slideshow's
    "presenting" state is cleared at each start, so that JupyterLab never reopens straight into the slideshow, and
    whose keyboard shortcuts (tools/publishing/present/shortcuts.json) give the presenter's keys, those of a clicker
    among them, to the slideshow whatever has the focus: PageDown, Space, ArrowRight and ArrowDown go to the next
    stop in order (sub-slides included), PageUp, Shift+Space, ArrowLeft and ArrowUp back, Escape ends it (a focused
    slider keeps the keys that move it: the arrows, Home, End). Its own extension (:func:`speaker_extensions`, loaded by
    no other JupyterLab) gives it the speaker view (S) and gives PageDown, PageUp, Space and Shift+Space on a focused
    slider to the slideshow, Escape there leaving the slider."""
    for relative in ("custom/custom.css", "labconfig/page_config.json", "jupyter_server_config.json"):
        source = PRESENTING / ("custom.css" if relative.startswith("custom") else relative)
        (config / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, config / relative)
    shutil.rmtree(config / "lab" / "user-settings" / "jupyterlab-slideshow", ignore_errors=True)
    shortcuts = config / "lab" / "user-settings" / "@jupyterlab" / "shortcuts-extension" / "shortcuts.jupyterlab-settings"
    shortcuts.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PRESENTING / "shortcuts.json", shortcuts)
    return (["--custom-css", f"--LabApp.extra_labextensions_path={speaker_extensions()}"],
            {"JUPYTER_CONFIG_DIR": str(config), PROJECTOR: "1"})


def present(folder: Path = OUT) -> None:
    """Start the lecture JupyterLab on ``folder`` (build/lecture) and print what to open."""
    import os
    import subprocess

    options, env = present_options()
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    print("Speaker view: press S while presenting (a window of its own: this stop's notes, the next stop, the time; "
          "the same notes are in NN_name.notes.md beside each notebook). Keys: PageDown/Space/ArrowRight/ArrowDown "
          "next stop, PageUp/Shift+Space/ArrowLeft/ArrowUp back (on a focused slider the arrows, Home and End move "
          "it, Escape leaves it), Escape ends the slideshow.",
          flush=True)
    sys.exit(subprocess.call([sys.executable, "-m", "jupyterlab", str(folder), *options, *root],
                             env={**os.environ, **env}))


def main(paths: list[str]) -> None:
    if paths[:1] == ["present"]:
        present()
    notebooks = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    for path in notebooks:
        print(f"lecture version: {write_lecture(path).relative_to(ROOT)}", flush=True)
    for path in write_companions():
        print(f"linked file: {path.relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
