"""The course's sliders: wiring only.

Each slider calls a pure state function of a topic module (``helpers.metrics``,
``helpers.roc``, ``helpers.cv``, ...) that returns every number it shows, so
the numbers are tested without a browser, and draws on a
``matplotlib.figure.Figure`` of its own, never through pyplot: JupyterLab may
run widget callbacks on another thread while a cell executes. Every slider
starts exactly on a value of its grid.
"""

from __future__ import annotations

import html
import os
import threading
from io import BytesIO
from typing import Callable

import ipywidgets as widgets
import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.text import Text
from PIL import Image as PILImage
from traitlets import Unicode

from helpers.curves import DEGREES, complexity_states, describe_complexity_state
from helpers.curves_plots import plot_complexity, update_complexity
from helpers.cv import cv_spread_state, describe_cv_spread_state
from helpers.cv_plots import plot_cv_spread, update_cv_spread
from helpers.datasets import HIGH_PRECISION, HIGH_RECALL
from helpers.figures import ALT_LIMIT, alt_text, clear_description
from helpers.metrics import FBETA_NAMES, describe_fbeta_state, fbeta_state
from helpers.metrics_plots import plot_iso_fbeta, update_iso_fbeta
from helpers.quiz import CHECKS, SHOW_ANSWER, check_answer, inline_html, reveal_answer
from helpers.resampling import describe_smote_state, smote_state
from helpers.resampling_plots import plot_smote, update_smote
from helpers.roc import ThresholdSweep, check_threshold_inputs, describe_threshold_state, sweep_state
from helpers.roc_plots import ThresholdFigure
from helpers.style import MIN_FONT_POINTS
from helpers.validation import check_binary_scores


def png_bytes(canvas: FigureCanvasAgg) -> bytes:
    """The canvas's current pixels as PNG bytes (fast, lightly compressed)."""
    width, height = canvas.get_width_height()
    buffer = BytesIO()
    PILImage.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1) \
        .convert("RGB").save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


# Figures are rendered at the browser's 96 px per inch and shown at their pixel size,
# so a font size in points is the size seen on screen.
WIDGET_DPI = 96
# A slider's figure text, read from the back of a room: 13.5 pt is 18 px at 96 dpi, the figure shown at its pixel
# size (a deck slide at 1280 x 720, the live slideshow) or larger (tests/test_browser_decks.py measures it).
SLIDER_FONT_POINTS = 13.5


def readable(figure: Figure, min_points: float = MIN_FONT_POINTS) -> Figure:
    """Raise every text of ``figure`` (tick labels, legends, annotations) to at least
    ``min_points`` as displayed (the figure shown at its pixel size in a 96 dpi browser)."""
    floor = min_points * 96 / figure.dpi
    for ax in figure.axes:
        for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            # the tick labels' size without making matplotlib compute the ticks
            size = axis.get_tick_params().get("labelsize", mpl.rcParams[f"{name}tick.labelsize"])
            if FontProperties(size=size).get_size_in_points() < floor:
                ax.tick_params(axis=name, which="both", labelsize=floor)
    for text in figure.findobj(Text):
        if text.get_fontsize() < floor:
            text.set_fontsize(floor)
    return figure


def smallest_text_px(figure: Figure) -> float:
    """The size of ``figure``'s smallest visible, non-empty text, in pixels at the figure's own size (its
    points at its dpi); the browser tests multiply it by the scale a slide shows the figure at."""
    sizes = [text.get_fontsize() for text in figure.findobj(Text) if text.get_text() and text.get_visible()]
    if not sizes:
        raise ValueError("the figure has no visible text")
    return min(sizes) * figure.dpi / 72


# The number panel's font: at least the course's 10 pt floor (13.3 px) on a projector.
PANEL_FONT_PX = 14


def panel(text: str) -> str:
    """A describe_* text (verbatim) as the HTML of a number panel that wraps between words only, never inside one."""
    return (f'<pre style="white-space: pre-wrap; overflow-wrap: normal; word-break: keep-all; '
            f'font-size: {PANEL_FONT_PX}px">{text}</pre>')


def plain_panel(text: str) -> str:
    """A describe_* text as a number panel that never wraps (one long line scrolls)."""
    return f'<pre style="font-size: {PANEL_FONT_PX}px">{text}</pre>'


def one_line(text: str) -> str:
    """A panel's text on one line (for a text alternative): runs of spaces and line breaks become one space."""
    return " ".join(text.replace(" | ", "; ").split())


def clauses(text: str) -> list[str]:
    """A describe_* text's clauses in order: its lines, split at " | ", spaces collapsed, empty ones dropped."""
    return [" ".join(c.split()) for line in text.splitlines() for c in line.split(" | ") if c.strip()]


def announcement(previous: str | None, current: str) -> str:
    """The short line a screen reader hears when a slider moves: the clauses of ``current`` (a describe_* text,
    e.g. :func:`helpers.roc.describe_threshold_state`) that are not in ``previous`` (the text before the move),
    joined by "; ". ``previous`` ``None`` (the first state) gives every clause; an unchanged text gives "".
    A clause is a line of the text, or a part of one between " | ". Pure: a static page can call it on two
    pre-rendered frames' texts."""
    if not isinstance(current, str) or not (previous is None or isinstance(previous, str)):
        raise ValueError(f"previous (None or a text) and current (a text) must be strings; got "
                         f"{type(previous).__name__} and {type(current).__name__}")
    before = set(clauses(previous)) if previous is not None else set()
    return "; ".join(c for c in clauses(current) if c not in before)


def slider_alt(figure: Figure, what: str, text: str) -> str:
    """The text alternative of a slider's figure for its current state, at most
    :data:`helpers.figures.ALT_LIMIT` characters: ``what`` the figure shows, then as many of the state's numbers
    (``text``, the panel's, clause by clause in its order) as fit. The panel beside the figure has them all.
    Sentences a plotting function attached when the figure was first drawn are dropped: they describe the
    first state, not this one."""
    for ax in figure.axes:
        clear_description(ax)
    parts = clauses(text)
    alt = what
    for i, _ in enumerate(parts):
        longer = f"{what}: {'; '.join(parts[:i + 1])}."
        if len(longer) > ALT_LIMIT:
            break
        alt = longer
    return alt_text(figure, alt)


def grid_slider(values, value, description: str, fmt: str = "{:.2f}", **kwargs) -> widgets.SelectionSlider:
    """A slider over an explicit grid of numbers: the browser can only send back one of them."""
    values = [float(v) if isinstance(v, (float, np.floating)) else v for v in values]
    if value not in values:
        raise ValueError(f"the start value {value!r} of {description} is not on its grid")
    return widgets.SelectionSlider(options=[(fmt.format(v), v) for v in values], value=value,
                                   description=description, **kwargs)


def blit_png(canvas: FigureCanvasAgg, background, artists) -> bytes:
    """Restore the saved pixels of a figure's static parts, draw ``artists`` over them in order, encode a PNG."""
    canvas.restore_region(background)
    for artist in artists:
        canvas.figure.draw_artist(artist)
    return png_bytes(canvas)


# --------------------------------------------------------------------------- the decks (tools/publishing/decks.py)
DECK_ENV = "COURSE_DECK"


def deck_mode() -> bool:
    """True in a kernel that tools/publishing/decks.py runs to build a deck (``COURSE_DECK=1`` in its environment):
    an explorer then shows :func:`deck_view` instead of itself."""
    return os.environ.get(DECK_ENV) == "1"


class DescribedImage(widgets.Image):
    """An ``Image`` whose ``tooltip`` is the figure's text alternative: the ``<img>``'s title, which a screen
    reader announces as its name. ipywidgets' view reads a ``description`` before it writes the title, which
    ``Image`` lacks; an empty one is synced for it."""

    description = Unicode("").tag(sync=True)


def grid_of(control) -> list[tuple[str, object]]:
    """The (label, value) pairs a slider can take, in order."""
    if isinstance(control, widgets.SelectionSlider):
        return list(zip(control._options_labels, control._options_values))
    if isinstance(control, widgets.IntSlider):
        return [(str(v), v) for v in range(control.min, control.max + 1, control.step)]
    raise ValueError(f"only a slider has a grid to pre-render, not a {type(control).__name__}")


# --------------------------------------------------------------------------- accessibility in JupyterLab
# ipywidgets 8.1.9 gives its views no ARIA: a slider's noUiSlider handle has no name (its label is not linked to
# it) and announces the option index (aria-valuetext "4" for k_neighbors = 5), an Image has no alt, and no view
# can be a live region. A small script does what no widget option can: AccessibilityBridge, an anywidget (plain
# ES module, no build step; its JupyterLab extension ships in the anywidget wheel, so it loads offline), shown
# invisibly inside each explorer in JupyterLab. A deck never has one (deck_view replaces the explorers, and the
# deck's own template names its sliders): no module needs fetching there.
EXPLORER_CLASS, PANEL_CLASS, MESSAGE_CLASS = "course-explorer", "course-explorer-panel", "course-explorer-message"
ANNOUNCE_CLASS = "course-explorer-announce"  # the short line of what changed: the live region (the panel is not)

BRIDGE_ESM = """
function upgrade(root, labels) {
  root.querySelectorAll('.widget-slider').forEach((slider, i) => {
    const label = slider.querySelector('.widget-label'), handle = slider.querySelector('.noUi-handle');
    const readout = slider.querySelector('.widget-readout');
    if (!label || !handle) return;
    if (!label.id) label.id = root.dataset.courseId + '-label-' + i;
    if (handle.getAttribute('aria-labelledby') !== label.id) handle.setAttribute('aria-labelledby', label.id);
    if (readout) {  // a display of the value, never an input: typing there would not move the slider
      if (readout.getAttribute('contenteditable') !== 'false') readout.setAttribute('contenteditable', 'false');
      if (readout.getAttribute('tabindex') !== '-1') readout.setAttribute('tabindex', '-1');
      if (readout.getAttribute('aria-hidden') !== 'true') readout.setAttribute('aria-hidden', 'true');
    }
    // the value text from the widget's value: aria-valuenow is the option index of a SelectionSlider (its
    // label from the kernel's options) and the value itself of an IntSlider; never from editable text
    const now = Number(handle.getAttribute('aria-valuenow'));
    if (Number.isNaN(now)) return;
    const options = labels[i];
    const value = options ? options[Math.round(now)] : String(Math.round(now));
    if (value !== undefined && handle.getAttribute('aria-valuetext') !== value) handle.setAttribute('aria-valuetext', value);
  });
  root.querySelectorAll('.widget-image').forEach(image => {  // the figure's alt of its current state
    const title = image.getAttribute('title');
    if (title) { image.setAttribute('alt', title); image.removeAttribute('title'); }
    else if (!image.hasAttribute('alt')) image.setAttribute('alt', '');
  });
  root.querySelectorAll('.ANNOUNCE, .MESSAGE').forEach(region => {  // stable elements: their content is announced
    if (region.getAttribute('aria-live') !== 'polite') region.setAttribute('aria-live', 'polite');
  });
}

let count = 0;

export default {
  render({ model, el }) {
    let observer = null, tries = 0;
    const attach = () => {
      const root = el.closest('.EXPLORER');
      if (!root) { if (tries++ < 600) requestAnimationFrame(attach); return; }
      if (!root.dataset.courseId) root.dataset.courseId = 'course-explorer-' + (++count);
      const labels = model.get('labels') || [];
      upgrade(root, labels);
      // Escape leaves a control for the notebook (JupyterLab's command mode, where the arrow keys move between
      // cells): ipywidgets keeps the key in its inputs, so without this the arrows would go on changing a value
      if (!root.dataset.courseEscape) {
        root.dataset.courseEscape = '1';
        root.addEventListener('keydown', event => {
          if (event.key !== 'Escape' || !event.target.matches('input, textarea, [contenteditable], .noUi-handle')) return;
          event.preventDefault();
          event.stopPropagation();
          event.target.blur();
          const notebook = root.closest('.jp-Notebook');
          if (notebook) notebook.focus();
        }, true);
      }
      observer = new MutationObserver(() => upgrade(root, labels));
      observer.observe(root, { subtree: true, childList: true, characterData: true,
                               attributes: true, attributeFilter: ['aria-valuetext', 'aria-valuenow', 'title', 'src',
                                                                   'contenteditable', 'tabindex'] });
    };
    attach();
    return () => observer && observer.disconnect();
  }
};
""".replace("EXPLORER", EXPLORER_CLASS).replace("ANNOUNCE", ANNOUNCE_CLASS).replace("MESSAGE", MESSAGE_CLASS)


def slider_labels(controls) -> list:
    """For each slider among ``controls``, in order: its options' labels (a SelectionSlider, whose handle reports
    the option index) or ``None`` (an IntSlider, whose handle reports the value itself). The bridge reads the value
    text from these, never from the readout's text."""
    return [list(control._options_labels) if isinstance(control, widgets.SelectionSlider) else None
            for control in controls if isinstance(control, (widgets.SelectionSlider, widgets.IntSlider))]


def accessibility_bridge(box: widgets.Box, text: widgets.HTML, message: widgets.HTML, announce: widgets.HTML,
                         controls=()) -> list:
    """Mark an explorer's parts for :data:`BRIDGE_ESM` and return ``[bridge]`` to append to its children (``[]``
    in a deck kernel, where the explorer is replaced by :func:`deck_view`)."""
    if deck_mode():
        return []
    import anywidget
    import traitlets

    class AccessibilityBridge(anywidget.AnyWidget):
        _esm = BRIDGE_ESM
        labels = traitlets.List().tag(sync=True)

    box.add_class(EXPLORER_CLASS)
    text.add_class(PANEL_CLASS)
    message.add_class(MESSAGE_CLASS)
    announce.add_class(ANNOUNCE_CLASS)
    return [AccessibilityBridge(labels=slider_labels(controls), layout=widgets.Layout(display="none"))]


DECK_FRAMES_CLASS = "course-deck-frames"  # tools/publishing/deck/course.css hides their tab bars
DECK_FRAME_CLASS = "course-deck-frame"  # one frame: the figure and its number panel (laid out by course.css)


def deck_view(controls: dict, values: dict, frame: Callable[..., tuple[bytes, str, str]]) -> widgets.VBox:
    """An explorer for a deck, with no kernel behind it: every slider value's figure and numbers pre-rendered.

    ``frame(**values)`` gives the PNG, the number panel's HTML and the text
    alternative for one combination of the controls' values (the explorer's own
    state function and figure code). Each slider becomes a ``SelectionSlider``
    over the same grid, linked in the browser (``jsdlink``, no kernel) to the
    ``selected_index`` of a ``Tab`` of frames whose tab bar the deck hides; a
    second slider selects inside each of the first's frames (nested tabs).
    Other controls (number boxes) are shown disabled at their current values,
    with a line that says so.
    """
    sliders, fixed = {}, []
    for name, control in controls.items():
        if isinstance(control, (widgets.SelectionSlider, widgets.IntSlider)):
            grid = grid_of(control)
            slider = widgets.SelectionSlider(options=grid, value=values[name], description=control.description,
                                             continuous_update=True, style=WIDE_LABEL)
            sliders[name] = (slider, grid)
        else:
            fixed.append((name, type(control)(value=control.value, description=control.description, disabled=True,
                                              style=WIDE_LABEL, layout=widgets.Layout(width=control.layout.width))))
    links = []

    def level(depth: int, chosen: dict):
        if depth == len(sliders):
            png, text, alt = frame(**{**values, **chosen})
            image = DescribedImage(value=png, format="png", tooltip=alt,
                                   layout=widgets.Layout(max_width="100%", height="auto"))
            shown = widgets.HBox([image, widgets.HTML(text, layout=widgets.Layout(min_width="21em"))],
                                 layout=widgets.Layout(flex_flow="row wrap"))
            shown.add_class(DECK_FRAME_CLASS)
            return shown
        name = list(sliders)[depth]
        slider, grid = sliders[name]
        children = [level(depth + 1, {**chosen, name: value}) for _, value in grid]
        frames = widgets.Tab(children=children, titles=[f"{name} {label}" for label, _ in grid],
                             selected_index=slider.index)
        frames.add_class(DECK_FRAMES_CLASS)
        links.append(widgets.jsdlink((slider, "index"), (frames, "selected_index")))
        return frames

    frames = level(0, {})
    rows = [widgets.HBox([slider for slider, _ in sliders.values()] + [box for _, box in fixed],
                         layout=widgets.Layout(flex_flow="row wrap"))]
    if fixed:
        shown = ", ".join(f"{box.description} {box.value:g}" for _, box in fixed)
        rows.append(widgets.HTML(f'<p class="course-deck-fixed">Fixed in this deck at the notebook\'s values: '
                                 f"{html.escape(shown)}. Change them live in JupyterLab.</p>"))
    view = widgets.VBox(rows + [frames])
    view.add_class("course-deck-explorer")
    view.links = links  # kept with the view
    return view


def show_bad_input(view, error: ValueError) -> None:
    """An explorer's controls gave its state function a bad input: its message replaces the numbers (never
    stale numbers)."""
    view.state, view.described = None, None
    view.announce.value = ""
    view.message.value = f"<b>{html.escape(str(error))}</b>"
    view.text.value = "<pre>(no numbers: fix the input above)</pre>"


def show_state(view, state: dict) -> dict:
    """Show ``state`` in an explorer (``view.frame``: the figure, the numbers and the figure's alt), in place;
    return it."""
    png, text, alt = view.frame(state)
    described = view._describe(state)
    # the live region hears what changed; the first state (and the first after a bad input) is not a change
    view.announce.value = ("" if view.described is None
                           else f"<p>{html.escape(announcement(view.described, described))}</p>")
    view.state, view.alt, view.described = state, alt, described
    view.message.value = ""
    view.image.value = png
    view.image.tooltip = alt
    view.text.value = text
    return state


class Explorer(widgets.VBox):
    """Controls over one figure and a text panel, redrawn from a pure state function.

    On every change ``state(**values)`` computes the numbers and
    ``describe(state)`` gives the text. With ``update`` (every course slider),
    ``draw(state, figure)`` draws the figure once, on a ``Figure`` of its own,
    laid out once; each later change calls ``update(state, figure)``, which moves
    the artists that change in place and returns them in drawing order, and only
    those are drawn over the saved pixels of everything else (blitting): no
    layout, no new figure, no redraw of the static parts. Without ``update``,
    ``draw`` draws a fresh figure each time (its axes keep the first layout).
    The text is shown by :func:`panel` (``wrap=False``: a plain ``<pre>``).
    The image and the text are replaced in place, so the text never vanishes
    while the figure redraws. A ``ValueError`` from ``state`` replaces the
    numbers by its message (never stale numbers). Callbacks are serialised by a
    lock: JupyterLab may run them on another thread while a cell executes.
    """

    def __init__(self, controls: dict[str, widgets.ValueWidget], state: Callable[..., dict],
                 draw: Callable[[dict, Figure], None], describe: Callable[[dict], str],
                 figsize=(6.4, 4.4), dpi: int = WIDGET_DPI, update: Callable[[dict, Figure], list] | None = None,
                 wrap: bool = True, what: str = "The slider's figure", min_points: float = SLIDER_FONT_POINTS):
        self.controls, self._state, self._draw, self._describe = controls, state, draw, describe
        self.min_points = min_points  # the figure's smallest text (readable), in points at its own size
        self._update, self._panel = update, panel if wrap else plain_panel
        self.figsize, self.dpi, self.what = figsize, dpi, what
        self.alt = ""
        self.image = DescribedImage(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        self.text = widgets.HTML(layout=widgets.Layout(min_width="22em"))
        self.message = widgets.HTML()
        self.announce, self.described = widgets.HTML(), None  # the short line of what changed, and the text it
        self._lock = threading.Lock()                         # was computed against
        self._positions: list | None = None
        self.figure: Figure | None = None   # the blitted figure (with update), kept between moves
        self._drawn: Figure | None = None   # the figure of the last frame, blitted or fresh: its alt's source
        self.state: dict | None = None
        super().__init__([widgets.HBox(list(controls.values()), layout=widgets.Layout(flex_flow="row wrap")),
                          self.message, self.announce,
                          widgets.HBox([self.image, self.text], layout=widgets.Layout(flex_flow="row wrap"))])
        self.children += tuple(accessibility_bridge(self, self.text, self.message, self.announce,
                                                    self.controls.values()))
        for control in controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self, _change=None) -> dict | None:
        """Recompute, redraw and show; return the new state (``None`` after a bad input)."""
        with self._lock:
            try:
                state = self._state(**self.values())
            except ValueError as error:
                show_bad_input(self, error)
                return None
            return show_state(self, state)

    def frame(self, state: dict) -> tuple[bytes, str, str]:
        """The figure (PNG), the number panel (HTML) and the figure's text alternative for ``state``."""
        png = self._render(state) if self._update else self._render_fresh(state)
        text = self._describe(state)
        return png, self._panel(text), slider_alt(self._drawn, self.what, text)

    def _render(self, state: dict) -> bytes:
        """Blit: the first call draws and lays out the figure and saves its static pixels."""
        if self.figure is None:
            figure = Figure(figsize=self.figsize, dpi=self.dpi, layout="constrained")
            canvas = FigureCanvasAgg(figure)
            self._draw(state, figure)
            readable(figure, self.min_points)
            canvas.draw()  # the layout, with every artist in place
            figure.set_layout_engine("none")  # frozen from now on
            for artist in self._update(state, figure):
                artist.set_animated(True)  # left out of the background
            canvas.draw()
            self.figure, self._canvas, self._background = figure, canvas, canvas.copy_from_bbox(figure.bbox)
        artists = self._update(state, self.figure)
        readable(self.figure, self.min_points)  # a text the update set anew (a title) has the default size again
        for artist in artists:  # including any that update has just added
            artist.set_animated(True)
        self._drawn = self.figure
        return blit_png(self._canvas, self._background, artists)

    def _render_fresh(self, state: dict) -> bytes:
        # The first figure is laid out by constrained layout; later ones reuse its axes'
        # positions, which saves most of a redraw's time (the figure's structure is fixed).
        figure = Figure(figsize=self.figsize, dpi=self.dpi, layout=None if self._positions else "constrained")
        canvas = FigureCanvasAgg(figure)
        self._draw(state, figure)
        readable(figure, self.min_points)
        if self._positions and len(figure.axes) == len(self._positions):
            for ax, position in zip(figure.axes, self._positions):
                ax.set_position(position)
        elif self._positions:
            figure.set_layout_engine("constrained")
        canvas.draw()
        if not self._positions:
            self._positions = [ax.get_position() for ax in figure.axes]
        self._drawn = figure
        return png_bytes(canvas)

    def _repr_mimebundle_(self, **kwargs):
        if deck_mode():
            return self.deck_view()._repr_mimebundle_(**kwargs)
        return super()._repr_mimebundle_(**kwargs)

    def deck_view(self) -> widgets.VBox:
        """What a deck shows instead of this explorer: every grid value's frame, pre-rendered (see :func:`deck_view`)."""
        return deck_view(self.controls, self.values(), lambda **values: self.frame(self._state(**values)))


# --------------------------------------------------------------------------- F-beta (notebook 01)
# Round values about evenly spaced on a log scale (each step at most 1.5 times the last), as beta
# weighs recall beta times as much as precision: 11 presses from 0.1 to 1, 10 from 1 to 5.
BETA_GRID = np.array([0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
                      1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0])


def fbeta_explorer(counts_a=HIGH_RECALL, counts_b=HIGH_PRECISION, names=FBETA_NAMES) -> Explorer:
    """A beta slider (0.1 to 5 on ``BETA_GRID``, 22 round values) over iso-F-beta curves with both classifiers
    marked.

    A move redraws the curves, labels, legend and title over the saved axes (``update_iso_fbeta``).
    """

    def points(state):
        return {f"{n} F={state['fbeta'][n]:.3f}": (state["recall"][n], state["precision"][n]) for n in names}

    def draw(state, figure):
        plot_iso_fbeta(state["beta"], points(state), ax=figure.subplots())

    def update(state, figure):
        return update_iso_fbeta(state["beta"], points(state), figure.axes[0])

    return Explorer({"beta": grid_slider(BETA_GRID, 1.0, "beta")},
                    lambda beta: fbeta_state(beta, counts_a, counts_b, names), draw, describe_fbeta_state,
                    figsize=(6.4, 4.8), update=update,
                    what="Iso-F-beta curves with both classifiers marked")


# --------------------------------------------------------------------------- threshold (notebook 02)
def threshold_grid(low: float, high: float, threshold: float, n_steps: int = 200) -> list[float]:
    """Round slider positions covering ``[low, high]``, about ``n_steps`` of them, ``threshold`` included.

    The step is 1, 2 or 5 times a power of ten; every value is rounded to the
    step's decimals, so the browser sends back exactly the numbers shown (0.5,
    never 0.502 or 0.5000000001). ``threshold`` is added when it is off the grid,
    so the slider starts exactly where the notebook says.
    """
    low, high, threshold = float(low), float(high), float(threshold)
    raw = max(high - low, 1e-12) / n_steps
    power = 10.0 ** np.floor(np.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    decimals = max(0, int(-np.floor(np.log10(step)))) + 1
    start, stop = np.floor(low / step) * step, np.ceil(high / step) * step
    grid = {float(v) for v in np.round(np.arange(start, stop + step / 2, step), decimals)}
    return sorted(grid | {threshold})


class ThresholdExplorer(widgets.VBox):
    """The threshold slider: a slider and two cost inputs over one figure that is drawn once.

    The static parts (count histograms, curves, axes, legend) are rendered a
    single time into a background; each change restores it, redraws only the
    artists that move (threshold lines, markers, confusion-matrix cells) and
    sends one PNG to an ``ipywidgets.Image``; the numbers of
    ``helpers.roc.sweep_state`` are text beside it. The confusion matrix puts
    the positive class first. A bad cost (negative, both 0) shows its message
    and blanks every number. Changes are serialised by a lock: JupyterLab may
    run the callbacks on another thread while a cell executes.
    """

    FIGSIZE = (8.6, 5.5)  # inches at DPI: 826 x 528 px, beside the numbers on a 1280 x 720 slide
    DPI = WIDGET_DPI

    def __init__(self, y_true, y_score, threshold=0.5, cost_fp=1.0, cost_fn=1.0, pos_label=1,
                 names=("negative", "positive")):
        is_positive, score = check_binary_scores(y_true, y_score, pos_label)
        if len(names) != 2:
            raise ValueError(f"names must give the negative and the positive class's names; got {names!r}")
        check_threshold_inputs(threshold, 1.0, 1.0)
        self.sweep = ThresholdSweep.from_scores(is_positive, score, pos_label=True)
        self.names = tuple(str(n) for n in names)
        self._lock = threading.Lock()
        self.state: dict | None = None
        self._build_figure(is_positive, score)
        self.slider = grid_slider(threshold_grid(score.min(), score.max(), threshold), float(threshold),
                                  "threshold", fmt="{:.3f}", continuous_update=True, style=WIDE_LABEL)
        # Plain number boxes: a negative cost reaches sweep_state, which names the problem.
        self.cost_fp = widgets.FloatText(value=cost_fp, step=0.5, description="cost of FP", style=WIDE_LABEL,
                                         layout=widgets.Layout(width="13em"))
        self.cost_fn = widgets.FloatText(value=cost_fn, step=0.5, description="cost of FN", style=WIDE_LABEL,
                                         layout=widgets.Layout(width="13em"))
        self.image = DescribedImage(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        self.alt = ""
        self.text = widgets.HTML(layout=widgets.Layout(min_width="21em"))
        self.message = widgets.HTML()
        self.announce, self.described = widgets.HTML(), None  # the short line of what changed (see Explorer)
        # the same interface as Explorer: controls by the state function's argument names
        self.controls = {"threshold": self.slider, "cost_fp": self.cost_fp, "cost_fn": self.cost_fn}
        self._describe = describe_threshold_state
        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        super().__init__([widgets.HBox([self.slider, self.cost_fp, self.cost_fn],
                                       layout=widgets.Layout(flex_flow="row wrap")),
                          self.message, self.announce,
                          widgets.HBox([self.image, self.text], layout=widgets.Layout(flex_flow="row wrap"))])
        self.children += tuple(accessibility_bridge(self, self.text, self.message, self.announce,
                                                    self.controls.values()))
        self.refresh()

    def _state(self, threshold, cost_fp, cost_fn) -> dict:
        return sweep_state(self.sweep, threshold, cost_fp, cost_fn)

    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    @property
    def widget(self) -> "ThresholdExplorer":
        return self

    @property
    def metrics(self) -> widgets.HTML:
        return self.text

    def _build_figure(self, is_positive, score):
        self.figure = Figure(figsize=self.FIGSIZE, dpi=self.DPI, layout="constrained")
        self.canvas = FigureCanvasAgg(self.figure)
        self.drawing = ThresholdFigure(self.figure, self.sweep, is_positive, score, self.names)
        readable(self.figure, SLIDER_FONT_POINTS)
        self.canvas.draw()
        self.background = self.canvas.copy_from_bbox(self.figure.bbox)

    def refresh(self, _change=None) -> dict | None:
        """Recompute from the controls, redraw and show; return the state (``None`` after a bad input)."""
        return self._show(self.slider.value, self.cost_fp.value, self.cost_fn.value, raise_errors=False)

    def update(self, threshold, cost_fp, cost_fn) -> dict:
        """Show the state for these inputs (a ``ValueError`` for bad ones) and return it."""
        return self._show(threshold, cost_fp, cost_fn, raise_errors=True)

    def _show(self, threshold, cost_fp, cost_fn, raise_errors):
        with self._lock:
            try:
                state = sweep_state(self.sweep, threshold, cost_fp, cost_fn)
            except ValueError as error:
                show_bad_input(self, error)
                self.drawing.update(None, threshold)
                self.image.value = self.render()
                self.image.tooltip = self.alt = ""
                if raise_errors:
                    raise
                return None
            return show_state(self, state)

    WHAT = ThresholdFigure.WHAT

    def frame(self, state: dict) -> tuple[bytes, str, str]:
        """The figure (PNG), the number panel (HTML) and the figure's text alternative for ``state``."""
        self.drawing.update(state, state["threshold"])
        text = describe_threshold_state(state)
        return self.render(), panel(text), slider_alt(self.figure, self.WHAT, text)

    def _repr_mimebundle_(self, **kwargs):
        if deck_mode():
            return self.deck_view()._repr_mimebundle_(**kwargs)
        return super()._repr_mimebundle_(**kwargs)

    def deck_view(self) -> widgets.VBox:
        """What a deck shows instead of this explorer: every threshold's frame at the current costs."""
        return deck_view(self.controls, self.values(),
                         lambda **values: self.frame(sweep_state(self.sweep, **values)))

    def render(self) -> bytes:
        """Restore the background, draw the moving artists on it and encode a PNG."""
        return blit_png(self.canvas, self.background, self.drawing.moving)


WIDE_LABEL = {"description_width": "initial"}  # labels in full, never "thresh…"

def threshold_explorer(y_true, y_score, threshold=0.5, cost_fp=1.0, cost_fn=1.0, pos_label=1,
                       names=("negative", "positive")) -> ThresholdExplorer:
    """A threshold slider and two cost inputs over the score counts, confusion
    matrix, metrics, ROC and PR curves of one scored data set."""
    return ThresholdExplorer(y_true, y_score, threshold, cost_fp, cost_fn, pos_label, names)


# --------------------------------------------------------------------------- cross-validation (notebook 03)
def cv_spread_explorer(estimator, X, y, ks=(2, 3, 5, 10, 20), scoring="roc_auc", random_state=0,
                       xlim=None, states: dict | None = None) -> Explorer:
    """Sliders for k and the number of repeats over the fold scores of repeated stratified k-fold.

    ``states`` maps ``(k, n_repeats)`` to states already computed with the same
    estimator, data, scoring and random state; the explorer reuses a copy of it.
    """
    ks = [int(k) for k in ks]
    cache = dict(states or {})

    def state(k, n_repeats):
        if (k, n_repeats) not in cache:
            cache[(k, n_repeats)] = cv_spread_state(estimator, X, y, k, n_repeats, scoring, random_state)
        return cache[(k, n_repeats)]

    # At most 5 repeats: k = 20 then costs 100 fits, and the slider stays responsive.
    controls = {"k": widgets.SelectionSlider(options=ks, value=5 if 5 in ks else ks[0], description="k",
                                             continuous_update=False),
                "n_repeats": widgets.IntSlider(value=5, min=2, max=5, description="repeats",
                                               continuous_update=False)}
    return Explorer(controls, state, lambda st, figure: plot_cv_spread(st, ax=figure.subplots(), xlim=xlim),
                    describe_cv_spread_state, figsize=(7, 3.2),
                    update=lambda st, figure: update_cv_spread(st, figure.axes[0]),
                    what="Fold scores of each repeat of k-fold cross-validation (dots) and each repeat's estimate "
                         "(diamonds)")


# --------------------------------------------------------------------------- concept checks (every notebook)
# One style sheet for every concept check: the feedback of the checked option shows, the others stay hidden.
CONCEPT_CSS = """<style>
.concept-check { border: 1px solid #bbb; padding: 0.4em 0.8em; max-width: 60em; margin: 0; }
.concept-check legend, .concept-check .concept-question { padding: 0; margin: 0 0 0.3em; }
.concept-check label { display: block; padding: 0.15em 0; cursor: pointer; }
.concept-check input:focus-visible { outline: 2px solid #1a5fb4; outline-offset: 2px; }
.concept-check .concept-feedback p { display: none; margin: 0.4em 0 0; }
.concept-check .concept-feedback .concept-right { color: #2e7d32; }
.concept-check .concept-feedback .concept-wrong { color: #b23c17; }
.concept-check .concept-feedback .concept-none { color: #555; }
.concept-check .concept-answer { display: none; margin: 0.4em 0 0; }
.concept-check .concept-answer summary { cursor: pointer; color: #1a5fb4; text-decoration: underline; }
.concept-check .concept-answer summary:focus-visible { outline: 2px solid #1a5fb4; outline-offset: 2px; }
.concept-check .concept-answer p { margin: 0.3em 0 0; }
</style>"""


class ConceptCheckWidget(widgets.HTML):
    """A concept check from ``helpers.quiz.CHECKS`` as a native radio group: pick an option, read why it is
    right or wrong.

    It is plain HTML, so it works the same in JupyterLab, in a deck and in any
    HTML export, and with the keyboard and a screen reader: a ``radiogroup``
    labelled by the question, radios sharing one ``name`` (Tab reaches the group,
    the arrow keys choose, Space picks the focused option), each with its label.
    The feedback of every option (:func:`helpers.quiz.check_answer`'s, word for
    word) is written in advance inside a polite live region, and a style rule
    shows the one of the checked radio (``:has(:checked)``), so the choice is
    announced with no script and no kernel round trip. A wrong choice says why
    it is wrong and leaves the student to try again; only while a wrong option
    is checked does a "Show the answer" disclosure (``<details>``, opened by a
    click, Enter or Space) offer :func:`helpers.quiz.reveal_answer`. Each radio
    and the disclosure carry ``data-lm-suppress-shortcuts``: JupyterLab's
    notebook shortcuts (the arrow keys select cells, Enter edits one) then leave
    their keys to them (Lumino matches a shortcut from the key's target upwards
    and stops at that attribute).
    """

    _count = 0

    def __init__(self, key: str):
        if key not in CHECKS:
            raise ValueError(f"unknown concept check {key!r}; known: {sorted(CHECKS)}")
        self.key, self.check = key, CHECKS[key]
        ConceptCheckWidget._count += 1
        self.uid = f"course-check-{''.join(c if c.isalnum() else '-' for c in key)}-{ConceptCheckWidget._count}"
        super().__init__(self.html(), layout=widgets.Layout(max_width="62em"))

    def feedback(self, choice) -> dict:
        """What the check says for ``choice`` (an option's index, or ``None``): :func:`helpers.quiz.check_answer`."""
        return check_answer(self.key, choice)

    def html(self) -> str:
        uid, check = self.uid, self.check
        options = "".join(
            f'<label><input type="radio" name="{uid}" value="{i}" id="{uid}-{i}" data-lm-suppress-shortcuts="true"> '
            f'{inline_html(text)}</label>'
            for i, text in enumerate(check.options))
        shown = "".join(f'#{uid}:has(#{uid}-{i}:checked) .concept-feedback-{i},' for i in range(len(check.options)))
        offered = ", ".join(f'#{uid}:has(#{uid}-{i}:checked) .concept-answer'
                            for i in range(len(check.options)) if i != check.answer)
        style = (f"<style>{shown} #{uid}:not(:has(:checked)) .concept-feedback-none {{ display: block; }}"
                 f" {offered} {{ display: block; }}</style>")
        feedback = [f'<p class="concept-feedback-none concept-none">{inline_html(self.feedback(None)["feedback"])}</p>']
        for i in range(len(check.options)):
            result = self.feedback(i)
            kind = "concept-right" if result["correct"] else "concept-wrong"
            feedback.append(f'<p class="concept-feedback-{i} {kind}">{inline_html(result["feedback"])}</p>')
        return (f'{CONCEPT_CSS}{style}<div class="concept-check" id="{uid}">'
                f'<p class="concept-question" id="{uid}-question"><b>Concept check.</b> {inline_html(check.question)}</p>'
                f'<div role="radiogroup" aria-labelledby="{uid}-question">{options}</div>'
                f'<div class="concept-feedback" aria-live="polite">{"".join(feedback)}</div>'
                f'<details class="concept-answer"><summary data-lm-suppress-shortcuts="true">{SHOW_ANSWER}</summary>'
                f'<p>{inline_html(reveal_answer(self.key))}</p></details></div>')


def concept_check(key: str) -> ConceptCheckWidget:
    """Show concept check ``key`` (ungraded; feedback as soon as an option is picked, by mouse or keyboard; after
    a wrong choice, another try or "Show the answer")."""
    return ConceptCheckWidget(key)


# --------------------------------------------------------------------------- learning curves (notebook 05)

def complexity_explorer(x_train, y_train, x_val, y_val, degrees=None, degree: int = 1,
                        noise: float | None = None) -> Explorer:
    """A polynomial-degree slider over the fitted curve and the training/validation errors.

    The numbers are those of ``helpers.curves.complexity_state`` (its text from
    ``describe_complexity_state``), computed once for every degree by
    ``complexity_states``: moving the slider only looks a state up and redraws the
    three artists that change and the legends over them (``update_complexity``),
    a few tens of milliseconds of CPU (bench/bench_curves.py). ``noise``
    (sigma^2), when known, is drawn as the floor.
    """
    degrees = [int(d) for d in (DEGREES if degrees is None else degrees)]
    states = complexity_states(x_train, y_train, x_val, y_val, degrees=degrees)

    def state(degree):
        return states[degree]

    def update(st, figure):
        # the legends are redrawn after the moving artists so that they stay on top
        return update_complexity(st, figure.axes) + [ax.get_legend() for ax in figure.axes]

    return Explorer({"degree": grid_slider(degrees, degree, "degree", fmt="{:d}", continuous_update=False)},
                    state, lambda st, figure: plot_complexity(st, axes=figure.subplots(1, 2), noise=noise),
                    describe_complexity_state, figsize=(10, 4), update=update, wrap=False,
                    what="A polynomial fitted to the training points, and training and validation error by degree")


# --------------------------------------------------------------------------- oversampling (notebook 04)
K_NEIGHBORS_GRID = tuple(range(1, 11))
SMOTE_RATIO_GRID = tuple(np.round(np.arange(0.2, 1.0 + 1e-9, 0.1), 1))


def smote_explorer(X, y, minority_label=1, k_neighbors: int = 5, ratio: float = 0.5, random_state=0,
                   k_values=K_NEIGHBORS_GRID, ratios=SMOTE_RATIO_GRID) -> Explorer:
    """Sliders for SMOTE's ``k_neighbors`` and sampling ratio over a 2-D toy set.

    Each move calls ``helpers.resampling.smote_state`` and redraws the synthetic
    points, the segments they were drawn on and the legend over the saved axes
    (``update_smote``).
    """

    def state(k_neighbors, ratio):
        return smote_state(X, y, k_neighbors, ratio, minority_label=minority_label, random_state=random_state)

    def title(st):
        return f"SMOTE, k_neighbors = {st['k_neighbors']}, ratio = {st['ratio']:.1f}"

    def draw(st, figure):
        plot_smote(np.vstack([st["X_majority"], st["X_minority"]]),
                   np.r_[np.zeros(st["n_majority"], dtype=int), np.ones(st["n_minority"], dtype=int)],
                   st["X_new"], st["base"], st["neighbour"], minority_label=1, ax=figure.subplots(), title=title(st))

    def update(st, figure):
        return update_smote(st["X_minority"], st["X_new"], st["base"], st["neighbour"], figure.axes[0], title(st))

    controls = {"k_neighbors": grid_slider([int(k) for k in k_values], k_neighbors, "k_neighbors", fmt="{:d}",
                                           continuous_update=False),
                "ratio": grid_slider(ratios, ratio, "ratio", fmt="{:.1f}", continuous_update=False)}
    return Explorer(controls, state, draw, describe_smote_state, figsize=(6.4, 5.0), update=update,
                    what="SMOTE's synthetic points on segments between minority points")
