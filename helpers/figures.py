"""Figures that describe themselves: the course's one design for a figure.

Every figure of the course has three jobs: draw, describe itself in words (for
a screen-reader user and for anyone who cannot see the colours), and be
rendered ahead of time for a slide deck. A description has two parts, as a
person would describe a figure to a listener:

* the **alt** (the ``<img>``'s ``alt``): the figure's message in at most
  :data:`ALT_LIMIT` characters with the numbers the prose needs. A screen reader
  reads an alt in one go, with no way to skip, so it stays short;
* the **long description** under the figure, collapsed (a ``<details>`` block a
  reader opens, "Figure details"): one paragraph per panel, what it shows and
  the values behind it.

One contract serves all three jobs:

1. A plotting function draws on ``ax`` (``ax=None`` makes a new one) and
   returns the Axes, as before. It also says in words what it drew, computed
   from the same data it plotted, with :func:`describe` (``describe(ax, "ROC
   curve of ..., AUC 0.714; ...")``). The sentences are kept with the Axes and
   become that panel's paragraph of the long description.
2. A notebook cell ends with :func:`show` (``show(fig, "Two panels: ...")``)
   instead of ``plt.show()``. The summary is the alt: what the whole figure
   says and the numbers the prose next to it needs, formatted from the data,
   never typed by hand (:func:`alt_text` checks it is short enough). The
   figure is displayed with it (an ``<img alt>`` as ``text/html``, which
   JupyterLab and nbconvert prefer, and the ``image/png`` with the alt in its
   metadata for other front ends), then the long description
   (:func:`details_html`) in the same cell, and closed.
3. A slider draws on a ``matplotlib.figure.Figure`` of its own and gives its
   image the alt of its current state (helpers.widgets); a deck pre-renders the
   same figure for each grid value, with the same text.

An Axes that no plotting function described gets a generic description from
what a reader sees on it (:func:`describe_axes`: title, axes, the labelled
lines, bars and point clouds, clipped to the axis limits), so nothing is ever
left without one.
"""

from __future__ import annotations

import html
import os
import weakref

import numpy as np
from matplotlib.axes import Axes
from matplotlib.category import StrCategoryFormatter
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedFormatter, FuncFormatter

# A screen reader reads an alt in one go: the message, not the detail (which goes to the long description).
ALT_LIMIT = 300

_SENTENCES: "weakref.WeakKeyDictionary[Axes, list[str]]" = weakref.WeakKeyDictionary()
_COVERED: "weakref.WeakSet[Axes]" = weakref.WeakSet()


def _sentence(text, name: str) -> str:
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a string, got {type(text).__name__}")
    text = " ".join(text.split())
    if not text:
        raise ValueError(f"{name} must not be empty: say what the figure shows")
    return text if text.endswith((".", "!", "?")) else text + "."


def describe(ax: Axes, text: str) -> Axes:
    """Add ``text`` (a sentence computed from the data just drawn) to ``ax``'s description; return ``ax``."""
    if not isinstance(ax, Axes):
        raise ValueError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    _SENTENCES.setdefault(ax, []).append(_sentence(text, "text"))
    return ax


def part_of(ax: Axes, panel: Axes) -> Axes:
    """Say that ``ax`` (a twin, an overlay) is part of ``panel``, whose description covers it: it gets no
    paragraph of its own in the long description. Returns ``ax``."""
    for name, value in (("ax", ax), ("panel", panel)):
        if not isinstance(value, Axes):
            raise ValueError(f"{name} must be a matplotlib Axes, got {type(value).__name__}")
    _COVERED.add(ax)
    return ax


def descriptions(ax: Axes) -> list[str]:
    """The sentences plotting functions gave ``ax`` (empty if none did)."""
    return list(_SENTENCES.get(ax, []))


def clear_description(ax: Axes) -> None:
    """Forget ``ax``'s sentences (a slider that redraws in place describes its new state)."""
    _SENTENCES.pop(ax, None)


def number(value, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant digits, no trailing noise ("0.714", "1.2e-05", "120")."""
    value = float(value)
    if not np.isfinite(value):
        return "undefined"
    if 1000 <= abs(value) < 1e7 and digits <= 4:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def series(items, limit: int = 12) -> str:
    """``a, b and c`` (at most ``limit`` items, then "and N more")."""
    items = [str(item) for item in items]
    if len(items) > limit:
        items = items[:limit] + [f"{len(items) - limit} more"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def axes_or_new(ax, figsize=(5, 4.5)) -> Axes:
    """``ax``, or the Axes of a new pyplot figure of ``figsize`` when ``ax`` is ``None`` (a notebook cell)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize)[1]


def _is_number(text: str) -> bool:
    try:
        float(text.replace("\u2212", "-"))
    except ValueError:
        return False
    return True


def spoken(value, span: float) -> str:
    """A number as a person reads it off an axis spanning ``span``: to the axis's precision, 3 digits at most
    ("0", never "2.31e-13"; "42", never "41.97" on an axis of 0 to 40)."""
    value, span = float(value), abs(float(span))
    if not np.isfinite(value):
        return "undefined"
    if span > 0 and np.isfinite(span):
        step = 10.0 ** (np.floor(np.log10(span)) - 2)  # three digits of the axis's range
        value = round(value / step) * step
        if abs(value) < step / 2:
            value = 0.0
    return number(value)


def _on_axis(ax: Axes, which: str, value) -> str:
    """``value`` as read off ``ax``'s ``which`` axis: to the precision of a linear axis's range (:func:`spoken`),
    or to 3 significant digits on a log axis, whose range spans decades ("5" at the left end, never "0")."""
    if (ax.get_xscale() if which == "x" else ax.get_yscale()) == "log":
        return number(value)
    return spoken(value, np.ptp(ax.get_xlim() if which == "x" else ax.get_ylim()))


def _ticks(axis, low: float, high: float) -> list[float]:
    return [t for t in axis.get_majorticklocs() if low - 1e-9 * (high - low) <= t <= high + 1e-9 * (high - low)]


def _axis(ax: Axes, which: str) -> str:
    """One axis as a reader sees it: its label and the first and last tick it shows, or its categories."""
    label = ax.get_xlabel() if which == "x" else ax.get_ylabel()
    name = label or ("the horizontal axis" if which == "x" else "the vertical axis")
    low, high = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    scale = ax.get_xscale() if which == "x" else ax.get_yscale()
    axis = ax.xaxis if which == "x" else ax.yaxis
    if isinstance(axis.get_major_formatter(), (FixedFormatter, FuncFormatter, StrCategoryFormatter)):  # labelled ticks
        ticks = [t.get_text() for t in axis.get_ticklabels()]
        ticks = [t for t in ticks if t] if not all(_is_number(t) for t in ticks if t) else []
        if ticks:  # categories (a confusion matrix, a bar chart): name them, not a numeric range
            return f"{name} ({series(ticks, limit=8)})"
    shown = _ticks(axis, low, high) or [low, high]
    return (f"{name} from {_on_axis(ax, which, min(shown))} to {_on_axis(ax, which, max(shown))}"
            + (f", {scale} scale" if scale != "linear" else ""))


def _visible(ax: Axes, x, y):
    """The points of (x, y) inside the axis limits: a reader cannot see the rest."""
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    keep = np.isfinite(x) & np.isfinite(y) & (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    return x[keep], y[keep]


def _line(ax: Axes, line: Line2D) -> str | None:
    label = line.get_label()
    if label.startswith("_") or not line.get_visible():
        return None
    x, y = (np.asarray(v, dtype=float).ravel() for v in line.get_data())
    if x.size == 0 or x.size != y.size:
        return None
    if x.size > 1 and np.ptp(x) == 0 and np.ptp(y) > 0:  # axvline and the like
        return f"a vertical line, {label}, at {_on_axis(ax, 'x', x[0])}"
    if x.size > 1 and np.ptp(y) == 0 and np.ptp(x) > 0:
        return f"a horizontal line, {label}, at {_on_axis(ax, 'y', y[0])}"
    x, y = _visible(ax, x, y)
    if x.size == 0:
        return None
    at = lambda i: f"{_on_axis(ax, 'y', y[i])} at {_on_axis(ax, 'x', x[i])}"  # noqa: E731
    if x.size == 1:
        return f"{label}: {at(0)}"
    kind = "points" if line.get_linestyle() in ("None", "", " ") else "line"
    text = f"{label} ({kind}) from {at(0)} to {at(-1)}"
    top, low = int(np.argmax(y)), int(np.argmin(y))
    extremes = [f"highest {at(top)}" if top not in (0, x.size - 1) else "",
                f"lowest {at(low)}" if low not in (0, x.size - 1) else ""]
    extremes = [e for e in extremes if e]
    return text + (", " + " and ".join(extremes) if extremes else "")


def _bars(ax: Axes) -> list[str]:
    """The bars of ``ax``: each group's bars by category with its value (as a bar label would print it) when
    they are few, else their range."""
    containers = [c for c in ax.containers if isinstance(c, BarContainer)]
    bars = [p for p in ax.patches if isinstance(p, Rectangle) and (p.get_height() != 0 or p.get_width() != 0)]
    if not bars:
        return []
    horizontal = bool(containers) and containers[0].orientation == "horizontal" or (
        not containers and np.ptp([b.get_height() for b in bars]) == 0 and np.ptp([b.get_width() for b in bars]) > 0)
    axis = ax.yaxis if horizontal else ax.xaxis
    names = {round(float(loc), 6): label.get_text() for loc, label in zip(axis.get_majorticklocs(), axis.get_ticklabels())}

    def category(bar) -> str | None:
        centre = bar.get_y() + bar.get_height() / 2 if horizontal else bar.get_x() + bar.get_width() / 2
        near = min(names, key=lambda loc: abs(loc - centre), default=None)
        width = bar.get_height() if horizontal else bar.get_width()
        return names[near] if near is not None and abs(near - centre) <= abs(width) and names[near] else None

    groups = containers or [bars]
    if sum(len(g) for g in groups) <= 24 and all(category(b) for g in groups for b in g):
        parts = []
        for group in groups:
            values = group.datavalues if isinstance(group, BarContainer) else \
                [b.get_width() if horizontal else b.get_height() for b in group]
            label = group.get_label() if isinstance(group, BarContainer) else ""
            listed = series(f"{category(b)} {number(v)}" for b, v in zip(group, values))
            parts.append(f"{label} bars: {listed}" if label and not label.startswith("_") else f"bars {listed}")
        return parts
    lengths = [abs(b.get_width() if horizontal else b.get_height()) for b in bars]
    span = np.ptp(ax.get_xlim() if horizontal else ax.get_ylim())
    return [f"{len(bars)} bars from {spoken(min(lengths), span)} to {spoken(max(lengths), span)}"]


def describe_axes(ax: Axes) -> str:
    """A generic description of ``ax`` from what a reader sees on it, for an Axes no plotting function described.

    It names the title, what is plotted against what (each axis's label and its
    first and last tick, or its categories), the labelled lines (their ends and
    extremes within the axis limits), point clouds, bars (each bar's value when
    there are few), images (and the numbers written in their cells) and the
    legend's entries.
    """
    title = " ".join(ax.get_title().split())
    text = (f"{title}: " if title else "") + f"{_axis(ax, 'y')} against {_axis(ax, 'x')}"
    items = [item for item in (_line(ax, line) for line in ax.get_lines()) if item]
    for collection in ax.collections:
        if isinstance(collection, PathCollection) and collection.get_visible():
            offsets = np.asarray(collection.get_offsets(), dtype=float).reshape(-1, 2)
            n = _visible(ax, offsets[:, 0], offsets[:, 1])[0].size
            label = collection.get_label()
            if n:
                items.append(f"{number(n)} point{'s' if n != 1 else ''}" + ("" if label.startswith("_") else f" ({label})"))
    items += _bars(ax)
    if ax.images:
        values = np.asarray(ax.images[0].get_array(), dtype=float)
        item = f"a grid of {values.shape[0]} by {values.shape[1]} cells"
        cells = [t.get_text() for t in ax.texts if t.get_text().strip()]
        if cells and len(cells) <= 36:
            item += " reading " + ", ".join(" ".join(c.split()) for c in cells)
        elif values.ndim == 2 and np.isfinite(values).any():
            item += f" with values from {number(np.nanmin(values))} to {number(np.nanmax(values))}"
        items.append(item)
    if items:
        text += "; " + "; ".join(items)
    legend = ax.get_legend()
    if legend is not None:
        entries = [" ".join(t.get_text().split()) for t in legend.get_texts() if t.get_text()]
        if entries:
            text += "; legend: " + ", ".join(entries)
    return " ".join(text.split()) + "."


def _is_colorbar(ax: Axes) -> bool:
    return getattr(ax, "_colorbar", None) is not None


def alt_text(fig: Figure, summary: str) -> str:
    """The alt of ``fig``: ``summary`` as one sentence, checked to be at most :data:`ALT_LIMIT` characters
    (the detail belongs to :func:`long_description`)."""
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    text = _sentence(summary, "summary")
    if len(text) > ALT_LIMIT:
        raise ValueError(f"the summary is {len(text)} characters; an alt is read in one go, so say the figure's "
                         f"message in at most {ALT_LIMIT} and leave the detail to the panels' descriptions "
                         f"(describe): {text[:80]!r}...")
    return text


def long_description(fig: Figure) -> list[str]:
    """One paragraph per panel of ``fig``: the sentences its plotting function gave it, or its generic
    description (:func:`describe_axes`); colour bars and hidden Axes are left out."""
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    described = [ax.get_position().bounds for ax in fig.axes if descriptions(ax)]
    axes = [ax for ax in fig.axes
            if descriptions(ax) or (ax.get_visible() and ax.axison and not _is_colorbar(ax) and ax not in _COVERED
                                    and ax.get_position().bounds not in described)]  # a twin: part of that panel
    return [" ".join(" ".join(descriptions(ax) or [describe_axes(ax)]).split()) for ax in axes]


DETAILS_CLASS = "course-figure-details"


def details_html(paragraphs: list[str], summary: str = "Figure details") -> str:
    """A collapsed ``<details>`` block with one paragraph per panel (the long description under a figure)."""
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return f'<details class="{DETAILS_CLASS}"><summary>{html.escape(summary)}</summary>{body}</details>'


# The lecture JupyterLab (tools/publishing/lecture.py present_options) sets this in its kernels' environment: the
# figures :func:`show` draws there are drawn for the projector (:func:`fit_for_projector`); nowhere else.
PROJECTOR = "COURSE_PROJECTOR"
PROJECTED_WIDTH, PROJECTED_HEIGHT = 1240, 470  # px: the live slideshow shows a figure this wide, at most this tall
PROJECTED_TEXT_PX = 18.5  # the smallest text as projected, with a margin over the course's 18 px
ENOUGH_TEXT_PX = 18.2  # after one round of enlarging, close enough to stop (each round draws the figure again)


def projected_scale(fig: Figure) -> float:
    """The scale the live slideshow shows ``fig``'s PNG at (tools/publishing/present/custom.css: the slide's width,
    at most :data:`PROJECTED_HEIGHT` high, the picture contained), from its size as saved (the tight box IPython's
    ``print_figure`` saves), ``fig`` as last drawn."""
    import matplotlib as mpl

    box, pad = fig.get_tightbbox(), 2 * mpl.rcParams["savefig.pad_inches"]
    width, height = (box.width + pad) * fig.dpi, (box.height + pad) * fig.dpi
    return min(PROJECTED_WIDTH / width, PROJECTED_HEIGHT / height)


def text_clashes(fig: Figure) -> int:
    """How many pairs of ``fig``'s texts overlap as last drawn (labels running into each other; the labels of ticks
    outside their axis's view are not drawn), plus one per warning of its last layout (constrained layout gives up
    when the axes would collapse)."""
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    unseen = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            margin = 1e-9 * max(1.0, abs(high - low))
            unseen.update(label for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                          if not low - margin <= tick.get_loc() <= high + margin
                          for label in (tick.label1, tick.label2))
    boxes = [text.get_window_extent(renderer) for text in fig.findobj(Text)
             if text.get_visible() and text.get_text().strip() and text not in unseen]
    boxes = [box for box in boxes if box.width > 0 and box.height > 0]
    return sum(1 for k, one in enumerate(boxes) for other in boxes[k + 1:]
               if min(one.x1, other.x1) - max(one.x0, other.x0) > 2
               and min(one.y1, other.y1) - max(one.y0, other.y0) > 2)


def projection(fig: Figure) -> tuple[float, int]:
    """``fig`` drawn (its layout done, its tick labels set; nothing rendered) and measured for the projector: its
    smallest text as projected, in px (its size in px times :func:`projected_scale`), and :func:`text_clashes`
    (plus one per warning of the layout: constrained layout gives up when the axes would collapse)."""
    import warnings

    from helpers.widgets import smallest_text_px

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.draw_without_rendering()
    return projected_scale(fig) * smallest_text_px(fig), text_clashes(fig) + len(caught)


def enlarge_text(fig: Figure, factor: float) -> None:
    """Every text of ``fig`` ``factor`` times larger in pixels, the figure's pixels the same: fewer inches, more
    dots per inch."""
    width, height = fig.get_size_inches()
    fig.set_dpi(fig.dpi * factor)
    fig.set_size_inches(width / factor, height / factor)


def fit_for_projector(fig: Figure) -> float:
    """Draw ``fig`` for the live slideshow, in place: when its smallest text as projected (:func:`projection`) is
    under :data:`PROJECTED_TEXT_PX`, every text grows by the factor that brings it there (:func:`enlarge_text`; the
    PNG keeps its pixels and its place on the slide, the layout is redone around the text), or, if texts would run
    into each other more than before (:func:`text_clashes`), by half that growth, or not at all; once more if the
    saved box, grown with the texts, keeps it under :data:`ENOUGH_TEXT_PX`. Return the smallest text as projected,
    in px."""
    projected, clashes = projection(fig)
    for round_ in range(2):
        if projected >= (PROJECTED_TEXT_PX if round_ == 0 else ENOUGH_TEXT_PX):
            break
        size, dpi = fig.get_size_inches(), fig.dpi
        wanted = PROJECTED_TEXT_PX / projected * 1.03  # a little more: the saved box grows with the texts
        for factor in (wanted, 1 + (wanted - 1) / 2):
            enlarge_text(fig, factor)
            grown, clashing = projection(fig)
            if clashing <= clashes:
                projected = grown
                break
            fig.set_dpi(dpi)
            fig.set_size_inches(*size)
        else:  # any growth makes texts run into each other
            break
    return projected


def show(fig: Figure, summary: str) -> None:
    """Display ``fig`` with ``summary`` as its alt (see :func:`alt_text`), then its long description, collapsed
    (:func:`details_html`), and close it.

    It returns nothing, so a cell that ends with it stores no stray repr."""
    from IPython.display import display
    import matplotlib.pyplot as plt

    text = alt_text(fig, summary)
    paragraphs = long_description(fig)
    from IPython.core.pylabtools import print_figure

    if os.environ.get(PROJECTOR):
        fit_for_projector(fig)
    png = print_figure(fig, "png", base64=True)  # the PNG IPython's inline backend would show
    display({"image/png": png, "text/html": image_html(png, text), "text/plain": f"<Figure: {text}>"},
            metadata={"image/png": {"alt": text}}, raw=True)
    display({"text/html": details_html(paragraphs), "text/plain": "Figure details: " + " ".join(paragraphs)},
            raw=True)
    plt.close(fig)


def image_html(png_base64: str, alt: str) -> str:
    """The figure as an ``<img>`` with its alt: JupyterLab 4 shows an ``image/png`` output without the alt of its
    metadata, so :func:`show` also gives this HTML, which JupyterLab and nbconvert prefer to the PNG."""
    return f'<img src="data:image/png;base64,{png_base64}" alt="{html.escape(alt)}">'
