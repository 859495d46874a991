"""Figures of the metrics notebook (01): iso-F-beta curves, the F-beta slider's figure.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``update_*`` moves a
slider's figure in place and describes its new state. The numbers come from
:mod:`helpers.metrics`.
"""

from __future__ import annotations

import numpy as np

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


def plot_iso_fbeta(beta: float, points: dict[str, tuple[float, float]] | None = None,
                   levels=ISO_LEVELS, ax=None):
    """Iso-F-beta curves in the (recall, precision) plane, with labelled points.

    ``points`` maps a name to its ``(recall, precision)``; a dashed curve of the
    point's colour passes through each, so the higher dashed curve ranks first.
    :func:`update_iso_fbeta` moves the figure to another beta in place.
    """
    ax = axes_or_new(ax)
    for level in levels:
        ax.plot([], [], color="0.7", lw=1, gid=f"iso {level!r}")
        ax.annotate(f"F={level:.1f}", (1, np.nan), xytext=(3, 0), textcoords="offset points", fontsize=10,
                    color="0.4", va="center", gid=f"iso {level!r}")
    for name in points or {}:
        marker = ax.plot([], [], "o", ms=8, label=name, gid="point")[0]
        ax.plot([], [], "--", lw=1, color=marker.get_color(), gid="through point")
    _ = ax.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="recall", ylabel="precision")
    if points:
        ax.legend(loc="lower left", fontsize=10)
    update_iso_fbeta(beta, points, ax)
    return ax


def update_iso_fbeta(beta: float, points: dict[str, tuple[float, float]] | None, ax) -> list:
    """Move a :func:`plot_iso_fbeta` figure to ``beta`` and ``points`` (the same names, in the same order).

    Returns every artist that changed, in drawing order (curves, points, labels,
    legend, title), so that a caller can redraw just them.
    """
    recall = np.linspace(0.001, 1, 400)
    for line in ax.lines:
        if line.get_gid().startswith("iso "):
            line.set_data(recall, iso_fbeta_precision(recall, float(line.get_gid()[4:]), beta))
    for text in ax.texts:
        text.xy = (1, iso_fbeta_precision([1.0], float(text.get_gid()[4:]), beta)[0])
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
    ax.set_title(f"iso-F curves for beta = {beta:.2f}")
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
