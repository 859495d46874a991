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
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

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


def _fmt(value: float) -> str:
    return f"{value:.3g}"


def describe_axes(ax: Axes) -> str:
    """A generic description of ``ax`` from its artists, for an Axes no plotting function described."""
    parts = []
    title = ax.get_title()
    parts.append(f"Panel '{title}'" if title else "A panel")
    xlabel, ylabel = ax.get_xlabel(), ax.get_ylabel()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    parts.append(f"x axis {xlabel or 'unlabelled'} from {_fmt(x0)} to {_fmt(x1)}, "
                 f"y axis {ylabel or 'unlabelled'} from {_fmt(y0)} to {_fmt(y1)}")
    text = ": ".join(parts[:1]) + " with " + parts[1]
    items = []
    for line in ax.get_lines():
        label = line.get_label()
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        if label.startswith("_") or x.size == 0:
            continue
        if x.size == 1:
            items.append(f"{label} at ({_fmt(x[0])}, {_fmt(y[0])})")
        else:
            items.append(f"line {label} from ({_fmt(x[0])}, {_fmt(y[0])}) to ({_fmt(x[-1])}, {_fmt(y[-1])})")
    for collection in ax.collections:
        if isinstance(collection, PathCollection):
            label = collection.get_label()
            n = len(collection.get_offsets())
            items.append(f"{n} points" + ("" if label.startswith("_") else f" of {label}"))
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    if bars:
        items.append(f"{len(bars)} bars")
    if ax.images:
        shape = ax.images[0].get_array().shape
        items.append(f"an image of {shape[0]} by {shape[1]} cells")
    if items:
        text += "; it shows " + ", ".join(items)
    return text + "."


def alt_text(fig: Figure, summary: str) -> str:
    """The text alternative of ``fig``: ``summary``, then each Axes' sentences (or its generic description)."""
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    parts = [_sentence(summary, "summary")]
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.axison or descriptions(ax)]
    for ax in axes:
        parts.extend(descriptions(ax) or [describe_axes(ax)])
    return " ".join(parts)


def show(fig: Figure, summary: str) -> None:
    """Display ``fig`` with its text alternative (see :func:`alt_text`) and close it.

    It returns nothing, so a cell that ends with it stores no stray repr."""
    from IPython.display import display
    import matplotlib.pyplot as plt

    text = alt_text(fig, summary)
    display(fig, metadata={"image/png": {"alt": text}})
    plt.close(fig)
