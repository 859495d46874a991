"""Figures of the cross-validation notebook (03): which sample lands in which fold, the k-slider's figure.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``update_cv_spread``
moves the slider's figure in place. The numbers come from :mod:`helpers.cv`.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.colors import to_rgb, to_rgba
from matplotlib.patches import Patch, Rectangle

from helpers.cv import cv_split_roles
from helpers.figures import axes_or_new, clear_description, describe, number, series
from helpers.style import CYCLE, NEGATIVE, POSITIVE, SPLIT_COLOURS

CLASS_COLOURS = (NEGATIVE, POSITIVE, CYCLE[4], CYCLE[5], CYCLE[2], CYCLE[6], CYCLE[7], CYCLE[1])
CLASS_HATCHES = ("", "xxx", "...", "\\\\", "ooo", "+++", "---", "|||")
TEST_HATCH = "////"
# How each class's cells look, in words (CLASS_COLOURS and CLASS_HATCHES): the first eight classes.
CLASS_LOOKS = ("blue", "red, cross-hatched", "purple, dotted", "brown, hatched backwards", "green, ringed",
               "pink, with plus signs", "grey, with dashes", "orange, with bars")
ROLES = ("unused", "train", "test")


def _ranges(indices) -> str:
    """Sorted sample indices as runs: ``[0, 1, 2, 7]`` -> "0-2 and 7"."""
    indices = np.sort(np.asarray(indices, dtype=int))
    if indices.size == 0:
        return "none"
    breaks = np.flatnonzero(np.diff(indices) != 1)
    starts, ends = np.r_[indices[0], indices[breaks + 1]], np.r_[indices[breaks], indices[-1]]
    return series([f"{a}" if a == b else f"{a}-{b}" for a, b in zip(starts, ends)], limit=6)


def describe_cv_splits(roles, y=None, groups=None, name: str = "cross-validation") -> str:
    """The sentence :func:`plot_cv_splits` gives its figure: sizes, test samples, classes and groups."""
    roles = np.asarray(roles)
    n_splits, n_samples = roles.shape
    test_sizes = (roles == 2).sum(axis=1)
    train_sizes = (roles == 1).sum(axis=1)
    sizes = (f"{test_sizes[0]}" if np.all(test_sizes == test_sizes[0])
             else f"{test_sizes.min()} to {test_sizes.max()}")
    text = (f"Cross-validation splits of {name}: {n_splits} splits of {n_samples} samples, one row per split "
            f"with the samples in their original order (dark grey cells train, hatched gold cells test"
            + (", light grey cells unused" if (roles == 0).any() else "") + "); each split trains on "
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
        text += ("; the class row shows " + series(f"class {c} ({int((codes == i).sum())} "
                                                    f"sample{'s' if (codes == i).sum() != 1 else ''}, "
                                                    f"{CLASS_LOOKS[i % len(CLASS_LOOKS)]})"
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
    ax = axes_or_new(ax)
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
                 f"cross-validation, one row per repeat: single folds from {number(scores.min())} to "
                 f"{number(scores.max())}, repeat estimates (diamonds) from {number(estimates.min())} to "
                 f"{number(estimates.max())}; the vertical line is their mean {state['mean']:.3f} and the band "
                 f"+/- one SD between repeats, {state['spread']:.3f}")
    return [*axes, artist["band"], artist["mean"], *folds, artist["estimates"], legend, ax.title]


def _xlabel(ax) -> str:
    return ax.get_xlabel() or "the"
