"""Figures of the metrics notebook (01): iso-F-beta curves, the F-beta slider's figure.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``update_*`` moves a
slider's figure in place and describes its new state. The numbers come from
:mod:`helpers.metrics`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.transforms import offset_copy

from helpers.figures import axes_or_new, clear_description, describe, series

ISO_LEVELS = (0.2, 0.4, 0.6, 0.8)


def iso_fbeta_precision(recall, f: float, beta: float) -> np.ndarray:
    """Precision that gives F-beta = ``f`` at each ``recall`` (``nan`` where none can)."""
    recall = np.asarray(recall, dtype=float)
    b2 = beta**2
    denominator = (1 + b2) * recall - f * b2
    precision = np.full(recall.shape, np.nan)
    np.divide(f * recall, denominator, out=precision, where=denominator > 0)
    precision[(precision < 0) | (precision > 1)] = np.nan
    return precision


# The slider figure's text size: 14 pt is 18.7 px at the figure's natural size, readable from the back of a room.
FBETA_FONT_POINTS = 14


def plot_iso_fbeta(beta: float, points: dict[str, tuple[float, float]] | None = None,
                   levels=ISO_LEVELS, ax=None, fontsize: float = FBETA_FONT_POINTS):
    """Iso-F-beta curves in the (recall, precision) plane, with labelled points.

    ``points`` maps a name to its ``(recall, precision)``; a dashed curve of the
    point's colour passes through each, so the higher dashed curve ranks first.
    Nothing is written over the curves: each grey curve's label sits right of the
    axes, level with the curve's end (moved apart when the ends crowd, with a
    leader line), and the legend sits under the axes.
    :func:`update_iso_fbeta` moves the figure to another beta in place.
    """
    ax = axes_or_new(ax)
    for level in levels:
        ax.plot([], [], color="0.7", lw=1, gid=f"iso {level!r}")
        ax.annotate(f"F={level:.1f}", (1, np.nan), xytext=(1.03, np.nan), textcoords=ax.get_yaxis_transform(),
                    fontsize=fontsize, color="0.35", va="center", annotation_clip=False, gid=f"iso {level!r}",
                    arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.8, "shrinkA": 0, "shrinkB": 0})
    for name in points or {}:
        marker = ax.plot([], [], "o", ms=9, label=name, gid="point")[0]
        ax.plot([], [], "--", lw=1.5, color=marker.get_color(), gid="through point")
    _ = ax.set(xlim=(0, 1), ylim=(0, 1.02))
    ax.set_xlabel("recall", fontsize=fontsize)
    ax.set_ylabel("precision", fontsize=fontsize)
    ax.tick_params(labelsize=fontsize)
    ax.title.set_fontsize(fontsize)
    if points:
        # under the x axis: its top edge below the tick labels and the axis label (each a line of text)
        under = offset_copy(ax.transAxes, fig=ax.figure, y=-3.2 * fontsize, units="points")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=under, fontsize=fontsize,
                  borderaxespad=0, frameon=False, ncols=2, columnspacing=1.0, handletextpad=0.3)
    update_iso_fbeta(beta, points, ax)
    return ax


def spread_labels(ends, gap: float, low: float, high: float) -> np.ndarray:
    """Heights for labels of curves ending at ``ends``, in the same order: each as close to its curve's end as it
    can be with ``gap`` between neighbours, all within ``[low, high]`` (``nan`` ends stay ``nan``).

    >>> spread_labels([0.01, 0.02, 0.5], 0.1, 0, 1).round(2).tolist()
    [0.01, 0.11, 0.5]
    """
    ends = np.asarray(ends, dtype=float)
    placed = np.full(ends.shape, np.nan)
    shown = np.flatnonzero(~np.isnan(ends))
    if shown.size == 0:
        return placed
    if gap * (shown.size - 1) > high - low:
        raise ValueError(f"{shown.size} labels {gap} apart do not fit between {low} and {high}")
    order = shown[np.argsort(ends[shown])]
    heights = np.clip(ends[order], low, high)
    for i in range(1, heights.size):  # upwards: each at least gap above the one below
        heights[i] = max(heights[i], heights[i - 1] + gap)
    heights[-1] = min(heights[-1], high)
    for i in range(heights.size - 2, -1, -1):  # downwards: back under the top
        heights[i] = min(heights[i], heights[i + 1] - gap)
    placed[order] = heights
    return placed


def label_gap(ax, fontsize: float) -> float:
    """A line of ``fontsize`` text (1.2 times its size) in ``ax``'s y data units, at the axes' current size."""
    height_px = ax.get_window_extent().height
    low, high = ax.get_ylim()
    return 1.2 * fontsize * ax.figure.dpi / 72 / height_px * (high - low)


def update_iso_fbeta(beta: float, points: dict[str, tuple[float, float]] | None, ax) -> list:
    """Move a :func:`plot_iso_fbeta` figure to ``beta`` and ``points`` (the same names, in the same order).

    Returns every artist that changed, in drawing order (curves, points, labels,
    legend, title), so that a caller can redraw just them.
    """
    recall = np.linspace(0.001, 1, 400)
    for line in ax.lines:
        if line.get_gid().startswith("iso "):
            line.set_data(recall, iso_fbeta_precision(recall, float(line.get_gid()[4:]), beta))
    ends = [iso_fbeta_precision([1.0], float(text.get_gid()[4:]), beta)[0] for text in ax.texts]
    if ax.texts:
        heights = spread_labels(ends, label_gap(ax, ax.texts[0].get_fontsize()), *ax.get_ylim())
        for text, end, height in zip(ax.texts, ends, heights):
            text.xy, text.xyann = (1, end), (1.03, height)
    markers = [line for line in ax.lines if line.get_gid() == "point"]
    through = [line for line in ax.lines if line.get_gid() == "through point"]
    points = points or {}
    if len(markers) != len(points):
        raise ValueError(f"points must name the {len(markers)} points the figure was drawn with; got {len(points)}")
    legend = ax.get_legend()
    for i, (name, (r, p)) in enumerate(points.items()):
        markers[i].set_data([r], [p])
        own_f = (1 + beta**2) * p * r / (beta**2 * p + r)  # the iso-F curve through the point
        through[i].set_data(recall, iso_fbeta_precision(recall, own_f, beta))
        markers[i].set_label(name)
        legend.get_texts()[i].set_text(name)
    ax.set_title(f"iso-F curves for beta = {beta:.2f}", fontsize=ax.title.get_fontsize())
    clear_description(ax)
    levels = sorted(float(text.get_gid()[4:]) for text in ax.texts)
    sentence = (f"Iso-F-beta curves for beta = {beta:.2f} in the recall-precision plane (recall on x, precision on y, "
                f"both 0 to 1): grey curves where F-beta is {series(f'{v:.1f}' for v in levels)}")
    if points:
        scored = [(name, r, p, (1 + beta**2) * p * r / (beta**2 * p + r) if beta**2 * p + r > 0 else 0.0)
                  for name, (r, p) in points.items()]
        sentence += ("; " + "; ".join(f"{name} at recall {r:.2f}, precision {p:.2f} lies on the dashed curve "
                                      f"F-beta = {f:.3f}" for name, r, p, f in scored))
        if len(scored) > 1:
            best = max(scored, key=lambda item: item[3])
            sentence += f"; {best[0]} is on the higher curve and ranks first"
    describe(ax, sentence)
    return [*ax.lines, *ax.texts, *([legend] if legend else []), ax.title]
