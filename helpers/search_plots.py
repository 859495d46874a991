"""Figures of the hyperparameter-search notebook (06): grid heat maps, samplers' best-so-far curves,
the optimism of the best score, and Optuna's own plots with a text alternative.

Each function draws on ``ax`` (``ax=None`` makes one), returns the Axes and says
in words what it drew (:func:`helpers.figures.describe`). The numbers come from
:mod:`helpers.search`.
"""

from __future__ import annotations

import itertools
import sys
import warnings

import matplotlib as mpl
import numpy as np
import pandas as pd

from helpers.figures import axes_or_new, describe, number, part_of, series
from helpers.style import LINE_STYLES, NEUTRAL


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
    axes = list(np.ravel(ax)) if isinstance(ax, np.ndarray) else [ax]
    axes[0].figure.set_layout_engine("constrained")  # as the course's other figures (some of Optuna's use "tight")
    name = getattr(plot_function, "__name__", "plot").removeprefix("plot_")
    trials = [t for t in study.trials if t.state.name == "COMPLETE" and t.value is not None]
    for other in axes[0].figure.axes:  # Optuna's twin axes (one per coordinate) belong to the panel
        if other not in axes:
            part_of(other, axes[0])
    if not trials or len(study.directions) != 1:
        describe(axes[0], f"Optuna's {name.replace('_', ' ')} plot of a study with {len(trials)} completed trials")
    elif name == "slice":
        for panel, param in zip(axes, _slice_params(axes, trials)):
            describe(panel, _describe_slice(param, trials, study.direction.name == "MAXIMIZE"))
    else:
        describe(axes[0], STUDY_MESSAGES.get(name, _describe_generic)(study, trials, axes[0]))
    return ax


def _value(value) -> str:
    return number(value) if isinstance(value, (int, float, np.integer, np.floating)) else str(value)


def _params(trial) -> str:
    return ", ".join(f"{key} {_value(value)}" for key, value in trial.params.items())


def _best(study, trials):
    better = max if study.direction.name == "MAXIMIZE" else min
    return better(trials, key=lambda t: t.value)


def _describe_generic(study, trials, ax) -> str:
    best = _best(study, trials)
    return f"{len(trials)} completed trials; the best score, {number(best.value, 4)}, came at trial {best.number} ({_params(best)})"


def _describe_history(study, trials, ax) -> str:
    """Optimization history: how fast the best score so far improves."""
    values = np.array([t.value for t in trials])
    best_so_far = (np.maximum if study.direction.name == "MAXIMIZE" else np.minimum).accumulate(values)
    best = _best(study, trials)
    early = min(5, len(values))
    return (f"Each of {len(trials)} completed trials' score as a dot, in trial order, and the best score so far as a "
            f"line: the best is {number(best_so_far[early - 1], 4)} after {early} completed trials and "
            f"{number(best_so_far[-1], 4)} at the end, first reached at trial {best.number} ({_params(best)}); the "
            f"scores range from {number(values.min(), 4)} to {number(values.max(), 4)}")


def _describe_intermediate(study, trials, ax) -> str:
    """Intermediate values: which trials run to the last step and which stop early."""
    steps = [len(t.intermediate_values) for t in study.trials if t.intermediate_values]
    if not steps:
        return "No trial reported an intermediate value"
    last = max(steps)
    pruned = [s for s in steps if s < last]
    text = (f"One line per trial, its score step by step: {steps.count(last)} of {len(steps)} trials report a score "
            f"at every step, 0 to {last - 1}")
    if pruned:
        after = f"{min(pruned)} to {max(pruned)}" if min(pruned) < max(pruned) else f"{min(pruned)}"
        text += f", the other {len(pruned)} stop after {after} step{'s' if max(pruned) > 1 else ''} (pruned)"
    return text


def _describe_importances(study, trials, ax) -> str:
    """Hyperparameter importances: the bars as drawn, largest first."""
    bars = [(label.get_text(), patch.get_width()) for label, patch in zip(ax.get_yticklabels(), ax.patches)]
    bars.sort(key=lambda item: -item[1])
    return (f"One horizontal bar per hyperparameter, its importance for the score over {len(trials)} completed "
            f"trials: " + series(f"{name} {value:.2f}" for name, value in bars))


def _categories(trials, param) -> str:
    values = [t.params[param] for t in trials if param in t.params]
    counts = pd.Series(values).value_counts()
    return series(f"{count} used {value}" for value, count in counts.items())


def _describe_parallel(study, trials, ax) -> str:
    """Parallel coordinates: which values the completed trials used, and where the lowest and highest scores are."""
    params = list(dict.fromkeys(key for t in trials for key in t.params))
    parts = []
    for param in params:
        values = [t.params[param] for t in trials if param in t.params]
        if all(isinstance(v, (int, float, np.number)) for v in values):
            parts.append(f"{param} from {_value(min(values))} to {_value(max(values))}")
        else:
            parts.append(f"{param}: {_categories(trials, param)}")
    low, high = min(trials, key=lambda t: t.value), max(trials, key=lambda t: t.value)
    return (f"One line per completed trial ({len(trials)}) through its hyperparameters and its score: "
            + "; ".join(parts) + f"; the lowest score, {number(low.value, 3)}, had {_params(low)}; the highest, "
            f"{number(high.value, 4)}, {_params(high)}")


def _describe_contour(study, trials, ax) -> str:
    """Contour: the score interpolated over two hyperparameters, the trials as dots."""
    best = _best(study, trials)
    names = [ax.get_xlabel(), ax.get_ylabel()]
    return (f"The score shaded over {names[0]} (across) and {names[1]} (up), the {len(trials)} completed trials as "
            f"dots: the best score, {number(best.value, 4)}, at {_params(best)}")


def _slice_params(axes, trials) -> list[str]:
    params = list(dict.fromkeys(key for t in trials for key in t.params))
    labelled = [a.get_xlabel() for a in axes]
    return [label if label in params else param for label, param in zip(labelled, params)]


def _describe_slice(param, trials, maximize: bool = True) -> str:
    """One slice panel: the score against one hyperparameter, and where the late trials' dots gather."""
    used = [t for t in trials if param in t.params]
    values = [t.params[param] for t in used]
    late = used[-max(1, len(used) // 3):]  # the darkest dots
    best = (max if maximize else min)(used, key=lambda t: t.value)
    if all(isinstance(v, (int, float, np.number)) for v in values):
        late_values = [t.params[param] for t in late]
        spread = (f"{param} from {_value(min(values))} to {_value(max(values))}; the last {len(late)} trials (the "
                  f"darkest dots) used {_value(min(late_values))} to {_value(max(late_values))}")
    else:
        spread = (f"{param}: {_categories(used, param)}; the last {len(late)} trials (the darkest dots): "
                  f"{_categories(late, param)}")
    return (f"Slice of {param}: the score of each of {len(used)} completed trials against its {spread}; the "
            f"best score, {number(best.value, 4)}, at {param} {_value(best.params[param])}")


STUDY_MESSAGES = {"optimization_history": _describe_history, "intermediate_values": _describe_intermediate,
                  "param_importances": _describe_importances, "parallel_coordinate": _describe_parallel,
                  "contour": _describe_contour}


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
    ax = axes_or_new(ax)
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
                 f"({series(f'{v:g}' for v in grid.index)}) and {columns} in columns "
                 f"({series(f'{v:g}' for v in grid.columns)}), darker is higher, each cell labelled: highest "
                 f"{fmt.format(values[best])} at {rows} = {grid.index[best[0]]:g}, {columns} = "
                 f"{grid.columns[best[1]]:g}; lowest {fmt.format(values[worst])} at {rows} = "
                 f"{grid.index[worst[0]]:g}, {columns} = {grid.columns[worst[1]]:g}")
    return ax


def plot_best_so_far(comparison, ax=None, log_y: bool = False):
    """Best value so far, trial by trial, of a ``helpers.search.sampler_comparison`` table.

    One line per sampler: the median over seeds, with a band from the best to
    the worst seed.
    """
    ax = axes_or_new(ax)
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
        finals.append(f"{name} ends at median {number(last.median())} (seeds from {number(last.min())} to "
                      f"{number(last.max())})")
    describe(ax, f"Best value so far against the trial number (1 to {comparison['trial'].max()})"
                 f"{', log scale' if log_y else ''}, one line per sampler, each in its own colour and dash (median over "
                 f"{comparison['seed'].nunique()} seeds, band from best to worst seed): " + "; ".join(finals))
    return ax


def plot_optimism(simulation, ax=None):
    """``helpers.search.optimism_simulation``: best_score_, nested CV and truth, one column per seed."""
    ax = axes_or_new(ax)
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
                 f"truth in {int((gap > 0).sum())} of {len(simulation)} seeds, by {number(gap.mean())} on average; "
                 f"the nested estimate is {number(np.mean(simulation['nested'] - simulation['truth']))} from the "
                 f"truth on average")
    return ax


def plot_surrogate(step, ax=None, truth=None, x_label: str = "x"):
    """One step of ``helpers.search.bayesian_optimisation``: the trials, the surrogate and the next point.

    Draws the Gaussian process's mean with a band of ± 2 standard deviations,
    the trials so far (circles), the point expected improvement picks next
    (a vertical dotted line and a star at its objective value) and, when given,
    ``truth = (xs, ys)``, the objective itself (thin grey line).
    """
    ax = axes_or_new(ax)
    if truth is not None:
        ax.plot(*truth, color=NEUTRAL, lw=1, label="objective (unknown to the search)")
    line = ax.plot(step.grid, step.mean, "-", label="surrogate mean")[0]
    ax.fill_between(step.grid, step.mean - 2 * step.sd, step.mean + 2 * step.sd, color=line.get_color(), alpha=0.15,
                    label="mean ± 2 sd")
    ax.plot(step.x_seen, step.y_seen, "o", color="black", ms=7, label=f"trials so far ({step.x_seen.size})")
    ax.axvline(step.x_next, color="C3", ls=":", lw=1.5)
    ax.plot([step.x_next], [step.y_next], "*", color="C3", ms=14, mec="black", label="next trial")
    ax.legend(fontsize=9, loc="best")
    _ = ax.set(xlabel=x_label, ylabel="objective (lower is better)")
    widest = int(np.argmax(step.sd))
    describe(ax, f"Gaussian-process surrogate after {step.x_seen.size} trials (circles) at {x_label} = "
                 f"{series(number(v, 2) for v in step.x_seen)}: mean line with a band of plus or minus two standard "
                 f"deviations, narrow at the trials and widest ({number(step.sd[widest])}) at {x_label} = "
                 f"{number(step.grid[widest], 2)}; best value so far {number(step.best, 4)}; the next trial (star) "
                 f"at {x_label} = {number(step.x_next, 2)} scores {number(step.y_next, 4)}")
    return ax


def plot_expected_improvement(step, ax=None, x_label: str = "x"):
    """Expected improvement of one ``bayesian_optimisation`` step, its maximum marked as the next trial."""
    ax = axes_or_new(ax)
    ax.plot(step.grid, step.ei, "-", color="C2", label="expected improvement")
    top = int(np.argmax(step.ei))
    ax.plot([step.grid[top]], [step.ei[top]], "*", color="C3", ms=14, mec="black", label="its maximum: next trial")
    ax.legend(fontsize=9, loc="best")
    _ = ax.set(xlabel=x_label, ylabel="expected improvement")
    describe(ax, f"Expected improvement over the best value so far against {x_label}: zero at the trials, highest, "
                 f"{number(step.ei[top], 2)}, at {x_label} = {number(step.grid[top], 2)}, where the next trial goes")
    return ax


def plot_bo_steps(steps, axes, truth=None, x_label: str = "x", first: int = 1, ylim=None, ei_top=None):
    """Consecutive ``bayesian_optimisation`` steps, one per column of ``axes`` (two rows: :func:`plot_surrogate`
    above, :func:`plot_expected_improvement` below), titled "step ``first``: n trials" on; ``ylim`` for the
    surrogates and ``ei_top`` for the EI panels put several figures of steps on one scale. One legend for the
    figure, at its right (the two panels' entries; "trials so far" without a count). Returns ``axes``."""
    axes = np.asarray(axes).reshape(2, -1)
    if axes.shape[1] != len(steps):
        raise ValueError(f"axes must have one column per step: {axes.shape[1]} columns for {len(steps)} steps")
    for k, (step, ax_top, ax_bottom) in enumerate(zip(steps, axes[0], axes[1])):
        plot_surrogate(step, ax=ax_top, truth=truth, x_label=x_label)
        plot_expected_improvement(step, ax=ax_bottom, x_label=x_label)
        _ = ax_top.set(title=f"step {first + k}: {step.x_seen.size} trials", xlabel="",
                       ylabel=ax_top.get_ylabel() if k == 0 else "")
        _ = ax_bottom.set(ylabel="EI" if k == 0 else "")
        if ylim is not None:
            ax_top.set_ylim(ylim)
        if ei_top is not None:
            ax_bottom.set_ylim(0.0, ei_top)
        legends = [ax_top.get_legend(), ax_bottom.get_legend()]
        handles = [handle for legend in legends for handle in legend.legend_handles]
        labels = ["trials so far" if text.get_text().startswith("trials so far") else text.get_text()
                  for legend in legends for text in legend.get_texts()]
        for legend in legends:
            legend.remove()
    axes[0, 0].figure.legend(handles, labels, loc="outside right upper", frameon=False)
    return axes


def plot_tpe_densities(densities, ax=None, x_label: str = "x"):
    """``helpers.search.tpe_densities``: l(x) of the good trials, g(x) of the others, and where l/g peaks."""
    ax = axes_or_new(ax)
    ax.plot(densities["grid"], densities["l"], "-", color="C0", label=f"l(x): {densities['good'].size} good trials")
    ax.plot(densities["grid"], densities["g"], "--", color="C1", label=f"g(x): {densities['bad'].size} other trials")
    ax.plot(densities["good"], np.zeros(densities["good"].size), "o", color="C0", ms=8, clip_on=False)
    ax.plot(densities["bad"], np.zeros(densities["bad"].size), "x", color="C1", ms=7, clip_on=False)
    ax.axvline(densities["x_next"], color="C3", ls=":", lw=1.5, label="highest l(x) / g(x)")
    ax.legend(fontsize=9, loc="best")
    _ = ax.set(xlabel=x_label, ylabel="density")
    describe(ax, f"Two Parzen densities over {x_label}: l(x) of the {densities['good'].size} best trials (solid, "
                 f"circles on the axis) and g(x) of the other {densities['bad'].size} (dashed, crosses); their ratio "
                 f"l/g is highest at {x_label} = {number(densities['x_next'], 2)} (dotted line)")
    return ax
