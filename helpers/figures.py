"""Figures that describe themselves: the course's one design for a figure.

Every figure of the course has three jobs: draw, describe itself in words (its
text alternative, for a screen-reader user and for anyone who cannot see the
colours), and be rendered ahead of time for a slide deck. One contract serves
all three:

1. A plotting function draws on ``ax`` (``ax=None`` makes a new one) and
   returns the Axes, as before. It also says in words what it drew, computed
   from the same data it plotted, with :func:`describe` (``describe(ax, "ROC
   curve of ..., AUC 0.714; ...")``). The sentences are kept with the Axes.
2. A notebook cell ends with :func:`show` (``show(fig, "Two panels: ...")``)
   instead of ``plt.show()``. The summary says what the whole figure is and
   the numbers the prose next to it needs, formatted from the data, never
   typed by hand; :func:`alt_text` appends every Axes' sentences. The figure
   is displayed with that text as its alternative (the output's ``image/png``
   metadata ``alt``, which JupyterLab and nbconvert write on the ``<img>``)
   and closed.
3. A slider draws on a ``matplotlib.figure.Figure`` of its own and calls
   :func:`alt_text` on it after every change; a deck pre-renders the same
   figure for each grid value, with the same text.

An Axes that no plotting function described gets a generic description from
its artists (:func:`describe_axes`: title, axis labels and ranges, the
labelled lines, bars and point clouds), so nothing is ever left without one.
"""

from __future__ import annotations

import weakref

import numpy as np
from matplotlib.axes import Axes
from matplotlib.category import StrCategoryFormatter
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedFormatter, FuncFormatter

_SENTENCES: "weakref.WeakKeyDictionary[Axes, list[str]]" = weakref.WeakKeyDictionary()


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


def _axis(ax: Axes, which: str) -> str:
    label = (ax.get_xlabel() if which == "x" else ax.get_ylabel()) or "unlabelled"
    low, high = ax.get_xlim() if which == "x" else ax.get_ylim()
    scale = ax.get_xscale() if which == "x" else ax.get_yscale()
    axis = ax.xaxis if which == "x" else ax.yaxis
    ticks = []
    if isinstance(axis.get_major_formatter(), (FixedFormatter, FuncFormatter, StrCategoryFormatter)):  # labelled ticks
        ticks = [t.get_text() for t in axis.get_ticklabels()]
        ticks = [t for t in ticks if t] if not all(_is_number(t) for t in ticks if t) else []
    if ticks:  # categories (a confusion matrix, a bar chart): name them, not a numeric range
        shown = ", ".join(ticks[:8]) + (f" and {len(ticks) - 8} more" if len(ticks) > 8 else "")
        return f"{which} axis {label} with categories {shown}"
    text = f"{which} axis {label} from {number(min(low, high))} to {number(max(low, high))}"
    return text + (f" ({scale} scale)" if scale != "linear" else "")


def _line(line: Line2D) -> str | None:
    label = line.get_label()
    x, y = (np.asarray(v, dtype=float) for v in line.get_data())
    if label.startswith("_") or x.size == 0:
        return None
    if x.size == 1:
        return f"{label} at ({number(x[0])}, {number(y[0])})"
    if np.ptp(x) == 0 and np.ptp(y) > 0:  # axvline and the like
        return f"vertical line {label} at x = {number(x[0])}"
    if np.ptp(y) == 0 and np.ptp(x) > 0:
        return f"horizontal line {label} at y = {number(y[0])}"
    kind = "points" if line.get_linestyle() in ("None", "", " ") else "line"
    finite = np.isfinite(y)
    if not finite.any():
        return f"{kind} {label}"
    top = int(np.nanargmax(np.where(finite, y, -np.inf)))
    low = int(np.nanargmin(np.where(finite, y, np.inf)))
    return (f"{kind} {label} from ({number(x[0])}, {number(y[0])}) to ({number(x[-1])}, {number(y[-1])}), "
            f"highest {number(y[top])} at x = {number(x[top])}, lowest {number(y[low])} at x = {number(x[low])}")


def describe_axes(ax: Axes) -> str:
    """A generic description of ``ax`` from its artists, for an Axes no plotting function described.

    It names the title, both axes (range and scale, or their categories), the
    labelled lines (end points and extremes), point clouds, bars, images (and
    the numbers written in their cells), the legend's entries and a colour bar.
    """
    title = ax.get_title()
    text = (f"Panel '{title}'" if title else "A panel") + f" with {_axis(ax, 'x')} and {_axis(ax, 'y')}"
    items = [item for item in map(_line, ax.get_lines()) if item]
    for collection in ax.collections:
        if isinstance(collection, PathCollection):
            label = collection.get_label()
            n = len(collection.get_offsets())
            items.append(f"{n} points" + ("" if label.startswith("_") else f" of {label}"))
    bars = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_height() != 0 and p.get_width() != 0]
    if bars:
        heights, widths = [abs(b.get_height()) for b in bars], [abs(b.get_width()) for b in bars]
        horizontal = np.ptp(heights) == 0 and np.ptp(widths) > 0  # barh: the length is the width
        lengths = widths if horizontal else heights
        items.append(f"{len(bars)} {'horizontal ' if horizontal else ''}bars of lengths {number(min(lengths))} to "
                     f"{number(max(lengths))}")
    if ax.images:
        values = np.asarray(ax.images[0].get_array(), dtype=float)
        item = f"an image of {values.shape[0]} by {values.shape[1]} cells"
        if values.ndim == 2 and np.isfinite(values).any():
            item += f" with values from {number(np.nanmin(values))} to {number(np.nanmax(values))}"
        cells = [t.get_text() for t in ax.texts if t.get_text().strip()]
        if cells and len(cells) <= 36:
            item += ", its cells read " + ", ".join(cells)
        items.append(item)
    if items:
        text += "; it shows " + "; ".join(items)
    legend = ax.get_legend()
    if legend is not None:
        entries = [t.get_text() for t in legend.get_texts() if t.get_text()]
        if entries:
            text += "; legend: " + ", ".join(entries)
    return text + "."


def _is_colorbar(ax: Axes) -> bool:
    return getattr(ax, "_colorbar", None) is not None


def alt_text(fig: Figure, summary: str) -> str:
    """The text alternative of ``fig``: ``summary``, then each Axes' sentences (or its generic description)."""
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    parts = [_sentence(summary, "summary")]
    axes = [ax for ax in fig.axes
            if descriptions(ax) or (ax.get_visible() and ax.axison and not _is_colorbar(ax))]
    for ax in axes:
        parts.extend(descriptions(ax) or [describe_axes(ax)])
    return " ".join(" ".join(parts).split())  # one line: multi-line axis labels and titles too


def show(fig: Figure, summary: str) -> None:
    """Display ``fig`` with its text alternative (see :func:`alt_text`) and close it.

    It returns nothing, so a cell that ends with it stores no stray repr."""
    from IPython.display import display
    import matplotlib.pyplot as plt

    text = alt_text(fig, summary)
    display(fig, metadata={"image/png": {"alt": text}})
    plt.close(fig)
