"""Figures the notebooks reuse. Each takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

ISO_LEVELS = (0.2, 0.4, 0.6, 0.8)


def _axes(ax):
    return ax if ax is not None else plt.subplots(figsize=(5, 4.5))[1]


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
    """
    ax = _axes(ax)
    recall = np.linspace(0.001, 1, 400)
    for level in levels:
        ax.plot(recall, iso_fbeta_precision(recall, level, beta), color="0.7", lw=1)
        ax.annotate(f"F={level:.1f}", (1, iso_fbeta_precision([1.0], level, beta)[0]),
                    xytext=(3, 0), textcoords="offset points", fontsize=8, color="0.4", va="center")
    for name, (r, p) in (points or {}).items():
        marker = ax.plot(r, p, "o", ms=8, label=name)[0]
        own_f = (1 + beta**2) * p * r / (beta**2 * p + r)  # the iso-F curve through the point
        ax.plot(recall, iso_fbeta_precision(recall, own_f, beta), "--", lw=1, color=marker.get_color())
    _ = ax.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="recall", ylabel="precision",
               title=f"iso-F curves for beta = {beta:.2f}")
    if points:
        ax.legend(loc="lower left", fontsize=8)
    return ax


