"""Figures the notebooks reuse. Each takes ``ax=None`` and returns the Axes.

Each also describes what it drew in words computed from the data it plotted
(:func:`helpers.figures.describe`), so that the figure's text alternative
(:func:`helpers.figures.alt_text`, :func:`helpers.figures.show`) gives a
screen-reader user the kind of figure, what it shows and its numbers. The
``update_*`` functions, which move a slider's figure in place, replace that
description with one of the new state.
"""

from __future__ import annotations

import itertools
import sys
import warnings

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import to_rgb, to_rgba
from matplotlib.patches import Circle, Patch, Polygon, Rectangle

from helpers.curves import penalty_constrained_minimum
from helpers.figures import clear_description, describe
from helpers.style import CYCLE, NEGATIVE, NEUTRAL, POSITIVE, SPLIT_COLOURS, SYNTHETIC
from helpers.validation import check_binary_scores, check_label, check_X_y

ISO_LEVELS = (0.2, 0.4, 0.6, 0.8)
LINE_STYLES = ("-", "--", "-.", ":")  # lines of several groups differ by dash as well as by colour


def _axes(ax):
    return ax if ax is not None else plt.subplots(figsize=(5, 4.5))[1]


def _num(value, digits: int = 3) -> str:
    """A number for a sentence: ``digits`` significant digits, no trailing noise ("0.714", "1.2e-05", "120")."""
    value = float(value)
    if not np.isfinite(value):
        return "undefined"
    if 1000 <= abs(value) < 1e7 and digits <= 4:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _series(items, limit: int = 12) -> str:
    """``a, b and c`` (at most ``limit`` items, then "and N more")."""
    items = [str(item) for item in items]
    if len(items) > limit:
        items = items[:limit] + [f"{len(items) - limit} more"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


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
    ax = _axes(ax)
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
                f"both 0 to 1): grey curves where F-beta is {_series(f'{v:.1f}' for v in levels)}")
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
    fpr, tpr = rows["fpr"].to_numpy(dtype=float), rows["tpr"].to_numpy(dtype=float)
    sentence = (f"ROC path computed by hand through {len(rows)} of the table's {len(table)} thresholds, "
                f"FPR on x and TPR on y, from (FPR {_num(fpr[0])}, TPR {_num(tpr[0])}) "
                f"to (FPR {_num(fpr[-1])}, TPR {_num(tpr[-1])})")
    if len(rows) <= 12:
        sentence += ("; threshold, FPR, TPR of each point: "
                     + "; ".join(f"{t:.2f}, {_num(f)}, {_num(r)}" for t, f, r in zip(rows["threshold"], fpr, tpr)))
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


def plot_score_histograms(y_true, y_score, pos_label=1, names=("negative", "positive"),
                          bins: int = 40, ax=None, counts: bool = False):
    """The score distribution of each class on shared bins (positive class in POSITIVE, negative in NEGATIVE).

    By default both classes overlap on one Axes as densities (each of area 1),
    the legend giving each class's size. With ``counts=True`` each class gets a
    panel of its own with counts (bar heights sum to the class's size), the
    positive class first: ``ax`` is then a pair of Axes (positive, negative), or
    ``None`` for two new stacked panels, and the pair is returned.
    """
    is_positive, y_score = check_binary_scores(y_true, y_score, pos_label)
    edges = np.histogram_bin_edges(y_score, bins=bins)
    classes = ((names[1], is_positive, POSITIVE), (names[0], ~is_positive, NEGATIVE))  # positive first
    if counts:
        axes = plt.subplots(2, 1, sharex=True, figsize=(6, 4.5))[1] if ax is None else ax
        if len(axes) != 2:
            raise ValueError(f"counts=True draws one panel per class: ax must be a pair of Axes; got {len(axes)}")
    else:
        axes = [_axes(ax)] * 2
        classes = classes[::-1]  # the negative class first in the legend
    for panel, (name, mask, colour) in zip(axes, classes):
        values, _ = np.histogram(y_score[mask], bins=edges, density=not counts)
        if counts:
            panel.stairs(values, edges, fill=True, alpha=0.7, color=colour)
            panel.text(0.98, 0.92, f"{name}: {int(mask.sum())} samples", transform=panel.transAxes, ha="right",
                       va="top", color=colour, fontweight="bold")
            panel.set_ylabel("count")
            panel.grid(True, alpha=0.3)
        else:
            panel.stairs(values, edges, fill=True, alpha=0.35, color=colour, label=f"{name} (n={mask.sum()})")
    summaries = {name: (f"{name} (n={int(mask.sum())}, median score {_num(np.median(y_score[mask]))}, "
                        f"from {_num(y_score[mask].min())} to {_num(y_score[mask].max())})" if mask.any()
                        else f"{name} (n=0)") for name, mask, _ in classes}
    span = f"on {len(edges) - 1} shared bins from {_num(edges[0])} to {_num(edges[-1])}"
    if counts:
        for panel, (name, mask, _) in zip(axes, classes):
            describe(panel, f"Histogram of the scores of the {summaries[name]}, counts {span}")
        return axes
    _ = axes[0].set(xlabel="score", ylabel="density")
    axes[0].legend(fontsize=10)
    describe(axes[0], f"Overlapping score histograms as densities {span}: "
                      + " and ".join(summaries[name] for name, _, _ in classes[::-1]))
    return axes[0]


# --------------------------------------------------------------------------- cross-validation (notebook 03)
# Classes in the course's negative and positive colours (then more for more classes); test cells and
# the second class are hatched too, so that neither is told apart by colour alone (see plot_cv_splits).
CLASS_COLOURS = (NEGATIVE, POSITIVE, CYCLE[4], CYCLE[5], CYCLE[2], CYCLE[6], CYCLE[7], CYCLE[1])
CLASS_HATCHES = ("", "xxx", "...", "\\\\", "ooo", "+++", "---", "|||")
TEST_HATCH = "////"
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


def _ranges(indices) -> str:
    """Sorted sample indices as runs: ``[0, 1, 2, 7]`` -> "0-2 and 7"."""
    indices = np.sort(np.asarray(indices, dtype=int))
    if indices.size == 0:
        return "none"
    breaks = np.flatnonzero(np.diff(indices) != 1)
    starts, ends = np.r_[indices[0], indices[breaks + 1]], np.r_[indices[breaks], indices[-1]]
    return _series([f"{a}" if a == b else f"{a}-{b}" for a, b in zip(starts, ends)], limit=6)


def describe_cv_splits(roles, y=None, groups=None, name: str = "cross-validation") -> str:
    """The sentence :func:`plot_cv_splits` gives its figure: sizes, test samples, classes and groups."""
    roles = np.asarray(roles)
    n_splits, n_samples = roles.shape
    test_sizes = (roles == 2).sum(axis=1)
    train_sizes = (roles == 1).sum(axis=1)
    sizes = (f"{test_sizes[0]}" if np.all(test_sizes == test_sizes[0])
             else f"{test_sizes.min()} to {test_sizes.max()}")
    text = (f"Cross-validation splits of {name}: {n_splits} splits of {n_samples} samples, one row per split "
            f"with the samples in their original order; each split trains on "
            + (f"{train_sizes[0]}" if np.all(train_sizes == train_sizes[0])
               else f"{train_sizes.min()} to {train_sizes.max()}")
            + f" samples and tests on {sizes}")
    unused = (roles == 0).sum(axis=1)
    if unused.any():
        text += f"; {unused.max()} samples at most are left unused in a split"
    shown = min(n_splits, 5)
    text += "; test samples " + "; ".join(f"split {i + 1}: {_ranges(np.flatnonzero(roles[i] == 2))}"
                                          for i in range(shown))
    if n_splits > shown:
        text += f"; and {n_splits - shown} more splits"
    if y is not None:
        classes, codes = _codes(y)
        text += ("; the class row shows " + _series(f"class {c} ({int((codes == i).sum())} samples)"
                                                    for i, c in enumerate(classes)))
        if classes.size == 2:
            shares = [float(np.mean(codes[roles[i] == 2] == 1)) for i in range(n_splits) if (roles[i] == 2).any()]
            text += (f"; the share of class {classes[1]} in a test set goes from {min(shares):.2f} to "
                     f"{max(shares):.2f} (overall {np.mean(codes == 1):.2f})")
    if groups is not None:
        _, group_codes = _codes(groups)
        shared = sum(bool(np.intersect1d(group_codes[roles[i] == 1], group_codes[roles[i] == 2]).size)
                     for i in range(n_splits))
        text += (f"; the group row shows {np.unique(group_codes).size} groups, "
                 + ("no group is split between training and test set" if shared == 0
                    else f"in {shared} of {n_splits} splits a group has samples on both sides"))
    return text


def _codes(values) -> tuple[np.ndarray, np.ndarray]:
    uniques, codes = np.unique(np.asarray(values), return_inverse=True)
    return uniques, codes.ravel()


def plot_cv_splits(cv, X, y=None, groups=None, ax=None, title: str | None = None, legend: bool = True):
    """Which sample lands in which set, split by split, with each sample's class (and group).

    One row per split (dark grey = training, gold and hatched = test, light grey = unused), then a
    row with the class of each sample when ``y`` is given and a row with its
    group when ``groups`` is given. Samples stay in their original order.
    """
    roles = cv_split_roles(cv, X, y, groups)
    n_splits, n_samples = roles.shape
    role_rgb = np.array([to_rgb(SPLIT_COLOURS[name]) for name in ROLES])
    rows, labels = [role_rgb[roles]], [f"split {i + 1}" for i in range(n_splits)]
    handles = [Patch(facecolor=SPLIT_COLOURS["train"], label="train"),
               Patch(facecolor=SPLIT_COLOURS["test"], hatch=TEST_HATCH, edgecolor="white", label="test")]
    if (roles == 0).any():
        handles.append(Patch(facecolor=SPLIT_COLOURS["unused"], label="unused"))
    if y is not None:
        classes, codes = _codes(y)
        class_rgb = np.array([to_rgb(CLASS_COLOURS[i % len(CLASS_COLOURS)]) for i in range(classes.size)])
        rows.append(class_rgb[codes][None])
        labels.append("class")
        handles += [Patch(facecolor=CLASS_COLOURS[i], hatch=CLASS_HATCHES[i], edgecolor="white", label=f"class {c}")
                    for i, c in enumerate(classes[:len(CLASS_COLOURS)])]
    if groups is not None:
        _, group_codes = _codes(groups)
        rows.append(plt.get_cmap("tab20")(group_codes % 20)[:, :3][None])
        labels.append("group")
    ax = ax if ax is not None else plt.subplots(figsize=(7, 0.25 * (len(labels) + 4)))[1]
    ax.imshow(np.vstack(rows), aspect="auto", interpolation="nearest")
    ax.grid(False)
    # Hatches: test cells, and every class but the first, differ by pattern as well as by colour.
    # One rectangle per run of neighbouring cells with the same pattern: few patches, quicker to draw.
    patterns = [np.where(row == 2, 1, 0) for row in roles]
    if y is not None:
        patterns.append(codes % len(CLASS_HATCHES) + 1)
    hatch_of = [lambda v: TEST_HATCH if v else ""] * n_splits + [lambda v: CLASS_HATCHES[v - 1]]
    runs: dict[str, list] = {}
    for row, (values, hatch) in enumerate(zip(patterns, hatch_of)):
        starts = np.flatnonzero(np.r_[True, np.diff(values) != 0])
        for start, end in zip(starts, np.r_[starts[1:], values.size]):
            if hatch(values[start]):
                runs.setdefault(hatch(values[start]), []).append(Rectangle((start - 0.5, row - 0.5), end - start, 1))
    for hatch, rectangles in runs.items():
        ax.add_collection(PatchCollection(rectangles, facecolor="none", edgecolor="white", linewidth=0, hatch=hatch,
                                          gid=f"hatch {hatch}"))
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
    describe(ax, describe_cv_splits(roles, y, groups, type(cv).__name__))
    return ax


SCORE_NAMES = {"roc_auc": "ROC AUC", "accuracy": "accuracy", "average_precision": "average precision",
               "balanced_accuracy": "balanced accuracy", "f1": "F1", "recall": "recall", "precision": "precision"}


def plot_cv_spread(state: dict, ax=None, xlim=None):
    """The fold scores of a ``helpers.cv.cv_spread_state``: one row per repeat.

    Dots are single folds, diamonds each repeat's estimate (mean of its k folds),
    the line their mean and the band +/- one standard deviation (SD) between
    the repeats' estimates. The x-axis is named after ``state["scoring"]``;
    without ``xlim`` it fits the scores. :func:`update_cv_spread` moves the
    figure to another state in place.
    """
    ax = _axes(ax)
    # The band is often narrow: an outline keeps it visible however small the SD.
    ax.axvspan(0, 1, facecolor=to_rgba(CYCLE[1], 0.3), edgecolor=CYCLE[1], lw=1.5, gid="band",
               label="mean +/- SD between repeats")
    ax.axvline(0, color=CYCLE[1], lw=2, gid="mean", label="mean estimate")
    ax.plot([], [], "o", color=CYCLE[0], alpha=0.5, ms=4, gid="folds", label="single fold")
    ax.plot([], [], "D", color="black", ms=6, gid="estimates", label="repeat estimate")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=10, frameon=False)
    xlabel = SCORE_NAMES.get(state.get("scoring"), str(state.get("scoring", "score")))
    _ = ax.set(xlabel=xlabel, ylabel="repeat")
    if xlim is not None:
        ax.set_xlim(xlim)  # and no autoscaling: the same axis for every state
    update_cv_spread(state, ax)
    return ax


def update_cv_spread(state: dict, ax) -> list:
    """Move a :func:`plot_cv_spread` figure to another ``cv_spread_state`` (same scoring), in place.

    Returns every artist that changed, in drawing order: the y-axis (one row per
    repeat), the x-axis too when it fits the scores, the band, the mean line, the
    dots (a line per repeat, added when a state has more repeats than any before),
    the diamonds, the legend and the title.
    """
    artist = {a.get_gid(): a for a in ax.get_children() if a.get_gid()}
    scores, estimates = np.asarray(state["scores"]), np.asarray(state["estimates"])
    repeats = np.arange(1, state["n_repeats"] + 1)
    low, high = state["mean"] - state["spread"], state["mean"] + state["spread"]
    artist["band"].set_bounds(low, 0, high - low, 1)
    artist["mean"].set_xdata([state["mean"], state["mean"]])
    folds = [line for line in ax.lines if line.get_gid() == "folds"]  # one per repeat, the first in the legend
    while len(folds) < scores.shape[0]:
        folds += ax.plot([], [], "o", color=CYCLE[0], alpha=0.5, ms=4, gid="folds")
    for row, line in enumerate(folds):
        if row < len(scores):
            line.set_data(scores[row], np.full(scores[row].size, row + 1))
        else:  # a row left by a state with more repeats
            line.set_data([], [])
    artist["estimates"].set_data(estimates, repeats)
    legend = ax.get_legend()
    for text in legend.get_texts():
        if text.get_text().startswith("mean +/- SD"):
            text.set_text(f"mean +/- SD between repeats ({state['spread']:.3f})")
        elif text.get_text().startswith("mean estimate"):
            text.set_text(f"mean estimate ({state['mean']:.3f})")
    axes = [ax.yaxis]
    if ax.get_autoscalex_on():  # no xlim given: the x-axis fits the scores
        ax.relim()
        ax.autoscale_view(scaley=False)
        axes.append(ax.xaxis)
    ax.set(yticks=repeats, ylim=(0.5, state["n_repeats"] + 0.5),
           title=f"k = {state['k']}: {state['n_repeats']} repeats of {state['k']} folds")
    clear_description(ax)
    describe(ax, f"Dot plot of {_xlabel(ax)} fold scores, {state['n_repeats']} repeats of {state['k']}-fold "
                 f"cross-validation, one row per repeat: single folds from {_num(scores.min())} to "
                 f"{_num(scores.max())}, repeat estimates (diamonds) from {_num(estimates.min())} to "
                 f"{_num(estimates.max())}; the vertical line is their mean {state['mean']:.3f} and the band "
                 f"+/- one SD between repeats, {state['spread']:.3f}")
    return [*axes, artist["band"], artist["mean"], *folds, artist["estimates"], legend, ax.title]


def _xlabel(ax) -> str:
    return ax.get_xlabel() or "the"


# ---- learning curves (notebook 05) ------------------------------------------------------------
# Bias-variance pictures, the complexity slider's figure, error curves, coefficient paths and the
# L1/L2 geometry. The numbers come from helpers.curves; these functions only draw.
def plot_fitted_models(result, n_show: int = 20, ax=None, title: str | None = None, show_mean: bool = True):
    """The first ``n_show`` models of a ``helpers.curves.BiasVariance``, the true function and their mean."""
    if isinstance(n_show, bool) or not isinstance(n_show, (int, np.integer)) or not 1 <= n_show <= result.n_sets:
        raise ValueError(f"n_show must be an integer between 1 and the {result.n_sets} training sets; got {n_show!r}")
    ax = _axes(ax)
    order = np.argsort(result.x_test)
    x = result.x_test[order]
    for s in range(n_show):
        ax.plot(x, result.predictions[s, order], color="C0", alpha=0.35, lw=1,
                label=f"{n_show} fitted models" if s == 0 else None)
    if show_mean:
        ax.plot(x, result.mean_prediction[order], color="C1", lw=2.5,
                label=f"mean of {result.n_sets} models")
    ax.plot(x, result.f_test[order], "--", color="black", lw=2, label="true f(x)")
    ax.axhline(0, color=NEUTRAL, lw=0.5)
    ax.legend(loc="lower left", fontsize=10)
    _ = ax.set(xlabel="x", ylabel="y", title=title)
    shown = result.predictions[:n_show]
    sentence = (f"{n_show} of {result.n_sets} fitted models drawn as thin lines over x from {_num(x.min())} to "
                f"{_num(x.max())}, with the true f(x) dashed: at one x the shown models differ by up to "
                f"{_num(np.ptp(shown, axis=0).max())}")
    if show_mean:
        sentence += (f"; the thick line is the mean of the {result.n_sets} models, at most "
                     f"{_num(np.abs(result.mean_prediction - result.f_test).max())} from f(x)")
    describe(ax, sentence)
    return ax


def plot_bias_variance_by_x(result, ax=None, title: str | None = None):
    """Noise, bias^2 and variance stacked along x, with the measured squared error as dots."""
    ax = _axes(ax)
    order = np.argsort(result.x_test)
    x = result.x_test[order]
    ax.stackplot(x, result.noise[order], result.bias2[order], result.variance[order],
                 labels=["noise sigma^2", "bias^2", "variance"], colors=[NEUTRAL, "C3", "C0"], alpha=0.6)
    ax.plot(x, result.error[order], "o", color="black", ms=4, label="measured error")
    ax.legend(loc="upper center", fontsize=10)  # the errors are largest at the ends of [0, 1]
    _ = ax.set(xlabel="x", ylabel="squared error", title=title)
    worst = int(np.argmax(result.error))
    describe(ax, f"Stacked areas along x from {_num(x.min())} to {_num(x.max())}: noise sigma^2 "
                 f"{_num(result.noise.mean())}, then bias^2 (mean {_num(result.bias2.mean())}), then variance "
                 f"(mean {_num(result.variance.mean())}); the dots are the measured squared error, mean "
                 f"{_num(result.error.mean())}, largest ({_num(result.error[worst])}) at x = "
                 f"{_num(result.x_test[worst])}")
    return ax


def plot_complexity(state: dict, axes=None, noise: float | None = None):
    """A ``helpers.curves.complexity_state``: the fitted curve over the data, and both errors by degree.

    ``axes`` is a pair (fit, errors); ``noise`` (sigma^2), when known, is drawn as the
    floor no model can beat on average.
    """
    if axes is None:
        axes = plt.subplots(1, 2, figsize=(10, 4))[1]
    ax_fit, ax_err = axes
    ax_fit.plot(state["x_train"], state["y_train"], "o", color="C0", ms=5, label="training")
    ax_fit.plot(state["x_val"], state["y_val"], ".", color="C1", ms=4, alpha=0.5, label="validation")
    ax_fit.plot(state["grid"], state["curve"], color="black", lw=2, label="fitted polynomial", gid="fit")
    y_all = np.concatenate([state["y_train"], state["y_val"]])
    margin = 0.25 * np.ptp(y_all)
    ax_fit.legend(loc="lower left", fontsize=10)
    _ = ax_fit.set(xlabel="x", ylabel="y", ylim=(y_all.min() - margin, y_all.max() + margin),
                   title=f"degree {state['degree']}: {state['verdict']}")
    ax_err.plot(state["degrees"], state["train_curve"], "o-", color="C0", label="training MSE")
    ax_err.plot(state["degrees"], state["val_curve"], "o-", color="C1", label="validation MSE")
    ax_err.axvline(state["degree"], color="black", lw=1.5, gid="current")
    ax_err.plot(state["best_degree"], state["best_val_mse"], "*", color="C3", ms=16, label="best degree")
    if noise is not None:
        ax_err.axhline(noise, ls="--", color=NEUTRAL, label="noise sigma^2")
    ax_err.legend(loc="upper right", fontsize=10)
    _ = ax_err.set(xlabel="polynomial degree", ylabel="mean squared error", yscale="log",
                   xticks=state["degrees"][:: max(1, len(state["degrees"]) // 8)], title="error against complexity")
    _describe_complexity(state, axes, noise)
    return axes


def _describe_complexity(state: dict, axes, noise=None) -> None:
    ax_fit, ax_err = axes
    for ax in axes:
        clear_description(ax)
    describe(ax_fit, f"Left panel: a polynomial of degree {state['degree']} (black curve) fitted to "
                     f"{len(state['x_train'])} training points (dots), {len(state['x_val'])} validation points "
                     f"lighter; it {state['verdict'] if state['verdict'] != 'best' else 'is the best degree'}")
    degrees, train, val = state["degrees"], np.asarray(state["train_curve"]), np.asarray(state["val_curve"])
    sentence = (f"Right panel: training and validation mean squared error (log scale) against the degree from "
                f"{degrees[0]} to {degrees[-1]}: training error falls from {_num(train[0])} to {_num(train[-1])}, "
                f"validation error is lowest, {_num(state['best_val_mse'])}, at degree {state['best_degree']} "
                f"(the star) and is {_num(val[-1])} at degree {degrees[-1]}; the vertical line marks degree "
                f"{state['degree']} (training {_num(state['train_mse'])}, validation {_num(state['val_mse'])})")
    if noise is not None:
        sentence += f"; the dashed line is the noise floor sigma^2 = {_num(noise)}"
    describe(ax_err, sentence)
    ax_err._course_noise = noise  # noqa: SLF001 (update_complexity describes with the same floor)


def update_complexity(state: dict, axes) -> list:
    """Move a :func:`plot_complexity` figure to another degree of the same data, in place.

    Only the fitted curve, the vertical line at the current degree and the left
    title change; they are returned so that a caller can redraw just them.
    """
    ax_fit, ax_err = axes
    fit = next(line for line in ax_fit.lines if line.get_gid() == "fit")
    current = next(line for line in ax_err.lines if line.get_gid() == "current")
    fit.set_data(state["grid"], state["curve"])
    current.set_xdata([state["degree"], state["degree"]])
    ax_fit.title.set_text(f"degree {state['degree']}: {state['verdict']}")
    _describe_complexity(state, axes, getattr(ax_err, "_course_noise", None))
    return [fit, current, ax_fit.title]


def plot_error_curves(sizes, train_errors, val_errors, ax=None, label: str = "", color="C0", log_x: bool = True,
                      marker: str = "o"):
    """A learning curve drawn by hand: mean training and validation error with +/- one std over folds.

    ``train_errors`` and ``val_errors`` have one row per size and one column per fold
    (``learning_curve``'s arrays, as positive errors). Solid = validation, dashed = training.
    """
    sizes = np.asarray(sizes)
    train_errors, val_errors = np.asarray(train_errors, dtype=float), np.asarray(val_errors, dtype=float)
    if train_errors.shape != val_errors.shape or train_errors.ndim != 2 or train_errors.shape[0] != sizes.size:
        raise ValueError(f"train_errors and val_errors must both have shape (len(sizes), n_folds) = "
                         f"({sizes.size}, k); got {train_errors.shape} and {val_errors.shape}")
    ax = _axes(ax)
    prefix = f"{label}: " if label else ""
    for errors, style, name in ((val_errors, "-", "validation"), (train_errors, "--", "training")):
        mean, std = errors.mean(axis=1), errors.std(axis=1)
        ax.plot(sizes, mean, style, marker=marker, color=color, label=f"{prefix}{name}")
        ax.fill_between(sizes, mean - std, mean + std, color=color, alpha=0.15)
    ax.legend(fontsize=10)
    _ = ax.set(xlabel="training-set size", ylabel="error", xscale="log" if log_x else "linear")
    val, train = val_errors.mean(axis=1), train_errors.mean(axis=1)
    describe(ax, f"Learning curve{' of ' + label if label else ''}: mean error over {train_errors.shape[1]} folds "
                 f"against the training-set size from {_num(sizes[0])} to {_num(sizes[-1])}"
                 f"{' (log scale)' if log_x else ''}, band +/- one SD: validation error (solid) goes from "
                 f"{_num(val[0])} to {_num(val[-1])}, training error (dashed) from {_num(train[0])} to "
                 f"{_num(train[-1])}; the gap at the largest size is {_num(val[-1] - train[-1])}")
    return ax


def plot_coefficient_paths(alphas, coefs, ax=None, title: str | None = None, highlight=None):
    """Each coefficient against the penalty strength ``alpha`` (log scale); ``coefs`` is (n_alphas, n_features).

    ``highlight`` lists the features drawn in colour (for example the truly useful ones);
    the others are grey.
    """
    alphas, coefs = np.asarray(alphas, dtype=float), np.asarray(coefs, dtype=float)
    if coefs.ndim != 2 or coefs.shape[0] != alphas.size:
        raise ValueError(f"coefs must have shape (len(alphas), n_features) = ({alphas.size}, p); got {coefs.shape}")
    highlight = set(range(coefs.shape[1])) if highlight is None else set(highlight)
    ax = _axes(ax)
    for j in range(coefs.shape[1]):
        coloured = j in highlight
        ax.plot(alphas, coefs[:, j], color=f"C{j % 8}" if coloured else NEUTRAL, lw=2 if coloured else 1,
                alpha=1 if coloured else 0.6)
    ax.axhline(0, color="black", lw=0.8)
    _ = ax.set(xscale="log", xlabel="alpha (penalty strength)", ylabel="coefficient", title=title)
    order = np.argsort(alphas)
    weak, strong = coefs[order[0]], coefs[order[-1]]
    zero = np.abs(strong) < 1e-10
    n_highlight = len(highlight & set(range(coefs.shape[1])))
    describe(ax, f"Coefficient paths{' (' + title + ')' if title else ''}: {coefs.shape[1]} coefficients against "
                 f"alpha from {_num(alphas.min())} to {_num(alphas.max())} (log scale), "
                 + (f"{n_highlight} in colour and the others grey; " if n_highlight < coefs.shape[1] else "")
                 + f"at the weakest penalty they range from {_num(weak.min())} to {_num(weak.max())}, "
                 f"at the strongest from {_num(strong.min())} to {_num(strong.max())} with {int(zero.sum())} of "
                 f"{coefs.shape[1]} exactly zero")
    return ax


def plot_penalty_geometry(A, w_hat, radius: float, axes=None):
    """Why L1 gives zeros and L2 does not: loss contours meeting the diamond and the disc.

    Left L1, right L2: the shaded ball holds the coefficients the penalty allows,
    the ellipses are levels of the loss around the unpenalised minimum ``w_hat``
    (the cross) and the dot is the penalised solution, where the smallest
    ellipse touches the ball (``helpers.curves.penalty_constrained_minimum``).
    """
    A, w_hat = np.asarray(A, dtype=float), np.asarray(w_hat, dtype=float)
    if axes is None:
        axes = plt.subplots(1, 2, figsize=(9, 4.5))[1]
    span = max(np.abs(w_hat).max(), radius) * 1.5
    grid = np.linspace(-span, span, 300)
    w1, w2 = np.meshgrid(grid, grid)
    d1, d2 = w1 - w_hat[0], w2 - w_hat[1]
    loss = A[0, 0] * d1**2 + 2 * A[0, 1] * d1 * d2 + A[1, 1] * d2**2
    for ax, norm in zip(axes, (1, 2)):
        solution = penalty_constrained_minimum(A, w_hat, radius, norm)
        d = solution - w_hat
        level = float(d @ A @ d)
        ball = (Polygon(radius * np.array([[1, 0], [0, 1], [-1, 0], [0, -1]]), closed=True) if norm == 1
                else Circle((0, 0), radius))
        ball.set(facecolor="C0", alpha=0.3, edgecolor="C0", lw=2)
        ax.add_patch(ball)
        ax.contour(w1, w2, loss, levels=level * np.array([0.25, 1, 2.25, 4]), colors="C1", linewidths=1)
        ax.plot(*w_hat, "x", color="C1", ms=10, mew=2, label="least squares")
        ax.plot(*solution, "o", color="C3", ms=9, label=f"penalised ({solution[0]:.2f}, {solution[1]:.2f})")
        ax.axhline(0, color="black", lw=0.6)
        ax.axvline(0, color="black", lw=0.6)
        ax.legend(loc="lower left", fontsize=10)
        _ = ax.set(xlim=(-span, span), ylim=(-span, span), aspect="equal", xlabel="w1", ylabel="w2",
                   title="L1: |w1| + |w2| <= t" if norm == 1 else "L2: w1^2 + w2^2 <= t^2")
        zeros = int(np.sum(np.isclose(solution, 0, atol=1e-6 * radius)))
        describe(ax, f"{'L1' if norm == 1 else 'L2'} panel: the shaded {'diamond' if norm == 1 else 'disc'} of "
                     f"radius {_num(radius)} holds the allowed coefficients (w1, w2); the loss ellipses centre on the "
                     f"least-squares minimum (cross) at ({_num(w_hat[0])}, {_num(w_hat[1])}); the penalised "
                     f"solution (dot) where the smallest ellipse touches it is ({solution[0]:.2f}, "
                     f"{solution[1]:.2f}), with {zeros} coefficient{'s' if zeros != 1 else ''} exactly zero")
    return axes


# ---- hyperparameter search (notebook 06)
def optuna_plot(plot_function, study, **kwargs):
    """Call one of ``optuna.visualization.matplotlib``'s plot functions and return its Axes.

    Two things are scoped to this one call: Optuna's matplotlib plots set the
    global ``ggplot`` style, which ``rc_context`` keeps from leaking into the
    course's later figures; and they are marked experimental, so each call emits
    Optuna's ``ExperimentalWarning``, a notice that the plotting interface may
    change, not a problem in our code. Only that category is ignored, only here.
    """
    # optuna is loaded by whoever passes one of its plot functions; importing it here would add
    # about half a second to every notebook that draws anything
    experimental = sys.modules["optuna"].exceptions.ExperimentalWarning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", experimental)  # Optuna's experimental-API notice
        with mpl.rc_context():
            ax = plot_function(study, **kwargs)
    first = ax.flat[0] if isinstance(ax, np.ndarray) else ax
    first.figure.set_layout_engine("constrained")  # as the course's other figures (some of Optuna's use "tight")
    describe(first, _describe_study(plot_function, study))
    return ax


def _describe_study(plot_function, study) -> str:
    """What an Optuna plot is about: the plot, the study's trials and its best trial."""
    name = getattr(plot_function, "__name__", "plot").removeprefix("plot_").replace("_", " ")
    trials = [t for t in study.trials if t.state.name == "COMPLETE"]
    text = f"Optuna's {name} plot of a study with {len(trials)} complete trials"
    if trials and len(study.directions) == 1:
        best = study.best_trial
        params = ", ".join(f"{key} = {_num(value) if isinstance(value, (int, float)) else value}"
                           for key, value in best.params.items())
        text += (f"; the best value, {_num(best.value, 4)} ({study.direction.name.lower()}), came at trial "
                 f"{best.number}" + (f" with {params}" if params else ""))
    return text


def plot_search_heatmap(cv_results, rows: str, columns: str, score: str = "mean_test_score", ax=None,
                        fmt: str = "{:.3f}"):
    """Heat map of one score of a 2-D grid search's ``cv_results_``: ``rows`` x ``columns`` parameters.

    ``rows`` and ``columns`` are parameter names as in ``cv_results_`` without
    the ``param_`` prefix; every cell is annotated with its value.
    """
    table = pd.DataFrame(cv_results)
    for name in (f"param_{rows}", f"param_{columns}", score):
        if name not in table:
            raise ValueError(f"cv_results has no column {name!r}")
    grid = table.pivot_table(index=f"param_{rows}", columns=f"param_{columns}", values=score, aggfunc="mean")
    ax = _axes(ax)
    image = ax.imshow(grid.to_numpy(dtype=float), cmap="Blues", aspect="auto")
    middle = np.nanmean(grid.to_numpy(dtype=float))
    for (i, j), value in np.ndenumerate(grid.to_numpy(dtype=float)):
        ax.text(j, i, fmt.format(value), ha="center", va="center", fontsize=10,
                color="white" if value > middle else "black")
    ax.set_xticks(range(grid.shape[1]), [f"{v:g}" for v in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [f"{v:g}" for v in grid.index])
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label=score)
    _ = ax.set(xlabel=columns, ylabel=rows, title=score)
    values = grid.to_numpy(dtype=float)
    best, worst = np.unravel_index(np.nanargmax(values), values.shape), np.unravel_index(np.nanargmin(values),
                                                                                       values.shape)
    describe(ax, f"Heat map of {score} over a {grid.shape[0]} by {grid.shape[1]} grid, {rows} in rows "
                 f"({_series(f'{v:g}' for v in grid.index)}) and {columns} in columns "
                 f"({_series(f'{v:g}' for v in grid.columns)}), darker is higher, each cell labelled: highest "
                 f"{fmt.format(values[best])} at {rows} = {grid.index[best[0]]:g}, {columns} = "
                 f"{grid.columns[best[1]]:g}; lowest {fmt.format(values[worst])} at {rows} = "
                 f"{grid.index[worst[0]]:g}, {columns} = {grid.columns[worst[1]]:g}")
    return ax


def plot_best_so_far(comparison, ax=None, log_y: bool = False):
    """Best value so far, trial by trial, of a ``helpers.search.sampler_comparison`` table.

    One line per sampler: the median over seeds, with a band from the best to
    the worst seed.
    """
    ax = _axes(ax)
    for (name, runs), dashes in zip(comparison.groupby("sampler", sort=False), itertools.cycle(LINE_STYLES)):
        curves = runs.pivot(index="trial", columns="seed", values="best_so_far")
        line = ax.plot(curves.index, curves.median(axis=1), ls=dashes, label=f"{name} (median)")[0]
        ax.fill_between(curves.index, curves.min(axis=1), curves.max(axis=1), color=line.get_color(), alpha=0.15)
    if log_y:
        ax.set_yscale("log")
    ax.legend(fontsize=10)
    _ = ax.set(xlabel="trial", ylabel="best value so far",
               title=f"{comparison['seed'].nunique()} seeds: median and range")
    finals = []
    for name, runs in comparison.groupby("sampler", sort=False):
        last = runs[runs["trial"] == runs["trial"].max()]["best_so_far"]
        finals.append(f"{name} ends at median {_num(last.median())} (seeds from {_num(last.min())} to "
                      f"{_num(last.max())})")
    describe(ax, f"Best value so far against the trial number (1 to {comparison['trial'].max()})"
                 f"{', log scale' if log_y else ''}, one line per sampler, each in its own colour and dash (median over "
                 f"{comparison['seed'].nunique()} seeds, band from best to worst seed): " + "; ".join(finals))
    return ax


def plot_optimism(simulation, ax=None):
    """``helpers.search.optimism_simulation``: best_score_, nested CV and truth, one column per seed."""
    ax = _axes(ax)
    x = np.arange(len(simulation))
    for offset, column, marker, label in ((-0.15, "best_score", "v", "best_score_ (inner CV)"),
                                          (0.0, "nested", "o", "nested CV estimate"),
                                          (0.15, "truth", "D", "truth (rows never seen)")):
        ax.plot(x + offset, simulation[column], marker, ms=8, label=label)
    for i, row in enumerate(simulation.itertuples()):
        ax.plot([i - 0.15, i + 0.15], [row.best_score, row.truth], color=NEUTRAL, lw=1, zorder=0)
    ax.set_xticks(x, [str(seed) for seed in simulation["seed"]])
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, frameon=False)
    _ = ax.set(xlabel="seed (which small sample)", ylabel="score", title="The best score of a search is optimistic")
    gap = simulation["best_score"].to_numpy(dtype=float) - simulation["truth"].to_numpy(dtype=float)
    describe(ax, f"For each of {len(simulation)} seeds three markers: the search's best_score_ (triangle), the "
                 f"nested CV estimate (circle) and the truth on rows never seen (diamond): best_score_ is above the "
                 f"truth in {int((gap > 0).sum())} of {len(simulation)} seeds, by {_num(gap.mean())} on average; "
                 f"the nested estimate is {_num(np.mean(simulation['nested'] - simulation['truth']))} from the "
                 f"truth on average")
    return ax


# ---- oversampling (notebook 04)
def _two_classes(X, y, minority_label):
    X, y = check_X_y(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"these figures draw two features; X has {X.shape[1]}")
    check_label(y, minority_label)
    return X, y == minority_label


MAJORITY_MARKER, MINORITY_MARKER, SYNTHETIC_MARKER = "o", "^", "D"  # classes differ by shape, not colour alone


def plot_classes(X, y, minority_label=1, ax=None, names=("majority", "minority"), alpha: float = 0.6):
    """A 2-D scatter of both classes: majority as NEGATIVE dots, minority as POSITIVE triangles."""
    ax = _scatter_classes(X, y, minority_label, ax, names, alpha)
    X, is_minority = _two_classes(X, y, minority_label)
    describe(ax, f"Scatter plot of two features: {_class_counts(is_minority, names)}")
    return ax


def _class_counts(is_minority, names=("majority", "minority")) -> str:
    return (f"{int((~is_minority).sum())} {names[0]} samples (blue dots) and {int(is_minority.sum())} {names[1]} "
            f"samples (red triangles)")


def _scatter_classes(X, y, minority_label=1, ax=None, names=("majority", "minority"), alpha: float = 0.6):
    X, is_minority = _two_classes(X, y, minority_label)
    ax = _axes(ax)
    ax.scatter(*X[~is_minority].T, s=18, marker=MAJORITY_MARKER, color=NEGATIVE, alpha=alpha,
               label=f"{names[0]} ({(~is_minority).sum()})")
    ax.scatter(*X[is_minority].T, s=46, marker=MINORITY_MARKER, color=POSITIVE, edgecolor="white", linewidth=0.6,
               label=f"{names[1]} ({is_minority.sum()})")
    return ax


def plot_smote(X, y, X_new, base, neighbour, minority_label=1, ax=None, segments: bool = True,
               legend: bool = True, title: str | None = None):
    """Original points, SMOTE's synthetic points and the segments they lie on.

    ``base`` and ``neighbour`` index the minority samples (in the order they
    appear in ``y``), as returned by ``helpers.resampling.smote_by_hand``.
    """
    X, is_minority = _two_classes(X, y, minority_label)
    X_new = np.asarray(X_new, dtype=float).reshape(-1, 2)
    base, neighbour = np.asarray(base, dtype=int), np.asarray(neighbour, dtype=int)
    if not len(X_new) == len(base) == len(neighbour):
        raise ValueError(f"X_new, base and neighbour have different lengths: "
                         f"{len(X_new)}, {len(base)} and {len(neighbour)}")
    ax = _scatter_classes(X, y, minority_label, ax=ax)
    if segments and len(base):
        ax.add_collection(LineCollection(_segments(X[is_minority], base, neighbour), colors=NEUTRAL, linewidths=1,
                                         zorder=0, label="segment base-neighbour", gid="segments"))
    ax.scatter(*X_new.T, s=22, marker=SYNTHETIC_MARKER, color=SYNTHETIC, edgecolor="black", linewidth=0.3,
               label=f"synthetic ({len(X_new)})", gid="synthetic")
    if legend:
        ax.legend(loc="lower left", fontsize=10, framealpha=0.85)
    _ = ax.set(xlabel="feature 1", ylabel="feature 2", title=title or "SMOTE: synthetic points on segments")
    _describe_smote(ax, is_minority, base, neighbour, segments)
    return ax


def _describe_smote(ax, is_minority, base, neighbour, segments: bool) -> None:
    clear_description(ax)
    pairs = len(np.unique(np.column_stack([base, neighbour]), axis=0)) if len(base) else 0
    describe(ax, f"SMOTE scatter plot of two features: {_class_counts(is_minority)}, and {len(base)} synthetic "
                 f"samples (gold diamonds) made from {len(np.unique(base))} minority base points"
                 + (f", each on one of the {pairs} grey segments from a base point to a minority neighbour"
                    if segments and len(base) else ""))


def _segments(X_minority, base, neighbour) -> np.ndarray:
    """Each distinct (base, neighbour) pair once, as a segment between the two minority samples."""
    pairs = np.unique(np.column_stack([base, neighbour]), axis=0).reshape(-1, 2)
    return np.stack([X_minority[pairs[:, 0]], X_minority[pairs[:, 1]]], axis=1)


def update_smote(X_minority, X_new, base, neighbour, ax, title: str | None = None) -> list:
    """Move a :func:`plot_smote` figure (same original points, segments drawn) to other synthetic points.

    ``X_minority`` holds the minority samples that ``base`` and ``neighbour``
    index. The axes' limits stay: synthetic points lie between minority samples.
    Returns every point collection in drawing order (the segments lie under the
    points), the legend and the title, so that a caller can redraw just them.
    """
    X_new = np.asarray(X_new, dtype=float).reshape(-1, 2)
    collections = {c.get_gid(): c for c in ax.collections}
    collections["segments"].set_segments(_segments(np.asarray(X_minority, dtype=float), np.asarray(base, dtype=int),
                                                   np.asarray(neighbour, dtype=int)))
    collections["synthetic"].set_offsets(X_new)
    n_minority = len(np.asarray(X_minority))
    n_majority = sum(len(c.get_offsets()) for c in ax.collections if c.get_label().startswith("majority"))
    _describe_smote(ax, np.r_[np.zeros(n_majority, bool), np.ones(n_minority, bool)], np.asarray(base, dtype=int),
                    np.asarray(neighbour, dtype=int), True)
    collections["synthetic"].set_label(f"synthetic ({len(X_new)})")
    legend = ax.get_legend()
    for text in legend.get_texts() if legend else ():
        if text.get_text().startswith("synthetic ("):
            text.set_text(f"synthetic ({len(X_new)})")
    if title is not None:
        ax.set_title(title)
    return [*sorted(ax.collections, key=lambda c: c.get_zorder()), *([legend] if legend else []), ax.title]


def plot_borderline(X, y, categories, minority_label=1, ax=None):
    """Borderline-SMOTE's view: each minority point marked safe, danger or noise."""
    X, is_minority = _two_classes(X, y, minority_label)
    categories = np.asarray(categories, dtype=object)
    if categories.shape != (is_minority.sum(),):
        raise ValueError(f"categories needs one entry per minority sample ({is_minority.sum()}); "
                         f"got shape {categories.shape}")
    ax = _axes(ax)
    ax.scatter(*X[~is_minority].T, s=18, color=NEGATIVE, alpha=0.4, label=f"majority ({(~is_minority).sum()})")
    X_minority = X[is_minority]
    styles = {"safe": dict(marker="o", facecolor=POSITIVE, edgecolor="white"),
              "danger": dict(marker="s", facecolor="none", edgecolor=POSITIVE, linewidth=2),
              "noise": dict(marker="X", facecolor="black", edgecolor="black")}
    for name, style in styles.items():
        mask = categories == name
        ax.scatter(*X_minority[mask].T, s=60, label=f"minority, {name} ({mask.sum()})", **style)
    ax.legend(loc="lower left", fontsize=10, framealpha=0.85)
    _ = ax.set(xlabel="feature 1", ylabel="feature 2", title="Borderline-SMOTE's categories")
    counts = {name: int((categories == name).sum()) for name in styles}
    describe(ax, f"Borderline-SMOTE scatter plot of two features: {int((~is_minority).sum())} majority samples "
                 f"(blue dots) and {int(is_minority.sum())} minority samples marked by category: {counts['safe']} "
                 f"safe (filled red circles), {counts['danger']} danger (hollow red squares) and {counts['noise']} "
                 f"noise (black crosses)")
    return ax


def plot_tomek_links(X, y, links, minority_label=1, ax=None):
    """Both classes with each Tomek link drawn as a black segment between its two points."""
    X, _ = _two_classes(X, y, minority_label)
    links = np.asarray(links, dtype=int).reshape(-1, 2)
    ax = _scatter_classes(X, y, minority_label, ax=ax)
    if len(links):
        ax.add_collection(LineCollection(np.stack([X[links[:, 0]], X[links[:, 1]]], axis=1), colors="black",
                                         linewidths=2.5, label=f"Tomek link ({len(links)})"))
    ax.legend(loc="lower left", fontsize=10, framealpha=0.85)
    _ = ax.set(xlabel="feature 1", ylabel="feature 2", title="Tomek links")
    describe(ax, f"Scatter plot of two features with Tomek links: {_class_counts(_two_classes(X, y, minority_label)[1])};"
                 f" {len(links)} black segments join the pairs of opposite classes that are each other's nearest "
                 f"neighbour")
    return ax


def plot_sampler_scores(table, metric: str, ax=None):
    """Mean +/- spread of one metric per sampler, without and with class weights.

    ``table`` has a (sampler, class weights) row index and columns
    ``(metric, "mean")`` and ``(metric, "std")``, as the notebook's comparison builds it.
    """
    ax = _axes(ax)
    samplers = list(dict.fromkeys(table.index.get_level_values(0)))
    weights = list(dict.fromkeys(table.index.get_level_values(1)))
    positions = np.arange(len(samplers))
    colours = (NEUTRAL, CYCLE[4])  # not the classes' colours: these are two model variants
    for offset, marker, (weight, colour) in zip((-0.15, 0.15), "os", zip(weights, colours)):
        rows = table.xs(weight, level=1).loc[samplers]
        ax.errorbar(rows[(metric, "mean")], positions + offset, xerr=rows[(metric, "std")], fmt=marker,
                    color=colour, capsize=3, label=f"class weights: {weight}")
    ax.set_yticks(positions, samplers)
    ax.invert_yaxis()
    _ = ax.set(xlabel=f"{metric} (mean +/- spread over folds)")
    parts = []
    for sampler in samplers:
        cells = [f"{table.loc[(sampler, weight), (metric, 'mean')]:.3f} +/- "
                 f"{table.loc[(sampler, weight), (metric, 'std')]:.3f} with class weights {weight}" for weight in weights]
        parts.append(f"{sampler}: {', '.join(cells)}")
    describe(ax, f"Dot plot of {metric} (mean, error bars +/- spread over folds), one row per sampler, grey dots and "
                 f"purple squares for the two class-weight settings: " + "; ".join(parts))
    return ax
