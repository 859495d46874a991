"""helpers.figures (figures that describe themselves) and the descriptions of helpers.plotting's figures.

Every number a description should carry is computed here independently (NumPy,
scikit-learn) from the data the figure was drawn from, then looked for in the
text: a description that drifts from its picture fails.
"""

import base64
import json
import re
import struct
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold  # noqa: E402

from helpers import curves_plots, cv_plots, metrics_plots, resampling_plots, roc_plots, search_plots  # noqa: E402
from helpers.curves import (bias_variance_decomposition, complexity_states, noisy_sample,  # noqa: E402
                            penalty_constrained_minimum, polynomial_model)
from helpers.cv import cv_spread_state  # noqa: E402
from helpers.figures import (ALT_LIMIT, alt_text, clear_description, describe, describe_axes,  # noqa: E402
                             descriptions, long_description, show)
from helpers.resampling import (borderline_categories, smote_by_hand, synthetic_steps, tomek_links,  # noqa: E402
                               toy_imbalanced)
from helpers.roc import roc_table  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def text_of(ax) -> str:
    return " ".join(descriptions(ax))


def numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", text)]


def has_number(text: str, value: float, tol: float) -> bool:
    return any(abs(n - value) <= tol for n in numbers(text))


# --------------------------------------------------------------------------- helpers.figures
def test_describe_keeps_sentences_per_axes_and_ends_them():
    fig = Figure()
    a, b = fig.subplots(1, 2)
    assert describe(a, "  first   panel ") is a
    describe(a, "second!")
    assert descriptions(a) == ["first panel.", "second!"]
    assert descriptions(b) == []
    clear_description(a)
    assert descriptions(a) == []


@pytest.mark.parametrize("bad, match", [(3, "string"), ("   ", "empty")])
def test_describe_rejects_a_non_sentence(bad, match):
    with pytest.raises(ValueError, match=match):
        describe(Figure().subplots(), bad)
    with pytest.raises(ValueError, match="Axes"):
        describe("not an axes", "text")


def test_alt_text_is_the_summary_and_the_panels_go_to_the_long_description():
    fig = Figure()
    left, right = fig.subplots(1, 2)
    describe(left, "Left panel from data")
    right.plot([0, 1, 2], [5, 1, 3], label="errors")
    right.legend()
    right.set(title="right", xlabel="epoch", ylabel="loss", xlim=(-0.1, 2.1))
    assert alt_text(fig, "Two panels") == "Two panels."
    paragraphs = long_description(fig)
    assert paragraphs[0] == "Left panel from data."
    # what a reader sees: the first and last tick of each axis, the line's ends and its lowest point
    assert paragraphs[1].startswith("right: loss from 1 to 5 against epoch from 0 to 2;"), paragraphs[1]
    assert "errors (line) from 5 at 0 to 3 at 2, lowest 1 at 1" in paragraphs[1]
    assert paragraphs[1].endswith("legend: errors.")
    with pytest.raises(ValueError, match="Figure"):
        alt_text(left, "x")
    with pytest.raises(ValueError, match="summary"):
        alt_text(fig, "")
    with pytest.raises(ValueError, match=rf"{ALT_LIMIT + 1} characters.*at most {ALT_LIMIT}"):
        alt_text(fig, "x" * ALT_LIMIT)
    assert len(alt_text(fig, "x" * (ALT_LIMIT - 1))) == ALT_LIMIT


def test_describe_axes_clips_to_the_axis_limits_and_rounds_as_a_person_reads():
    ax = Figure().subplots()
    x = np.array([0.0, 5, 10, 20, 30])
    ax.plot(x, [9.2, 2.31e-13, 0.69, 5, 40], label="log error")
    ax.set(xlim=(-1.5, 31.5), ylim=(0, 10), xlabel="prediction", ylabel="error")
    text = describe_axes(ax)
    assert "40" not in text and "at 30" not in text, f"the point at (30, 40) is cut off by the y axis: {text}"
    assert "e-13" not in text and "from 9.2 at 0 to 5 at 20" in text and "lowest 0 at 5" in text, text
    assert "error from 0 to 10 against prediction from 0 to 30" in text, "the ticks, not -1.5 and 31.5"
    assert "unlabelled" not in text and "panel" not in text.lower()
    empty = Figure().subplots()
    empty.scatter([], [], label="Infeasible Trial")
    empty.scatter([1, 2], [1, 2], label="Complete Trial")
    text = describe_axes(empty)
    assert "Infeasible" not in text and "2 points (Complete Trial)" in text, text
    assert "the vertical axis from" in text and "unlabelled" not in text


def test_describe_axes_names_categories_bar_values_image_cells_and_scale_and_skips_colorbars():
    fig = Figure()
    ax = fig.subplots()
    image = ax.imshow([[3, 1], [0, 7]])
    for (i, j), v in np.ndenumerate([[3, 1], [0, 7]]):
        ax.text(j, i, str(v))
    ax.set_xticks([0, 1], ["yes", "no"])
    ax.set_yticks([0, 1], ["yes", "no"])
    fig.colorbar(image, ax=ax)
    text = describe_axes(ax)
    assert "the horizontal axis (yes and no)" in text
    assert "a grid of 2 by 2 cells reading 3, 1, 0, 7" in text
    assert len(long_description(fig)) == 1, "the colour bar is no panel"
    bars = Figure().subplots()
    bars.barh(["the classifier", "nobody"], [0.965, 0.97], label="accuracy")
    bars.barh(["the classifier", "nobody"], [0.3, 0.0], label="recall")
    assert ("accuracy bars: the classifier 0.965 and nobody 0.97; recall bars: the classifier 0.3 and nobody 0"
            in describe_axes(bars)), describe_axes(bars)
    other = Figure().subplots()
    other.plot([1, 10, 100], [1, 2, 3])
    other.set_xscale("log")
    assert ", log scale" in describe_axes(other)


def test_describe_axes_reads_a_log_axis_by_its_values_not_its_linear_range():
    """LearningCurveDisplay on a log x axis (05): the first size, 5, was read "0" and 7,654 "7,700" (rounded to the
    axis's linear range), and the axis itself "from 0 to 10,000", which no log axis can show."""
    ax = Figure().subplots()
    ax.plot([5, 25, 100, 500, 2000, 7654], [2.3e-13, 2.4, 2.0, 1.9, 1.7, 1.5], label="Train")
    ax.set(xscale="log", xlabel="training rows", ylabel="RMSE")
    text = describe_axes(ax)
    assert "against training rows from 10 to 10,000, log scale" in text, text
    assert "Train (line) from 0 at 5 to 1.5 at 7,654, highest 2.4 at 25" in text, text


def test_show_displays_the_short_alt_then_the_long_description_collapsed_and_closes(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kwargs: shown.append((obj, kwargs)))
    fig = plt.figure()
    describe(fig.add_subplot(), "A described panel <with> 0.5")
    assert show(fig, "Summary with 0.5") is None
    (image, image_kwargs), (details, details_kwargs) = shown
    assert image_kwargs == {"metadata": {"image/png": {"alt": "Summary with 0.5."}}, "raw": True}
    assert base64.b64decode(image["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert image["text/html"] == f'<img src="data:image/png;base64,{image["image/png"]}" alt="Summary with 0.5.">'
    assert details_kwargs == {"raw": True}
    assert details["text/html"] == ('<details class="course-figure-details"><summary>Figure details</summary>'
                                    "<p>A described panel &lt;with&gt; 0.5.</p></details>")
    assert details["text/plain"] == "Figure details: A described panel <with> 0.5."
    assert not plt.fignum_exists(fig.number)


def test_in_the_lecture_jupyterlab_show_draws_the_figure_for_the_projector(monkeypatch):
    """With helpers.figures.PROJECTOR set (the lecture JupyterLab's kernels), show enlarges a figure's texts to
    18.5 px as the live slideshow projects it (1240 px wide, at most 470 px high), its PNG the same size in pixels;
    where that would make its texts run into each other, by less or not at all; elsewhere
    it draws the figure untouched (the notebooks' outputs)."""
    from helpers.figures import PROJECTED_TEXT_PX, PROJECTOR, fit_for_projector, projection
    from helpers.style import use
    from helpers.widgets import smallest_text_px

    use()

    def figure(width=6.4, height=4.2, labels=("recall", "precision")):
        fig = plt.figure(figsize=(width, height))
        ax = fig.add_subplot()
        ax.plot([0, 1], [0, 1], label="a line")
        ax.set(xlabel=labels[0], ylabel=labels[1])
        ax.legend(fontsize=10)
        describe(ax, "A line from 0 to 1")
        return fig

    sizes = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kwargs: sizes.append(obj.get("image/png")))
    monkeypatch.setattr("helpers.figures.fit_for_projector", lambda fig: sizes.append(smallest_text_px(fig)))
    monkeypatch.delenv(PROJECTOR, raising=False)
    show(figure(), "A line")
    monkeypatch.setenv(PROJECTOR, "1")
    show(figure(), "A line")
    assert len(sizes) == 5 and sizes[2] == pytest.approx(10 * 100 / 72), "only the lecture JupyterLab fits them"

    fig = figure(height=7)  # 700 px high, shown at 470: its 13.9 px legend projected at 9.3 px
    before = projection(fig)[0]
    pixels = fig.get_size_inches() * fig.dpi
    assert before < 10
    after = fit_for_projector(fig)
    assert PROJECTED_TEXT_PX <= after == pytest.approx(projection(fig)[0])
    assert fig.get_size_inches() * fig.dpi == pytest.approx(pixels)
    from IPython.core.pylabtools import print_figure  # the PNG show displays, as the slideshow scales it
    width, height = struct.unpack(">II", print_figure(fig, "png")[16:24])
    assert smallest_text_px(fig) * min(1240 / width, 470 / height) == pytest.approx(after, rel=0.01)
    plt.close(fig)
    crowded = figure(width=3, height=7, labels=("a long label " * 3, "another long label " * 3))
    crowded_before = projection(crowded)[0]
    assert fit_for_projector(crowded) < PROJECTED_TEXT_PX and crowded_before <= fit_for_projector(crowded)
    plt.close(crowded)


# --------------------------------------------------------------------------- ROC and histograms (notebook 02)
def test_roc_sweep_lists_its_points_and_the_shaded_area():
    y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.51, 0.4, 0.3])
    table = roc_table(y, s)
    ax = roc_plots.plot_roc_sweep(table, shade=True, ax=Figure().subplots())
    text = text_of(ax)
    assert f"through {len(table)} of the table's {len(table)} thresholds" in text
    from sklearn.metrics import roc_auc_score
    assert f"shaded area under the path is {roc_auc_score(y, s):.3f}" in text
    assert "dashed diagonal is a random ranking" in text
    row = table.iloc[3]
    assert f"{row['threshold']:.2f}, {row['fpr']:.3g}, {row['tpr']:.3g}" in text
    partial = roc_plots.plot_roc_sweep(table, upto=3, ax=Figure().subplots())
    assert f"through 3 of the table's {len(table)}" in text_of(partial)


def test_score_histograms_give_each_class_size_and_median():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(30, int), np.zeros(70, int)]
    s = np.r_[rng.uniform(0.4, 1, 30), rng.uniform(0, 0.7, 70)]
    ax = roc_plots.plot_score_histograms(y, s, bins=20, ax=Figure().subplots())
    text = text_of(ax)
    assert "on 20 shared bins" in text
    assert f"positive (n=30, median score {np.median(s[:30]):.3g}" in text
    assert f"negative (n=70, median score {np.median(s[30:]):.3g}" in text
    pair = roc_plots.plot_score_histograms(y, s, counts=True, ax=Figure().subplots(2, 1))
    assert "positive (n=30" in text_of(pair[0]) and "negative (n=70" in text_of(pair[1])


def test_iso_fbeta_names_each_points_fbeta_and_the_winner_and_follows_updates():
    points = {"A": (0.8, 0.5), "B": (0.5, 0.8)}
    ax = metrics_plots.plot_iso_fbeta(2.0, points, ax=Figure().subplots())

    def fbeta(r, p, b):
        return (1 + b * b) * p * r / (b * b * p + r)
    text = text_of(ax)
    assert f"A at recall 0.80, precision 0.50 lies on the dashed curve F-beta = {fbeta(0.8, 0.5, 2):.3f}" in text
    assert "A is on the higher curve and ranks first" in text  # beta 2 favours recall
    metrics_plots.update_iso_fbeta(0.5, points, ax)
    assert len(descriptions(ax)) == 1  # replaced, not appended
    assert "B is on the higher curve" in text_of(ax)
    assert f"F-beta = {fbeta(0.5, 0.8, 0.5):.3f}" in text_of(ax)


# --------------------------------------------------------------------------- cross-validation (notebook 03)
def test_cv_splits_give_test_ranges_class_shares_and_groups():
    X = np.zeros((12, 1))
    y = np.r_[np.zeros(8, int), np.ones(4, int)]
    ax = cv_plots.plot_cv_splits(KFold(3), X, y, ax=Figure().subplots())
    text = text_of(ax)
    assert "KFold: 3 splits of 12 samples" in text
    assert "trains on 8 samples and tests on 4" in text
    assert "split 1: 0-3; split 2: 4-7; split 3: 8-11" in text
    assert "class 0 (8 samples, blue) and class 1 (4 samples, red, cross-hatched)" in text
    assert "dark grey cells train, hatched gold cells test)" in text
    assert "share of class 1 in a test set goes from 0.00 to 1.00 (overall 0.33)" in text
    stratified = cv_plots.plot_cv_splits(StratifiedKFold(4), X, y, ax=Figure().subplots())
    assert "goes from 0.33 to 0.33" in text_of(stratified)
    groups = np.repeat([0, 1, 2, 3], 3)
    grouped = cv_plots.plot_cv_splits(GroupKFold(2), X, y, groups, ax=Figure().subplots())
    assert "4 groups, no group is split between training and test set" in text_of(grouped)
    leaky = cv_plots.plot_cv_splits(KFold(4), X, y, np.tile([0, 1], 6), ax=Figure().subplots())
    assert "in 4 of 4 splits a group has samples on both sides" in text_of(leaky)


def test_cv_spread_carries_range_mean_and_sd_and_follows_updates():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] + rng.normal(size=80) > 0).astype(int)
    state = cv_spread_state(LogisticRegression(), X, y, k=4, n_repeats=3, random_state=0)
    ax = cv_plots.plot_cv_spread(state, ax=Figure().subplots())
    text = text_of(ax)
    scores = np.asarray(state["scores"])
    assert "3 repeats of 4-fold cross-validation" in text
    assert f"single folds from {scores.min():.3g} to {scores.max():.3g}" in text
    estimates = scores.mean(axis=1)
    assert f"their mean {estimates.mean():.3f}" in text
    assert f"{np.std(estimates, ddof=1):.3f}" in text
    other = cv_spread_state(LogisticRegression(), X, y, k=2, n_repeats=3, random_state=0)
    cv_plots.update_cv_spread(other, ax)
    assert len(descriptions(ax)) == 1 and "3 repeats of 2-fold" in text_of(ax)


# --------------------------------------------------------------------------- learning curves (notebook 05)
def wave(x):
    return np.sin(2 * np.pi * x)


def test_complexity_panels_give_best_degree_and_current_errors_and_follow_updates():
    x, y = noisy_sample(wave, 30, 0.3, random_state=0)
    x_val, y_val = noisy_sample(wave, 200, 0.3, random_state=1)
    states = complexity_states(x, y, x_val, y_val)
    state = states[3]
    ax_fit, ax_err = curves_plots.plot_complexity(state, axes=Figure().subplots(1, 2), noise=0.09)
    best = min(states, key=lambda d: states[d]["val_mse"])
    assert f"lowest, {states[best]['val_mse']:.3g}, at degree {best}" in text_of(ax_err)
    assert "noise floor sigma squared = 0.09" in text_of(ax_err)
    assert "degree 3" in text_of(ax_fit) and "30 training points" in text_of(ax_fit)
    curves_plots.update_complexity(states[12], (ax_fit, ax_err))
    assert "degree 12" in text_of(ax_fit) and len(descriptions(ax_fit)) == 1
    assert f"validation {states[12]['val_mse']:.3g}" in text_of(ax_err)
    assert "noise floor sigma squared = 0.09" in text_of(ax_err)


def test_bias_variance_figures_carry_the_decomposition():
    result = bias_variance_decomposition(lambda: polynomial_model(3), wave, 0.3, np.linspace(0, 1, 15), 20,
                                         n_sets=30, random_state=0)
    ax = curves_plots.plot_bias_variance_by_x(result, ax=Figure().subplots())
    text = text_of(ax)
    assert f"bias squared (mean {result.bias2.mean():.3g})" in text and "^" not in text
    assert f"variance (mean {result.variance.mean():.3g})" in text
    ax = curves_plots.plot_fitted_models(result, n_show=5, ax=Figure().subplots())
    gap = np.abs(result.predictions.mean(axis=0) - result.f_test).max()
    assert "5 of 30 fitted models" in text_of(ax) and has_number(text_of(ax), gap, 10 ** (np.log10(gap) - 2))


def test_bias_variance_stack_cut_at_the_top_says_which_dots_lie_above_never_their_values():
    """05 §1: the straight line's panel is cut at 1, yet its description gave "1.1 or more at the two ends of x"."""
    result = bias_variance_decomposition(lambda: polynomial_model(1), wave, 0.3, np.linspace(0, 1, 21), 20,
                                         n_sets=30, random_state=0)
    order = np.argsort(result.x_test)
    error = result.error[order]
    top = float(np.quantile(error, 0.8))
    ax = curves_plots.plot_bias_variance_by_x(result, ax=Figure().subplots(), ylim=(0, top))
    text = text_of(ax)
    above = error > top
    assert ax.get_ylim() == (0, top) and above.any()
    assert f"{above.sum()} of the 21 dots, at x " in text and f"lie above the top of the panel ({top:.3g})" in text
    assert not any(has_number(text, e, 1e-3 * e) for e in error[above]), f"a value cut off is read out: {text}"
    uncut = text_of(curves_plots.plot_bias_variance_by_x(result, ax=Figure().subplots()))
    assert "above the top" not in uncut and "or more at the two ends of x" in uncut


def test_error_curves_coefficients_and_penalty_geometry():
    sizes = np.array([10, 20, 40])
    train = np.array([[0.1, 0.2], [0.2, 0.2], [0.3, 0.3]])
    val = np.array([[0.9, 1.1], [0.6, 0.6], [0.4, 0.5]])
    ax = curves_plots.plot_error_curves(sizes, train, val, ax=Figure().subplots(), label="ridge")
    text = text_of(ax)
    assert "Learning curve of ridge" in text and "over 2 folds" in text
    assert "validation error (solid) goes from 1 to 0.45" in text
    assert "gap at the largest size is 0.15" in text
    alphas = np.logspace(-3, 2, 6)
    coefs = np.array([[3, -2, 1], [2, -1, 0.5], [1, 0, 0.2], [0.5, 0, 0], [0.1, 0, 0], [0, 0, 0]], dtype=float)
    ax = curves_plots.plot_coefficient_paths(alphas, coefs, ax=Figure().subplots(), highlight=[0])
    text = text_of(ax)
    assert "3 coefficients" in text and "1 in colour" in text
    assert "from -2 to 3" in text and "3 of 3 exactly zero" in text
    A, w_hat = np.array([[2.0, 0.5], [0.5, 1.0]]), np.array([1.5, 0.4])
    axes = curves_plots.plot_penalty_geometry(A, w_hat, 1.0, axes=Figure().subplots(1, 2))
    l1 = penalty_constrained_minimum(A, w_hat, 1.0, 1)
    assert f"({l1[0]:.2f}, {l1[1]:.2f})" in text_of(axes[0])
    assert int(np.sum(np.isclose(l1, 0, atol=1e-6))) == 1 and "with 1 coefficient exactly zero" in text_of(axes[0])
    assert "with 0 coefficients exactly zero" in text_of(axes[1])


# --------------------------------------------------------------------------- hyperparameter search (notebook 06)
def test_search_heatmap_best_so_far_and_optimism():
    results = {"param_a": [1, 1, 2, 2], "param_b": [0, 1, 0, 1], "mean_test_score": [0.1, 0.2, 0.4, 0.3]}
    text = text_of(search_plots.plot_search_heatmap(results, "a", "b", ax=Figure().subplots()))
    assert "2 by 2 grid" in text and "highest 0.400 at a = 2, b = 0" in text and "lowest 0.100 at a = 1, b = 0" in text
    table = pd.DataFrame({"sampler": ["a"] * 4 + ["b"] * 4, "seed": [0, 0, 1, 1] * 2, "trial": [1, 2] * 4,
                          "value": [3.0, 1, 2, 2, 5, 4, 3, 3], "best_so_far": [3.0, 1, 2, 2, 5, 4, 3, 3]})
    text = text_of(search_plots.plot_best_so_far(table, ax=Figure().subplots()))
    assert "a ends at median 1.5 (seeds from 1 to 2)" in text and "b ends at median 3.5 (seeds from 3 to 4)" in text
    simulation = pd.DataFrame({"seed": [0, 1, 2], "best_score": [0.9, 0.95, 0.8], "nested": [0.85, 0.9, 0.8],
                               "truth": [0.86, 0.88, 0.82]})
    text = text_of(search_plots.plot_optimism(simulation, ax=Figure().subplots()))
    gap = (simulation["best_score"] - simulation["truth"]).mean()
    assert f"above the truth in 2 of 3 seeds, by {gap:.3g} on average" in text


@pytest.fixture(scope="module")
def tree_study():
    """A study like 06's: a categorical and an integer hyperparameter, maximised, one trial pruned."""
    optuna = pytest.importorskip("optuna")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=0))

    def objective(trial):
        criterion = trial.suggest_categorical("criterion", ["gini", "entropy"])
        depth = trial.suggest_int("max_depth", 2, 12)
        score = 0.9 + 0.01 * (criterion == "entropy") - 0.002 * abs(depth - 5)
        for step in range(3):
            trial.report(score, step)
            if trial.number == 3 and step == 1:
                raise optuna.TrialPruned()
        return score

    study.optimize(objective, n_trials=12)
    return optuna, study


def _described(optuna, study, name, **kwargs):
    axes = search_plots.optuna_plot(getattr(optuna.visualization.matplotlib, f"plot_{name}"), study, **kwargs)
    axes = list(np.ravel(axes))
    return [text_of(ax) for ax in axes], long_description(axes[0].figure)


def test_each_optuna_plot_says_what_that_plot_shows(tree_study):
    optuna, study = tree_study
    complete = [t for t in study.trials if t.state.name == "COMPLETE"]
    best = study.best_trial
    (history,), _ = _described(optuna, study, "optimization_history")
    values = np.array([t.value for t in complete])
    assert f"Each of {len(complete)} completed trials' score as a dot" in history
    assert (f"the best is {np.maximum.accumulate(values)[4]:.4g} after 5 completed trials and {best.value:.4g} at the "
            f"end, first reached at trial {best.number}") in history
    (intermediate,), _ = _described(optuna, study, "intermediate_values")
    assert (f"{len(complete)} of {len(study.trials)} trials report a score at every step, 0 to 2, the other 1 stop "
            f"after 2 steps (pruned)") in intermediate, intermediate
    (importances,), _ = _described(optuna, study, "param_importances")
    assert re.search(r"importance for the score over \d+ completed trials: (max_depth|criterion) \d\.\d\d and "
                     r"(max_depth|criterion) \d\.\d\d\.$", importances), importances
    (parallel,), details = _described(optuna, study, "parallel_coordinate")
    gini = sum(t.params["criterion"] == "gini" for t in complete)
    low = min(complete, key=lambda t: t.value)
    assert f"{len(complete) - gini} used entropy" in parallel and f"{gini} used gini" in parallel
    assert f"the lowest score, {low.value:.3g}, had criterion {low.params['criterion']}" in parallel
    assert len(details) == 1 and "unlabelled" not in details[0] and "A panel" not in details[0], details
    (contour,), _ = _described(optuna, study, "contour", params=["criterion", "max_depth"])
    assert f"the best score, {best.value:.4g}, at criterion {best.params['criterion']}" in contour
    slices, details = _described(optuna, study, "slice")
    assert len(slices) == len(details) == 2, "one paragraph per panel, each its own"
    late = complete[-(len(complete) // 3):]
    depths = [t.params["max_depth"] for t in late]
    slice_of_depth = next(text for text in slices if text.startswith("Slice of max_depth"))
    assert f"the last {len(late)} trials (the darkest dots) used {min(depths)} to {max(depths)}" in slice_of_depth
    assert all("Infeasible" not in text and "unlabelled" not in text for text in slices)
    texts = [history, intermediate, importances, parallel, contour, *slices]
    assert len(set(texts)) == len(texts), "no sentence is shared by two Optuna figures"


# --------------------------------------------------------------------------- oversampling (notebook 04)
def test_oversampling_figures_count_classes_synthetic_points_categories_and_links():
    X, y = toy_imbalanced(60, 12, random_state=0)
    text = text_of(resampling_plots.plot_classes(X, y, ax=Figure().subplots()))
    assert "60 majority samples (blue dots) and 12 minority samples (red triangles)" in text
    X_new, base, neighbour, _ = smote_by_hand(X[y == 1], 10, k_neighbors=3, random_state=0)
    ax = resampling_plots.plot_smote(X, y, X_new, base, neighbour, ax=Figure().subplots())
    pairs = len({(b, n) for b, n in zip(base, neighbour)})
    assert (f"10 synthetic samples (gold diamonds) made from {len(set(base))} minority base points, each on one "
            f"of the {pairs} grey segments") in text_of(ax)
    X_more, base2, neighbour2, _ = smote_by_hand(X[y == 1], 25, k_neighbors=3, random_state=1)
    resampling_plots.update_smote(X[y == 1], X_more, base2, neighbour2, ax)
    assert len(descriptions(ax)) == 1 and "25 synthetic samples" in text_of(ax)
    assert "60 majority samples" in text_of(ax)
    categories = borderline_categories(X, y, 1, m_neighbors=5)
    text = text_of(resampling_plots.plot_borderline(X, y, categories, ax=Figure().subplots()))
    assert f"{np.sum(categories == 'danger')} danger (hollow red squares)" in text
    assert f"{np.sum(categories == 'safe')} safe" in text
    links = tomek_links(X, y)
    text = text_of(resampling_plots.plot_tomek_links(X, y, links, ax=Figure().subplots()))
    assert f" {len(links)} black segments" in text


def test_sampler_scores_list_each_mean_and_spread():
    index = pd.MultiIndex.from_product([["none", "SMOTE"], ["no", "yes"]])
    columns = pd.MultiIndex.from_product([["F1"], ["mean", "std"]])
    table = pd.DataFrame([[0.1, 0.01], [0.2, 0.02], [0.3, 0.03], [0.4, 0.04]], index=index, columns=columns)
    text = text_of(resampling_plots.plot_sampler_scores(table, "F1", ax=Figure().subplots()))
    assert "SMOTE: 0.300 +/- 0.030 with class weights no, 0.400 +/- 0.040 with class weights yes" in text


def test_roc_and_pr_sentences_carry_auc_ap_and_an_operating_point():
    from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    s = y * 0.8 + rng.normal(size=300)
    text = roc_plots.roc_sentence(y, s, "a model")
    fpr, tpr, _ = roc_curve(y, s)
    assert text.startswith(f"ROC curve of a model: AUC {roc_auc_score(y, s):.3f}; at FPR 0.1 the TPR is "
                           f"{np.interp(0.1, fpr, tpr):.2f}")
    assert "below the diagonal" in roc_plots.roc_sentence(y, -s, "reversed")
    text = roc_plots.pr_sentence(y, s, "a model")
    assert f"AP {average_precision_score(y, s):.3f}" in text and f"chance level (the positive share) {y.mean():.3f}" in text


# --------------------------------------------------------------------------- the committed notebooks
NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def image_outputs(path):
    """(cell id, PNG, alt, the long description shown right after the figure or None) of each figure."""
    notebook = json.loads(path.read_text())
    for cell in notebook["cells"]:
        outputs = cell.get("outputs", [])
        for i, output in enumerate(outputs):
            if "image/png" in output.get("data", {}):
                after = outputs[i + 1].get("data", {}).get("text/html") if i + 1 < len(outputs) else None
                after = "".join(after) if isinstance(after, list) else after
                yield (cell["id"], output["data"]["image/png"],
                       output.get("metadata", {}).get("image/png", {}).get("alt"), after)


def test_the_six_notebooks_are_checked():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_of_a_notebook_has_a_short_alt_and_a_long_description(path):
    outputs = list(image_outputs(path))
    assert outputs, f"{path.name} has no figure"
    for cell_id, _, alt, details in outputs:
        assert alt, f"{path.name}, cell {cell_id}: a figure without a text alternative"
        assert len(alt) <= ALT_LIMIT, f"{path.name}, cell {cell_id}: an alt of {len(alt)} characters: {alt!r}"
        words = alt.split()
        assert len(words) >= 12 and alt.rstrip().endswith("."), f"{path.name}, cell {cell_id}: not a sentence: {alt!r}"
        assert re.search(r"\d", alt), f"{path.name}, cell {cell_id}: a description without a number: {alt!r}"
        assert "No description has been provided" not in alt
        assert details and details.startswith('<details class="course-figure-details"><summary>Figure details'), \
            f"{path.name}, cell {cell_id}: no long description under the figure"
        paragraphs = re.findall(r"<p>(.*?)</p>", details)
        assert paragraphs and all(len(p.split()) >= 5 for p in paragraphs), f"{path.name}, cell {cell_id}: {details}"
        for wrong in (r"unlabelled", r"A panel with", r"\b0 points", r"\de-\d", r"\(s\)", r"\b1 samples\b",
                      r"\b(green|orange|blue|red) (nearly )?hides\b"):
            assert not re.search(wrong, details + alt), f"{path.name}, cell {cell_id}: {wrong!r} in its description"
    by_alt = {}
    for cell_id, png, alt, _ in outputs:
        by_alt.setdefault(alt, set()).add(png)
    same = [alt[:80] for alt, pngs in by_alt.items() if len(pngs) > 1]
    assert not same, f"{path.name}: different figures share a description: {same}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_figures_end_with_show_not_plt_show(path):
    twin = path.parent / "py" / f"{path.stem}.py"
    assert "plt.show()" not in twin.read_text(), f"{twin.name}: a figure shown without its text alternative"


def test_smote_figure_says_how_many_synthetic_points_land_among_the_majority_and_from_where():
    from sklearn.neighbors import NearestNeighbors

    X, y = toy_imbalanced(random_state=0)
    X_new, base, neighbour, _ = smote_by_hand(X[y == 1], 135, k_neighbors=5, random_state=0)
    text = descriptions(resampling_plots.plot_smote(X, y, X_new, base, neighbour, ax=Figure().subplots()))[-1]
    nearest = NearestNeighbors(n_neighbors=1).fit(X).kneighbors(X_new, return_distance=False)[:, 0]
    among_majority = y[nearest] == 0  # the nearest original sample is a majority one
    assert text.startswith(f"{among_majority.sum()} of 135 synthetic points lie nearer a majority sample"), text
    minority = X[y == 1]
    neighbours = NearestNeighbors(n_neighbors=6).fit(X).kneighbors(minority, return_distance=False)[:, 1:]
    lonely = int(np.argmax((y[neighbours] == 0).mean(axis=1)))
    assert f"at ({minority[lonely, 0]:.2f}, {minority[lonely, 1]:.2f})" in text
    assert f"sends {int((among_majority & (base == lonely)).sum())} of its {int((base == lonely).sum())}" in text


def test_borderline_samplers_figure_counts_where_the_synthetic_points_land():
    """04 §5: SVM-SMOTE's extrapolated points were said to "push past the outermost minority samples" and to
    "follow the SVM's margin"; the description now counts, from the data, where each sampler's points lie."""
    from imblearn.over_sampling import SVMSMOTE, BorderlineSMOTE
    from scipy.spatial import ConvexHull

    X, y = toy_imbalanced(random_state=0)
    minority = X[y == 1]
    hull = ConvexHull(minority)
    outside_hull = lambda P: (P @ hull.equations[:, :2].T + hull.equations[:, 2] > 1e-12).any(axis=1)  # noqa: E731
    X_svm = SVMSMOTE(random_state=0).fit_resample(X, y)[0][len(X):]
    where = resampling_plots.synthetic_positions(X, y, X_svm)
    steps, _ = synthetic_steps(X_svm, minority)
    assert where["beyond"] == int((steps < 0).sum()) > 0 and where["between"] == int((steps >= 0).sum())
    assert where["off_line"] == 0 and 0.4 < where["max_beyond"] <= 0.5, "SVMSMOTE's out_step is 0.5"
    assert where["outside"] == int(outside_hull(X_svm).sum()) < where["beyond"] / 4, \
        "most extrapolated points stay inside the minority samples' outline"
    text = text_of(resampling_plots.plot_oversampled(X, y, X_svm, "SVM-SMOTE", ax=Figure().subplots()))
    assert (f"{where['between']} lie between two minority samples and {where['beyond']} beyond one of them, at most "
            f"{where['max_beyond']:.2g} of a segment past it; {where['outside']} lie outside the outline") in text, text
    assert "margin" not in text and "outermost" not in text
    X_b2 = BorderlineSMOTE(kind="borderline-2", random_state=0).fit_resample(X, y)[0][len(X):]
    where = resampling_plots.synthetic_positions(X, y, X_b2)
    assert where["off_line"] > 0 and where["outside"] == int(outside_hull(X_b2).sum()) > 0
    assert f"{where['off_line']} on no line through two minority samples" in text_of(
        resampling_plots.plot_oversampled(X, y, X_b2, "Borderline-2", ax=Figure().subplots()))
    with pytest.raises(ValueError, match="no synthetic point"):
        resampling_plots.plot_oversampled(X, y, np.empty((0, 2)), "none", ax=Figure().subplots())


def test_learning_curves_say_where_two_models_coincide_from_the_numbers_not_the_colours():
    """05 §3: "green nearly hides orange" judged colours; the description says up to which size two curves agree."""
    sizes = np.array([5, 25, 100, 500, 2000])
    folds = lambda values: np.repeat(np.asarray(values, dtype=float)[:, None], 3, axis=1)  # noqa: E731
    curves = {"forest": (folds([3.0, 2.4, 2.0, 1.9, 1.7]), folds([11.8, 6.0, 5.1, 4.4, 4.1])),
              "limited forest": (folds([3.0, 2.5, 2.0, 2.2, 3.0]), folds([11.8, 5.9, 5.2, 4.4, 4.1])),
              "linear": (folds([0.0, 3.0, 4.0, 4.4, 4.5]), folds([13.3, 5.5, 4.8, 4.6, 4.6]))}
    ax = curves_plots.plot_learning_curves(sizes, curves, ax=Figure().subplots(), unit="MW")
    text = text_of(ax)
    assert ("The curves of forest and limited forest coincide up to 100 rows: their training and validation errors differ by at "
            "most 0.1 MW; they part after that, and at 2,000 rows training is 1.7 against 3") in text, text
    assert "linear and" not in text and "and linear" not in text, "curves apart from the start are not said to coincide"
    assert text.count("Learning curve of") == 3 and "green" not in text and "orange" not in text
    # a legend short enough for a slide (issue 43): a model per colour and marker, then the two line styles
    entries = [t.get_text() for t in ax.get_legend().get_texts()]
    assert entries == ["forest", "limited forest", "linear", "validation", "training"], entries
    styles = [h.get_linestyle() for h in ax.get_legend().legend_handles]
    assert styles == ["None", "None", "None", "-", "--"], styles
    for loc, right in (("upper right", True), ("upper left", False)):
        placed = curves_plots.plot_learning_curves(sizes, curves, ax=Figure().subplots(), legend={"loc": loc})
        placed.figure.draw_without_rendering()
        box, frame = placed.get_legend().get_window_extent(), placed.get_window_extent()
        assert (box.x1 > frame.x1 - 20) == right and box.y1 > frame.y1 - 20, f"the legend is not {loc}"
    with pytest.raises(ValueError, match="curves is empty"):
        curves_plots.plot_learning_curves(sizes, {}, ax=Figure().subplots())


def test_expected_improvement_is_read_to_two_digits_as_a_person_says_it():
    """06 §7 read "highest, 0.042055": six digits nobody says aloud."""
    from types import SimpleNamespace

    grid = np.linspace(-4, 2, 61)
    step = SimpleNamespace(grid=grid, ei=0.042055 * np.exp(-((grid - 0.38) ** 2)))
    text = text_of(search_plots.plot_expected_improvement(step, ax=Figure().subplots(), x_label="log10 C"))
    assert "highest, 0.042, at log10 C = 0.4" in text, text


def test_reliability_diagram_says_one_sample_not_one_samples():
    """04 §9 read "the largest gap ... is in the bin (0.800, 0.900] with 1 samples"."""
    from helpers.calibration_plots import plot_reliability

    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 0])
    p = np.array([0.05, 0.1, 0.15, 0.2, 0.45, 0.5, 0.55, 0.6, 0.95])  # one sample, a negative, in the top bin
    text = text_of(plot_reliability(y, p, "one in the top bin", n_bins=10, ax=Figure().subplots()))
    assert text.endswith("the largest gap, -0.950, is in the bin (0.900, 1.000] with 1 sample."), text
