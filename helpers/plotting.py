"""Figures the notebooks reuse. Each takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from helpers.roc import check_binary_scores

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


# --------------------------------------------------------------------------- ROC / PR (notebook 02)


def plot_roc_sweep(table, upto: int | None = None, ax=None, label_thresholds: bool = True,
                   shade: bool = False):
    """The ROC path through the first ``upto`` rows of a ``helpers.roc.roc_table``.

    Each point is a threshold (labelled with its value); the diagonal is a
    random ranking. ``shade=True`` fills the area under the path (the AUC).
    """
    if upto is not None and not 1 <= upto <= len(table):
        raise ValueError(f"upto must be between 1 and the table's {len(table)} rows; got {upto!r}")
    ax = _axes(ax)
    rows = table.iloc[: len(table) if upto is None else upto]
    ax.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1, label="random ranking")
    ax.plot(rows["fpr"], rows["tpr"], "o-", color="C0", label="ROC by hand")
    if shade:
        ax.fill_between(rows["fpr"], rows["tpr"], color="C0", alpha=0.15)
    if label_thresholds:
        for _, row in rows.iterrows():
            ax.annotate(f"{row['threshold']:.2f}", (row["fpr"], row["tpr"]), xytext=(4, -10),
                        textcoords="offset points", fontsize=7, color="0.3")
    _ = ax.set(xlim=(-0.03, 1.03), ylim=(-0.03, 1.05), xlabel="FPR = FP / N", ylabel="TPR = TP / P",
               aspect="equal", title=f"{len(rows)} of {len(table)} points")
    return ax


def plot_score_histograms(y_true, y_score, pos_label=1, names=("negative", "positive"),
                          bins: int = 40, ax=None):
    """The score distribution of each class as a density histogram on shared bins."""
    is_positive, y_score = check_binary_scores(y_true, y_score, pos_label)
    ax = _axes(ax)
    edges = np.histogram_bin_edges(y_score, bins=bins)
    for name, mask, color in ((names[0], ~is_positive, "C0"), (names[1], is_positive, "C1")):
        density, _ = np.histogram(y_score[mask], bins=edges, density=True)
        ax.stairs(density, edges, fill=True, alpha=0.35, color=color, label=f"{name} (n={mask.sum()})")
    _ = ax.set(xlabel="score", ylabel="density")
    ax.legend(fontsize=8)
    return ax


