"""Figures the notebooks reuse. Each takes ``ax=None`` and returns the Axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from helpers.validation import check_binary_scores

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
                    xytext=(3, 0), textcoords="offset points", fontsize=10, color="0.4", va="center")
    for name, (r, p) in (points or {}).items():
        marker = ax.plot(r, p, "o", ms=8, label=name)[0]
        own_f = (1 + beta**2) * p * r / (beta**2 * p + r)  # the iso-F curve through the point
        ax.plot(recall, iso_fbeta_precision(recall, own_f, beta), "--", lw=1, color=marker.get_color())
    _ = ax.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="recall", ylabel="precision",
               title=f"iso-F curves for beta = {beta:.2f}")
    if points:
        ax.legend(loc="lower left", fontsize=10)
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
                        textcoords="offset points", fontsize=10, color="0.3")
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
    ax.legend(fontsize=10)
    return ax


# --------------------------------------------------------------------------- cross-validation (notebook 03)
SPLIT_COLOURS = {"unused": "#e8e8e8", "train": "#4c72b0", "test": "#dd8452"}
CLASS_COLOURS = ("#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd")
ROLES = ("unused", "train", "test")


def cv_split_roles(cv, X, y=None, groups=None) -> np.ndarray:
    """The role of every sample in every split of ``cv``, one row per split.

    0 = unused, 1 = training set, 2 = test set.
    """
    if not hasattr(cv, "split"):
        raise ValueError(f"cv must be a scikit-learn splitter with a split method; got {cv!r}")
    n_samples = len(X)
    if n_samples == 0:
        raise ValueError("X is empty; at least one sample is needed")
    for name, values in (("y", y), ("groups", groups)):
        if values is not None and len(values) != n_samples:
            raise ValueError(f"X and {name} have different lengths: {n_samples} and {len(values)}")
    # Splitters that ignore groups warn when given some: pass them only to those that use them.
    routing = cv.get_metadata_routing() if hasattr(cv, "get_metadata_routing") else None
    if routing is not None and not routing.consumes("split", ["groups"]):
        groups = None
    rows = []
    for i, (train, test) in enumerate(cv.split(X, y, groups)):
        row = np.zeros(n_samples, dtype=int)
        row[train] = 1
        if row[test].any():
            raise ValueError(f"split {i + 1} puts a sample in both its training and its test set")
        row[test] = 2
        rows.append(row)
    if not rows:
        raise ValueError(f"{type(cv).__name__} produced no split")
    return np.array(rows)


def _codes(values) -> tuple[np.ndarray, np.ndarray]:
    uniques, codes = np.unique(np.asarray(values), return_inverse=True)
    return uniques, codes.ravel()


def plot_cv_splits(cv, X, y=None, groups=None, ax=None, title: str | None = None, legend: bool = True):
    """Which sample lands in which set, split by split, with each sample's class (and group).

    One row per split (blue = training, orange = test, grey = unused), then a
    row with the class of each sample when ``y`` is given and a row with its
    group when ``groups`` is given. Samples stay in their original order.
    """
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Patch

    roles = cv_split_roles(cv, X, y, groups)
    n_splits, n_samples = roles.shape
    role_rgb = np.array([to_rgb(SPLIT_COLOURS[name]) for name in ROLES])
    rows, labels = [role_rgb[roles]], [f"split {i + 1}" for i in range(n_splits)]
    handles = [Patch(color=SPLIT_COLOURS[name], label=name) for name in ROLES[1:]]
    if (roles == 0).any():
        handles.append(Patch(color=SPLIT_COLOURS["unused"], label="unused"))
    if y is not None:
        classes, codes = _codes(y)
        class_rgb = np.array([to_rgb(CLASS_COLOURS[i % len(CLASS_COLOURS)]) for i in range(classes.size)])
        rows.append(class_rgb[codes][None])
        labels.append("class")
        handles += [Patch(color=CLASS_COLOURS[i % len(CLASS_COLOURS)], label=f"class {c}")
                    for i, c in enumerate(classes[:len(CLASS_COLOURS)])]
    if groups is not None:
        _, codes = _codes(groups)
        rows.append(plt.get_cmap("tab20")(codes % 20)[:, :3][None])
        labels.append("group")
    ax = ax if ax is not None else plt.subplots(figsize=(7, 0.25 * (len(labels) + 4)))[1]
    ax.imshow(np.vstack(rows), aspect="auto", interpolation="nearest")
    step = max(1, int(np.ceil(n_splits / 10)))
    ticks = list(range(0, n_splits, step)) + list(range(n_splits, len(labels)))
    ax.set_yticks(ticks, [labels[t] for t in ticks], fontsize=10)
    # White separators between samples (when few enough to count) and between rows.
    if n_samples <= 60:
        ax.vlines(np.arange(1, n_samples) - 0.5, -0.5, len(labels) - 0.5, colors="white", lw=0.6)
    ax.hlines(np.arange(1, len(labels)) - 0.5, -0.5, n_samples - 0.5, colors="white",
              lw=[3 if row == n_splits else 0.6 for row in range(1, len(labels))])
    if legend:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=10, frameon=False)
    _ = ax.set(xlabel="sample index", title=title or f"{type(cv).__name__}: {n_splits} splits")
    return ax


SCORE_NAMES = {"roc_auc": "ROC AUC", "accuracy": "accuracy", "average_precision": "average precision",
               "balanced_accuracy": "balanced accuracy", "f1": "F1", "recall": "recall", "precision": "precision"}


def plot_cv_spread(state: dict, ax=None, xlim=None):
    """The fold scores of a ``helpers.cv.cv_spread_state``: one row per repeat.

    Dots are single folds, diamonds each repeat's estimate (mean of its k folds),
    the line their mean and the band +/- one standard deviation (SD) between the
    repeats' estimates. The x-axis is named after ``state["scoring"]``.
    """
    ax = _axes(ax)
    scores, estimates = state["scores"], state["estimates"]
    repeats = np.arange(1, state["n_repeats"] + 1)
    # The band is often narrow: an outline keeps it visible however small the SD.
    from matplotlib.colors import to_rgba

    ax.axvspan(state["mean"] - state["spread"], state["mean"] + state["spread"], facecolor=to_rgba("#dd8452", 0.35),
               edgecolor="#a0522d", lw=1.5, label=f"mean +/- SD between repeats ({state['spread']:.3f})")
    ax.axvline(state["mean"], color="#dd8452", lw=2, label=f"mean estimate ({state['mean']:.3f})")
    for repeat, row in zip(repeats, scores):
        ax.plot(row, np.full(row.size, repeat), "o", color="#4c72b0", alpha=0.5, ms=4,
                label="single fold" if repeat == 1 else None)
    ax.plot(estimates, repeats, "D", color="black", ms=6, label="repeat estimate")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=10, frameon=False)
    xlabel = SCORE_NAMES.get(state.get("scoring"), str(state.get("scoring", "score")))
    _ = ax.set(xlim=xlim, yticks=repeats, ylim=(0.5, state["n_repeats"] + 0.5), xlabel=xlabel, ylabel="repeat",
               title=f"k = {state['k']}: {state['n_repeats']} repeats of {state['k']} folds")
    return ax
