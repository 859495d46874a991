"""Figures of the learning-curves notebook (05): bias and variance, the complexity slider's figure,
learning curves, coefficient paths and the L1/L2 geometry.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`); ``update_complexity``
moves the slider's figure in place. The numbers come from :mod:`helpers.curves`;
these functions only draw.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle, Polygon
from matplotlib.lines import Line2D

from helpers.curves import penalty_constrained_minimum
from helpers.figures import axes_or_new, clear_description, describe, number, series, spoken
from helpers.style import NEUTRAL


def plot_fitted_models(result, n_show: int = 20, ax=None, title: str | None = None, show_mean: bool = True):
    """The first ``n_show`` models of a ``helpers.curves.BiasVariance``, the true function and their mean."""
    if isinstance(n_show, bool) or not isinstance(n_show, (int, np.integer)) or not 1 <= n_show <= result.n_sets:
        raise ValueError(f"n_show must be an integer between 1 and the {result.n_sets} training sets; got {n_show!r}")
    ax = axes_or_new(ax)
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
    sentence = (f"{n_show} of {result.n_sets} fitted models drawn as thin lines over x from {number(x.min())} to "
                f"{number(x.max())}, with the true f(x) dashed: at one x the shown models differ by up to "
                f"{number(np.ptp(shown, axis=0).max())}")
    if show_mean:
        sentence += (f"; the thick line is the mean of the {result.n_sets} models, at most "
                     f"{number(np.abs(result.mean_prediction - result.f_test).max())} from f(x)")
    describe(ax, sentence)
    return ax


def plot_bias_variance_by_x(result, ax=None, title: str | None = None, ylim=None):
    """Noise, bias^2 and variance stacked along x, with the measured squared error as dots.

    ``ylim`` (bottom, top) cuts the panel at ``top``: the description then says which dots lie above it, never
    their values (a reader cannot see them)."""
    ax = axes_or_new(ax)
    order = np.argsort(result.x_test)
    x, error = result.x_test[order], result.error[order]
    ax.stackplot(x, result.noise[order], result.bias2[order], result.variance[order],
                 labels=["noise sigma^2", "bias^2", "variance"], colors=[NEUTRAL, "C3", "C0"], alpha=0.6)
    ax.plot(x, error, "o", color="black", ms=4, label="measured error")
    ax.legend(loc="upper center", fontsize=10)  # the errors are largest at the ends of [0, 1]
    _ = ax.set(xlabel="x", ylabel="squared error", title=title)
    if ylim is not None:
        ax.set_ylim(ylim)
    top = max(ax.get_ylim())
    middle = np.median(error[len(x) // 4: 3 * len(x) // 4])
    sentence = (f"Stacked areas along x from {number(x.min())} to {number(x.max())}: noise sigma squared "
                f"{number(result.noise.mean())}, then bias squared (mean {number(result.bias2.mean())}), then variance "
                f"(mean {number(result.variance.mean())}); the dots, the measured squared error (mean "
                f"{number(result.error.mean())}), sit on top of the stack")
    above = error > top
    if above.any():
        runs = np.split(np.flatnonzero(above), np.flatnonzero(np.diff(np.flatnonzero(above)) > 1) + 1)
        where = series(f"x from {number(x[run[0]], 2)} to {number(x[run[-1]], 2)}" if len(run) > 1 else
                       f"x = {number(x[run[0]], 2)}" for run in runs)
        sentence += (f", a median of {number(middle)} in the middle half of x; {int(above.sum())} of the "
                     f"{len(x)} dots, at {where}, lie above the top of the panel ({number(top)})")
    else:
        ends = error[[0, -1]]
        sentence += (f": {number(np.median(ends))} or more at the two ends of x against a median of {number(middle)} "
                     f"in the middle half")
    describe(ax, sentence)
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
                f"{degrees[0]} to {degrees[-1]}: training error falls from {number(train[0])} to {number(train[-1])}, "
                f"validation error is lowest, {number(state['best_val_mse'])}, at degree {state['best_degree']} "
                f"(the star) and is {number(val[-1])} at degree {degrees[-1]}; the vertical line marks degree "
                f"{state['degree']} (training {number(state['train_mse'])}, validation {number(state['val_mse'])})")
    if noise is not None:
        sentence += f"; the dashed line is the noise floor sigma squared = {number(noise)}"
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
    ax = axes_or_new(ax)
    prefix = f"{label}: " if label else ""
    for errors, style, name in ((val_errors, "-", "validation"), (train_errors, "--", "training")):
        mean, std = errors.mean(axis=1), errors.std(axis=1)
        ax.plot(sizes, mean, style, marker=marker, color=color, label=f"{prefix}{name}")
        ax.fill_between(sizes, mean - std, mean + std, color=color, alpha=0.15)
    ax.legend(fontsize=10)
    _ = ax.set(xlabel="training-set size", ylabel="error", xscale="log" if log_x else "linear")
    val, train = val_errors.mean(axis=1), train_errors.mean(axis=1)
    span = np.ptp(np.r_[val, train])  # a training error of 2e-13 is read off the axis as 0
    describe(ax, f"Learning curve{' of ' + label if label else ''}: mean error over {train_errors.shape[1]} folds "
                 f"against the training-set size from {number(sizes[0])} to {number(sizes[-1])}"
                 f"{' (log scale)' if log_x else ''}, band +/- one SD: validation error (solid) goes from "
                 f"{spoken(val[0], span)} to {spoken(val[-1], span)}, training error (dashed) from "
                 f"{spoken(train[0], span)} to {spoken(train[-1], span)}; the gap at the largest size is "
                 f"{spoken(val[-1] - train[-1], span)}")
    return ax


def plot_learning_curves(sizes, curves: dict, ax=None, colors=None, markers: str = "o^s", unit: str = "",
                         log_x: bool = True, legend: dict | None = None):
    """Several learning curves on one Axes (:func:`plot_error_curves` for each ``name: (train_errors,
    val_errors)`` of ``curves``), said to coincide where they do.

    The legend is short enough for a slide: one entry per model (its colour and
    marker), then one per line style (solid validation, dashed training), not
    one per line; ``legend`` gives its place (``Axes.legend``'s keywords, such
    as ``loc`` and ``bbox_to_anchor``).

    Two models whose mean training and validation errors stay within 2% of the
    panel's range of each other from the smallest size on hide one another in the
    picture: the description says up to which size, by how much at most, and
    where they part, so that a listener learns it from the numbers, not from a
    colour covering another.
    """
    if not curves:
        raise ValueError("curves is empty: give at least one model's (train_errors, val_errors)")
    ax = axes_or_new(ax)
    colors = colors or [f"C{i}" for i in range(len(curves))]
    sizes = np.asarray(sizes)
    means, handles = {}, []
    for (name, (train, val)), color, marker in zip(curves.items(), colors, markers * len(curves)):
        plot_error_curves(sizes, train, val, ax=ax, label=name, color=color, marker=marker, log_x=log_x)
        means[name] = np.vstack([np.asarray(train, dtype=float).mean(axis=1), np.asarray(val, dtype=float).mean(axis=1)])
        handles.append(Line2D([], [], color=color, marker=marker, linestyle="none", label=name))
    handles += [Line2D([], [], color="black", linestyle=style, label=name)
                for style, name in (("-", "validation"), ("--", "training"))]
    ax.legend(handles=handles, **(legend or {}))
    every = np.concatenate([m.ravel() for m in means.values()])
    tolerance = 0.02 * np.ptp(every)
    names = list(means)
    unit = f" {unit}" if unit else ""
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            gap = np.abs(means[first] - means[second]).max(axis=0)  # per size, training or validation
            close = np.cumprod(gap <= tolerance).astype(bool)
            n = int(close.sum())
            if n < 2:
                continue
            sentence = (f"The curves of {first} and {second} coincide up to {number(sizes[n - 1])} rows: their "
                        f"training and validation errors differ by at most {number(gap[:n].max(), 2)}{unit}")
            if n < len(sizes):
                (train_a, val_a), (train_b, val_b) = means[first][:, -1], means[second][:, -1]
                sentence += (f"; they part after that, and at {number(sizes[-1])} rows training is {number(train_a)} "
                             f"against {number(train_b)}, validation {number(val_a)} against {number(val_b)}")
            describe(ax, sentence)
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
    ax = axes_or_new(ax)
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
                 f"alpha from {number(alphas.min())} to {number(alphas.max())} (log scale), "
                 + (f"{n_highlight} in colour and the others grey; " if n_highlight < coefs.shape[1] else "")
                 + f"at the weakest penalty they range from {number(weak.min())} to {number(weak.max())}, "
                 f"at the strongest from {number(strong.min())} to {number(strong.max())} with {int(zero.sum())} of "
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
                     f"radius {number(radius)} holds the allowed coefficients (w1, w2); the loss ellipses centre on the "
                     f"least-squares minimum (cross) at ({number(w_hat[0])}, {number(w_hat[1])}); the penalised "
                     f"solution (dot) where the smallest ellipse touches it is ({solution[0]:.2f}, "
                     f"{solution[1]:.2f}), with {zeros} coefficient{'s' if zeros != 1 else ''} exactly zero")
    return axes
