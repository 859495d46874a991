"""Figures of the oversampling notebook (04): two-class scatter plots, SMOTE's segments and the SMOTE
slider's figure, Borderline-SMOTE's categories, Tomek links, the samplers' scores.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``update_smote`` moves
the slider's figure in place. Classes differ by marker shape as well as colour.
The numbers come from :mod:`helpers.resampling`.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection

from helpers.figures import axes_or_new, clear_description, describe, number
from helpers.resampling import synthetic_steps
from helpers.style import CYCLE, NEGATIVE, NEUTRAL, POSITIVE, SYNTHETIC
from helpers.validation import check_X_y, check_label


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
    ax = axes_or_new(ax)
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
    if len(X_new):
        describe(ax, _majority_territory(X, is_minority, X_new, base))
    return ax


def _nearer_majority(X, is_minority, X_new) -> np.ndarray:
    """For each synthetic point: is it nearer a majority sample than any minority one (in majority territory)?"""
    X_min, X_maj = X[is_minority], X[~is_minority]
    if not len(X_maj):
        return np.zeros(len(X_new), bool)
    nearest = lambda P, Q: np.sqrt(((P[:, None, :] - Q[None, :, :]) ** 2).sum(-1)).min(axis=1)  # noqa: E731
    return nearest(X_new, X_maj) < nearest(X_new, X_min)


def _majority_territory(X, is_minority, X_new, base) -> str:
    """How many synthetic points land nearer a majority sample than any minority one, and the base point that
    sends the most there (where it is), so that a listener can check what the picture shows."""
    X_min = X[is_minority]
    inside = _nearer_majority(X, is_minority, X_new)
    text = f"{int(inside.sum())} of {len(X_new)} synthetic points lie nearer a majority sample than any minority one"
    if inside.any() and len(X_min) > 1:
        # the minority point most surrounded by majority points: the largest majority share of its 5 neighbours
        distances = np.sqrt(((X_min[:, None, :] - X[None, :, :]) ** 2).sum(-1))
        neighbours = np.argsort(distances, axis=1)[:, 1:6]
        share = (~is_minority)[neighbours].mean(axis=1)
        lonely = int(np.argmax(share))
        x, y = X_min[lonely]
        where = (f"{'lower' if (X_min[:, 1] < y).mean() < 0.5 else 'upper'} "
                 f"{'left' if (X_min[:, 0] < x).mean() < 0.5 else 'right'}")
        from_it = np.asarray(base) == lonely
        text += (f"; the minority point most among majority points ({share[lonely]:.0%} of its 5 nearest neighbours), "
                 f"at ({x:.2f}, {y:.2f}) in the {where} of the minority group, sends {int((inside & from_it).sum())} "
                 f"of its {int(from_it.sum())} synthetic points there")
    return text


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


def plot_oversampled(X, y, X_new, name: str, minority_label=1, ax=None, legend: bool = True):
    """Both classes and the synthetic points ``X_new`` a sampler (``name``, the title) added to them.

    Described by where the synthetic points lie, counted from the data, so that a
    listener can check what the picture shows: between two minority samples
    (interpolated, as SMOTE does), beyond one of them (extrapolated, as SVM-SMOTE
    does from a safe support vector) or on no line through two minority samples
    (Borderline-2 towards a majority neighbour); outside the outline (the convex
    hull) of the minority samples; nearer a majority sample than any minority one.
    """
    X, is_minority = _two_classes(X, y, minority_label)
    X_new = np.asarray(X_new, dtype=float).reshape(-1, 2)
    if not len(X_new):
        raise ValueError(f"{name} added no synthetic point: nothing to show")
    ax = _scatter_classes(X, y, minority_label, ax=ax)
    ax.scatter(*X_new.T, s=22, marker=SYNTHETIC_MARKER, color=SYNTHETIC, edgecolor="black", linewidth=0.3,
               label=f"synthetic ({len(X_new)})")
    if legend:
        ax.legend(loc="lower left", fontsize=10)
    _ = ax.set(title=name, xlabel="feature 1", ylabel="feature 2")
    describe(ax, f"{name} scatter plot of two features: {_class_counts(is_minority)}, and {len(X_new)} synthetic "
                 f"samples (gold diamonds); " + _where_synthetic(X, is_minority, X_new))
    return ax


def synthetic_positions(X, y, X_new, minority_label=1) -> dict:
    """Where the synthetic points ``X_new`` lie relative to the original ``(X, y)``, counted (what
    :func:`plot_oversampled` says of its picture).

    ``between``: between two minority samples (on their segment); ``beyond``: on
    the line of two minority samples but past one of them, ``max_beyond`` segment
    lengths at most; ``off_line``: on no line through two minority samples;
    ``outside``: outside the outline (convex hull) of the minority samples;
    ``nearer_majority``: nearer a majority sample than any minority one.
    """
    from scipy.spatial import Delaunay  # the outline of the minority samples

    X, is_minority = _two_classes(X, y, minority_label)
    X_new = np.asarray(X_new, dtype=float).reshape(-1, 2)
    X_min = X[is_minority]
    steps, distance = synthetic_steps(X_new, X_min)
    on_line = distance <= 1e-9 * max(1.0, float(np.abs(X).max()))
    beyond = on_line & (steps < 0)
    outside = Delaunay(X_min).find_simplex(X_new) < 0 if len(X_min) > 2 else np.ones(len(X_new), bool)
    return {"between": int((on_line & (steps >= 0)).sum()), "beyond": int(beyond.sum()),
            "max_beyond": float(-steps[beyond].min()) if beyond.any() else 0.0, "off_line": int((~on_line).sum()),
            "outside": int(outside.sum()), "nearer_majority": int(_nearer_majority(X, is_minority, X_new).sum())}


def _where_synthetic(X, is_minority, X_new) -> str:
    where = synthetic_positions(X, is_minority.astype(int), X_new, minority_label=1)
    parts = [f"{where['between']} lie between two minority samples"]
    if where["beyond"]:
        parts.append(f"{where['beyond']} beyond one of them, at most {number(where['max_beyond'], 2)} of a segment "
                     f"past it")
    if where["off_line"]:
        parts.append(f"{where['off_line']} on no line through two minority samples")
    return (", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
            + f"; {where['outside']} lie outside the outline of the minority samples and "
            f"{where['nearer_majority']} nearer a majority sample than any minority one")


def plot_borderline(X, y, categories, minority_label=1, ax=None):
    """Borderline-SMOTE's view: each minority point marked safe, danger or noise."""
    X, is_minority = _two_classes(X, y, minority_label)
    categories = np.asarray(categories, dtype=object)
    if categories.shape != (is_minority.sum(),):
        raise ValueError(f"categories needs one entry per minority sample ({is_minority.sum()}); "
                         f"got shape {categories.shape}")
    ax = axes_or_new(ax)
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
    ax = axes_or_new(ax)
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
