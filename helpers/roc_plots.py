"""Figures of the ROC notebook (02): the ROC path by hand, score histograms, the threshold slider's figure.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``roc_sentence`` and
``pr_sentence`` describe scikit-learn's own Displays. The numbers come from
:mod:`helpers.roc`. Reliability diagrams are in :mod:`helpers.calibration_plots`.
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import ConfusionMatrixDisplay, PrecisionRecallDisplay, RocCurveDisplay

from helpers.figures import axes_or_new, describe, number
from helpers.roc import auc_trapezoid, average_precision_by_hand, pr_table
from helpers.style import NEGATIVE, NEUTRAL, POSITIVE
from helpers.validation import check_binary_scores


def plot_roc_sweep(table, upto: int | None = None, ax=None, label_thresholds: bool = True,
                   shade: bool = False):
    """The ROC path through the first ``upto`` rows of a ``helpers.roc.roc_table``.

    Each point is a threshold (labelled with its value); the diagonal is a
    random ranking. ``shade=True`` fills the area under the path (the AUC).
    """
    if upto is not None and not 1 <= upto <= len(table):
        raise ValueError(f"upto must be between 1 and the table's {len(table)} rows; got {upto!r}")
    ax = axes_or_new(ax)
    rows = table.iloc[: len(table) if upto is None else upto]
    ax.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1, label="random ranking")
    ax.plot(rows["fpr"], rows["tpr"], "o-", color="C0", label="ROC by hand")
    if shade:
        ax.fill_between(rows["fpr"], rows["tpr"], color="C0", alpha=0.15)
    if label_thresholds:
        for _, row in rows.iterrows():
            ax.annotate(f"{row['threshold']:.2f}", (row["fpr"], row["tpr"]), xytext=(4, -10),
                        textcoords="offset points", fontsize=10, color="0.3")
    _ = ax.set(xlim=(-0.03, 1.03), ylim=(-0.03, 1.05), xlabel="FPR = FP / N", ylabel="TPR = TP / P",
               aspect="equal", title=f"{len(rows)} of {len(table)} points")
    fpr, tpr = rows["fpr"].to_numpy(dtype=float), rows["tpr"].to_numpy(dtype=float)
    sentence = (f"ROC path computed by hand through {len(rows)} of the table's {len(table)} thresholds, "
                f"FPR on x and TPR on y, from (FPR {number(fpr[0])}, TPR {number(tpr[0])}) "
                f"to (FPR {number(fpr[-1])}, TPR {number(tpr[-1])})")
    if len(rows) <= 12:
        sentence += ("; threshold, FPR, TPR of each point: "
                     + "; ".join(f"{t:.2f}, {number(f)}, {number(r)}" for t, f, r in zip(rows["threshold"], fpr, tpr)))
    if shade:
        area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
        sentence += f"; the shaded area under the path is {area:.3f}"
    describe(ax, sentence + "; the dashed diagonal is a random ranking")
    return ax


def roc_sentence(y_true, y_score, name: str, pos_label=1, at_fpr: float = 0.1) -> str:
    """A sentence for a ROC curve (a ``RocCurveDisplay`` too): its AUC and the TPR it reaches at FPR ``at_fpr``."""
    from sklearn.metrics import roc_auc_score, roc_curve

    is_positive, y_score = check_binary_scores(y_true, y_score, pos_label)
    fpr, tpr, _ = roc_curve(is_positive, y_score)
    auc = roc_auc_score(is_positive, y_score)
    return (f"ROC curve of {name}: AUC {auc:.3f}; at FPR {at_fpr:g} the TPR is "
            f"{np.interp(at_fpr, fpr, tpr):.2f}" + ("; it runs below the diagonal" if auc < 0.5 else ""))


def pr_sentence(y_true, y_score, name: str, pos_label=1, at_recall: float = 0.5) -> str:
    """A sentence for a precision-recall curve: its average precision, the precision at ``at_recall`` and chance."""
    from sklearn.metrics import average_precision_score, precision_recall_curve

    is_positive, y_score = check_binary_scores(y_true, y_score, pos_label)
    precision, recall, _ = precision_recall_curve(is_positive, y_score)
    reached = precision[recall >= at_recall]
    return (f"Precision-recall curve of {name}: AP {average_precision_score(is_positive, y_score):.3f}; at recall "
            f"{at_recall:g} the precision is {reached.max():.2f}; chance level (the positive share) "
            f"{is_positive.mean():.3f}")


CLASS_LABEL_WIDTH = 12  # characters per line of a class's name beside its count panel


def class_label(name: str, count: int) -> str:
    """A count panel's class label: the class name wrapped at :data:`CLASS_LABEL_WIDTH` characters, then its
    size (``"no\nsubscription\n1001 samples"``)."""
    return "\n".join([*(textwrap.wrap(str(name), CLASS_LABEL_WIDTH) or [str(name)]), f"{count} samples"])


def plot_score_histograms(y_true, y_score, pos_label=1, names=("negative", "positive"),
                          bins: int = 40, ax=None, counts: bool = False):
    """The score distribution of each class on shared bins (positive class in POSITIVE, negative in NEGATIVE).

    By default both classes overlap on one Axes as densities (each of area 1),
    the legend giving each class's size. With ``counts=True`` each class gets a
    panel of its own with counts (bar heights sum to the class's size), the
    positive class first: ``ax`` is then a pair of Axes (positive, negative), or
    ``None`` for two new stacked panels, and the pair is returned; each panel's
    class and size (:func:`class_label`) are written right of it, outside the
    axes, where no bar and no line across the panel can reach them.
    """
    is_positive, y_score = check_binary_scores(y_true, y_score, pos_label)
    edges = np.histogram_bin_edges(y_score, bins=bins)
    classes = ((names[1], is_positive, POSITIVE), (names[0], ~is_positive, NEGATIVE))  # positive first
    if counts:
        axes = plt.subplots(2, 1, sharex=True, figsize=(6, 4.5))[1] if ax is None else ax
        if len(axes) != 2:
            raise ValueError(f"counts=True draws one panel per class: ax must be a pair of Axes; got {len(axes)}")
    else:
        axes = [axes_or_new(ax)] * 2
        classes = classes[::-1]  # the negative class first in the legend
    for panel, (name, mask, colour) in zip(axes, classes):
        values, _ = np.histogram(y_score[mask], bins=edges, density=not counts)
        if counts:
            panel.stairs(values, edges, fill=True, alpha=0.7, color=colour)
            # right of the panel, as a facet label: never over its bars or a line drawn across the panel
            panel.text(1.03, 0.5, class_label(name, int(mask.sum())), transform=panel.transAxes, ha="left",
                       va="center", color=colour, fontweight="bold")
            panel.set_ylabel("count")
            panel.grid(True, alpha=0.3)
        else:
            panel.stairs(values, edges, fill=True, alpha=0.35, color=colour, label=f"{name} (n={mask.sum()})")
    summaries = {name: (f"{name} (n={int(mask.sum())}, median score {number(np.median(y_score[mask]))}, "
                        f"from {number(y_score[mask].min())} to {number(y_score[mask].max())})" if mask.any()
                        else f"{name} (n=0)") for name, mask, _ in classes}
    span = f"on {len(edges) - 1} shared bins from {number(edges[0])} to {number(edges[-1])}"
    if counts:
        for panel, (name, mask, _) in zip(axes, classes):
            describe(panel, f"Histogram of the scores of the {summaries[name]}, counts {span}")
        return axes
    _ = axes[0].set(xlabel="score", ylabel="density")
    axes[0].legend(fontsize=10)
    describe(axes[0], f"Overlapping score histograms as densities {span}: "
                      + " and ".join(summaries[name] for name, _, _ in classes[::-1]))
    return axes[0]


# --------------------------------------------------------------------------- the threshold slider's figure
# helpers.widgets.ThresholdExplorer wires a slider and two cost boxes to it (helpers.roc.sweep_state).

NEUTRAL_CURVE = "0.25"
# Drawn in this order: the largest, hollow one first, so each stays visible when they coincide.
MARKER_STYLES = {
    "youden": {"marker": "D", "ms": 17, "mfc": "none", "mec": "#2ca02c", "mew": 2.5, "zorder": 4,
               "label": "Youden J max (green diamond)"},
    "cost_optimal": {"marker": "*", "ms": 15, "color": "#d62728", "mec": "white", "mew": 0.8, "zorder": 5,
                     "label": "least cost (red star)"},
    "current": {"marker": "o", "ms": 7, "color": "k", "zorder": 6, "label": "threshold (black dot)"},
}


class ThresholdFigure:
    """The threshold slider's figure on ``figure``: the count histograms of both classes with the threshold
    line, the confusion matrix (positive class first, rows true, columns predicted), and the ROC and
    precision-recall curves of ``sweep`` (a ``helpers.roc.ThresholdSweep``) with three markers: the current
    threshold, the least-cost one and Youden's J.

    Everything is drawn once; :meth:`update` moves only the artists that change (:attr:`moving`, in drawing
    order) to a ``helpers.roc.sweep_state``, so that a caller can draw just them over the saved pixels of
    the rest.
    """

    WHAT = "Score counts, confusion matrix, ROC and precision-recall curves at a threshold"

    def __init__(self, figure, sweep, is_positive, score, names=("negative", "positive")):
        self.figure, self.sweep = figure, sweep
        # two rows laid out apart (subfigures), so that the wide class labels and the matrix's names above do not
        # widen the curves' columns below
        top, bottom = figure.subfigures(2, 1, height_ratios=(1, 1.25))
        grid = top.add_gridspec(2, 2, width_ratios=(1.6, 1))
        ax_pos = top.add_subplot(grid[0, 0])
        ax_neg = top.add_subplot(grid[1, 0], sharex=ax_pos)
        ax_cm = top.add_subplot(grid[:, 1])
        ax_roc, ax_pr = bottom.subplots(1, 2)
        negative, positive = names
        plot_score_histograms(is_positive, score, pos_label=True, names=names, bins=40, ax=(ax_pos, ax_neg),
                              counts=True)
        ax_pos.set_title("score ≥ threshold (black line): positive", loc="left")
        ax_pos.tick_params(labelbottom=False)
        ax_neg.set_xlabel("score")
        self.threshold_lines = [ax.axvline(0.5, color="k", lw=2) for ax in (ax_pos, ax_neg)]

        n = sweep.positives + sweep.negatives
        short = ["\n".join(textwrap.wrap(name, 12)) or name for name in (positive, negative)]
        self.cm_display = ConfusionMatrixDisplay(np.zeros((2, 2), dtype=int), display_labels=short)
        self.cm_display.plot(ax=ax_cm, colorbar=False, values_format="d", cmap="Blues",
                             im_kw={"vmin": 0, "vmax": n}, text_kw={"fontsize": 16, "fontweight": "bold"})
        ax_cm.set(title="confusion matrix", xlabel="predicted", ylabel="true")
        ax_cm.set_aspect("auto")  # cells as wide as the panel: room for the class names under them
        ax_cm.grid(False)

        fpr, tpr = sweep.fp / sweep.negatives, sweep.tp / sweep.positives
        RocCurveDisplay(fpr=fpr, tpr=tpr).plot(ax=ax_roc, plot_chance_level=True, curve_kwargs={"color": NEUTRAL_CURVE},
                                               chance_level_kw={"color": NEUTRAL})
        ax_roc.set(title=f"ROC (AUC {auc_trapezoid(fpr, tpr):.3f})", xlabel="FPR", ylabel="TPR")
        pr = pr_table(is_positive, score, pos_label=True)
        # the curve's colour is set on its line: scikit-learn 1.8 (Pyodide's, in JupyterLite) has no curve_kwargs
        # here, and 1.9 deprecates passing it as a keyword argument
        PrecisionRecallDisplay(precision=pr["precision"].to_numpy()[::-1], recall=pr["recall"].to_numpy()[::-1],
                               prevalence_pos_label=sweep.positives / n).plot(
            ax=ax_pr, plot_chance_level=True, chance_level_kw={"color": NEUTRAL}).line_.set_color(NEUTRAL_CURVE)
        ap = average_precision_by_hand(is_positive, score, pos_label=True)
        ax_pr.set(title=f"precision-recall (AP {ap:.3f})", xlabel="recall (TPR)", ylabel="precision")
        for ax in (ax_roc, ax_pr):
            ax.set_aspect("auto")
            if ax.get_legend() is not None:
                ax.get_legend().remove()
        # Three markers that never hide each other: a hollow diamond around a star around a dot.
        self.markers = {}
        for ax, kind in ((ax_roc, "roc"), (ax_pr, "pr")):
            for key, style in MARKER_STYLES.items():
                (self.markers[kind, key],) = ax.plot([], [], ls="none", **style)
        handles = [self.markers["roc", key] for key in MARKER_STYLES]
        bottom.legend(handles, [style["label"] for style in MARKER_STYLES.values()], loc="outside lower center",
                      ncols=3, frameon=False)
        # the class labels sit right of their panels (plot_score_histograms): the threshold lines, clipped to
        # the panels, never reach them
        self.class_labels = [text for ax in (ax_pos, ax_neg) for text in ax.texts]
        self.moving = [*self.threshold_lines, self.cm_display.im_,
                       *self.cm_display.text_.ravel(), *self.markers.values()]
        for artist in self.moving:
            artist.set_animated(True)  # left out of a saved background, drawn over it

    def update(self, state, threshold) -> list:
        """Move the threshold lines to ``threshold``, fill the matrix and place the markers from ``state`` (all
        blank when ``state`` is ``None``: a bad input); return :attr:`moving`."""
        if isinstance(threshold, (int, float, np.number)) and np.isfinite(threshold):
            for line in self.threshold_lines:
                line.set_xdata([threshold] * 2)
        if state is None:
            for text in self.cm_display.text_.ravel():
                text.set_text("–")
            for marker in self.markers.values():
                marker.set_data([], [])
            self.cm_display.im_.set_data(np.zeros((2, 2), dtype=int))
            return self.moving
        counts = np.array([[state["tp"], state["fn"]], [state["fp"], state["tn"]]])
        self.cm_display.im_.set_data(counts)
        half = (self.sweep.positives + self.sweep.negatives) / 2
        for (i, j), value in np.ndenumerate(counts):
            self.cm_display.text_[i, j].set(text=str(value), color="white" if value > half else "black")
        points = {"current": state, "cost_optimal": state["cost_optimal"], "youden": state["youden"]}
        for key, point in points.items():
            self.markers["roc", key].set_data([point["fpr"]], [point["tpr"]])
            self.markers["pr", key].set_data([point["tpr"]], [point["precision"]])
        return self.moving
