"""helpers.calibration (and its figure): values worked out by hand, properties against scikit-learn, every ValueError."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sklearn.calibration import calibration_curve  # noqa: E402
from sklearn.metrics import brier_score_loss  # noqa: E402

from helpers.calibration import (STRATEGIES, bin_edges, brier_decomposition, check_probabilities,  # noqa: E402
                                 corp_decomposition, expected_calibration_error, reliability_table, undersampling_correction)
from helpers.figures import descriptions  # noqa: E402
from helpers.calibration_plots import plot_reliability  # noqa: E402

# Six samples, two uniform bins [0, 0.5] and (0.5, 1]:
#   bin 0: p = 0.1, 0.2, 0.3 with y = 0, 0, 1 -> mean 0.2, observed 1/3
#   bin 1: p = 0.7, 0.9, 0.8 with y = 1, 1, 0 -> mean 0.8, observed 2/3
Y6 = np.array([0, 0, 1, 1, 1, 0])
P6 = np.array([0.1, 0.2, 0.3, 0.7, 0.9, 0.8])


# --------------------------------------------------------------------------- by hand
def test_reliability_table_by_hand():
    table = reliability_table(Y6, P6, n_bins=2)
    assert table.index.tolist() == [0, 1] and table.index.name == "bin"
    assert table["lower"].tolist() == [0.0, 0.5] and table["upper"].tolist() == [0.5, 1.0]
    assert table["count"].tolist() == [3, 3]
    assert table["positives"].tolist() == [1, 2] and table["positives"].dtype.kind == "i"
    assert np.allclose(table["mean_predicted"], [0.2, 0.8])
    assert np.allclose(table["observed_frequency"], [1 / 3, 2 / 3])
    assert np.allclose(table["gap"], [1 / 3 - 0.2, 2 / 3 - 0.8])  # observed - predicted: under, then over


def test_a_probability_on_an_edge_goes_to_the_bin_below_and_empty_bins_are_left_out():
    # edges 0, 0.25, 0.5, 0.75, 1: 0.25 and 0.5 close their bins; 0 opens the first; nothing in (0.5, 0.75]
    table = reliability_table([0, 1, 0, 1, 1], [0.0, 0.25, 0.5, 0.8, 1.0], n_bins=4)
    assert table.index.tolist() == [0, 1, 3]
    assert table["count"].tolist() == [2, 1, 2]
    assert np.allclose(table["mean_predicted"], [0.125, 0.5, 0.9])
    assert np.allclose(table["observed_frequency"], [0.5, 0.0, 1.0])
    assert table.loc[3, "lower"] == 0.75 and table.loc[3, "upper"] == 1.0


def test_quantile_bins_by_hand():
    # np.percentile at 1/3 and 2/3 of six sorted values: 0.2 + 2/3 x 0.1 and 0.7 + 1/3 x 0.1
    p = np.array([0.9, 0.1, 0.8, 0.3, 0.2, 0.7])
    edges = bin_edges(p, 3, "quantile")
    assert np.allclose(edges, [0.1, 0.2 + 0.2 / 3, 0.7 + 0.1 / 3, 0.9])
    table = reliability_table([1, 0, 0, 1, 0, 1], p, n_bins=3, strategy="quantile")
    assert table["count"].tolist() == [2, 2, 2]
    assert np.allclose(table["mean_predicted"], [0.15, 0.5, 0.85])
    assert np.allclose(table["observed_frequency"], [0.0, 1.0, 0.5])  # y of 0.1, 0.2 | 0.3, 0.7 | 0.8, 0.9
    assert np.allclose(bin_edges(p, 4), [0, 0.25, 0.5, 0.75, 1])  # uniform ignores the values


def test_defaults_are_ten_uniform_bins_and_positive_label_one():
    assert np.allclose(bin_edges([0.3]), np.linspace(0, 1, 11))
    rng = np.random.default_rng(3)
    y, p = rng.integers(0, 2, 300), rng.random(300)
    table = reliability_table(y, p)
    true_10, pred_10 = calibration_curve(y, p, n_bins=10)
    assert np.allclose(table["observed_frequency"], true_10) and np.allclose(table["mean_predicted"], pred_10)
    assert len(table) == 10
    assert brier_decomposition(y, p) == brier_decomposition(y, p, 10, "uniform", 1)
    assert expected_calibration_error(y, p) == expected_calibration_error(y, p, 10, "uniform", 1)
    assert expected_calibration_error(y, p) != expected_calibration_error(y, p, 5)


def test_pos_label_picks_the_class_whose_frequency_is_observed():
    table = reliability_table(np.where(Y6 == 1, "yes", "no"), P6, n_bins=2, pos_label="yes")
    assert np.allclose(table["observed_frequency"], [1 / 3, 2 / 3])
    flipped = reliability_table(Y6, P6, n_bins=2, pos_label=0)
    assert np.allclose(flipped["observed_frequency"], [2 / 3, 1 / 3])
    assert flipped["positives"].tolist() == [2, 1]


def test_expected_calibration_error_by_hand():
    # (3 |1/3 - 0.2| + 3 |2/3 - 0.8|) / 6 = 2/15
    assert np.isclose(expected_calibration_error(Y6, P6, n_bins=2), 2 / 15)
    # one bin: |mean(y) - mean(p)| = |0.5 - 0.5|
    assert np.isclose(expected_calibration_error(Y6, P6, n_bins=1), 0.0)
    # unequal counts weight the gaps: bins of 1 and 3 samples, gaps 0.9 and 1/3
    assert np.isclose(expected_calibration_error([1, 1, 1, 0], [0.1, 0.7, 0.9, 0.8], n_bins=2),
                      (1 * 0.9 + 3 * abs(2 / 3 - 0.8)) / 4)


def test_brier_decomposition_by_hand():
    parts = brier_decomposition(Y6, P6, n_bins=2)
    assert np.isclose(parts["brier"], (0.01 + 0.04 + 0.49 + 0.09 + 0.01 + 0.64) / 6)
    assert np.isclose(parts["reliability"], (2 / 15) ** 2)      # (3 (2/15)^2 + 3 (2/15)^2) / 6
    assert np.isclose(parts["resolution"], 1 / 36)              # (3 (1/6)^2 + 3 (1/6)^2) / 6
    assert np.isclose(parts["uncertainty"], 0.25)               # 0.5 x 0.5
    assert np.isclose(parts["within_bin_variance"], 0.04 / 6)   # deviations -0.1, 0, 0.1 in each bin
    assert np.isclose(parts["within_bin_covariance"], 2 * 0.1 / 6)  # 0.1 in bin 0, 0 in bin 1
    assert np.isclose(parts["within_bin"], 0.04 / 6 - 0.2 / 6)
    assert np.isclose(parts["reliability"] - parts["resolution"] + parts["uncertainty"] + parts["within_bin"],
                      parts["brier"])
    assert set(parts) == {"brier", "reliability", "resolution", "uncertainty", "within_bin",
                          "within_bin_variance", "within_bin_covariance"}
    assert all(type(value) is float for value in parts.values())


def test_within_bin_term_vanishes_when_every_bin_holds_one_value():
    y, p = [0, 1, 1, 0, 1, 1], [0.2, 0.2, 0.2, 0.7, 0.7, 0.7]
    parts = brier_decomposition(y, p, n_bins=5)
    assert abs(parts["within_bin_variance"]) < 1e-15 and abs(parts["within_bin_covariance"]) < 1e-15
    assert np.isclose(parts["reliability"], (3 * (2 / 3 - 0.2) ** 2 + 3 * (2 / 3 - 0.7) ** 2) / 6)
    assert np.isclose(parts["resolution"], 0.0) and np.isclose(parts["uncertainty"], 2 / 9)
    assert np.isclose(parts["reliability"] - parts["resolution"] + parts["uncertainty"], parts["brier"])


def test_brier_decomposition_with_quantile_bins_and_pos_label():
    parts = brier_decomposition(1 - Y6, P6, n_bins=2, strategy="quantile", pos_label=0)
    # the labels renamed (positive = 0): quantile edges 0.1, 0.5, 0.9 give the two bins of the uniform case
    assert np.isclose(parts["brier"], 1.28 / 6)
    assert np.isclose(parts["uncertainty"], 0.25)
    assert np.isclose(parts["reliability"], (2 / 15) ** 2)


def test_undersampling_correction_by_hand():
    # beta = 1/4, p_s = 1/2: (1/8) / (1/8 - 1/2 + 1) = 0.2
    assert np.allclose(undersampling_correction([0.0, 0.5, 1.0], 0.25), [0.0, 0.2, 1.0])
    # beta = 1/2, p_s = 0.8: 0.4 / (0.4 - 0.8 + 1) = 2/3
    assert np.isclose(undersampling_correction([0.8], 0.5)[0], 2 / 3)
    assert np.allclose(undersampling_correction([0.3, 0.6], 1), [0.3, 0.6])  # nothing dropped, nothing to correct
    assert undersampling_correction((0.5,), 0.25).dtype == np.float64


def test_undersampling_correction_restores_the_posterior_of_a_known_model():
    """Keep every positive and a fraction beta of the negatives: Bayes gives p_s = p / (p + beta (1 - p))."""
    p = np.linspace(0, 1, 101)
    for beta in [0.05, 0.3, 0.9]:
        p_sampled = p / (p + beta * (1 - p))
        assert np.allclose(undersampling_correction(p_sampled, beta), p)


# --------------------------------------------------------------------------- properties against scikit-learn
@st.composite
def labelled_probabilities(draw):
    n = draw(st.integers(2, 60))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:2] = [0, 1]
    grid = draw(st.sampled_from([None, 4, 10, 20]))  # a coarse grid puts probabilities on the bin edges
    if grid is None:
        p = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    else:
        p = np.array(draw(st.lists(st.integers(0, grid), min_size=n, max_size=n))) / grid
    return y, p


@settings(max_examples=120, deadline=None)
@given(data=labelled_probabilities(), n_bins=st.integers(1, 15), strategy=st.sampled_from(STRATEGIES),
       pos_label=st.sampled_from([0, 1]))
def test_table_equals_calibration_curve(data, n_bins, strategy, pos_label):
    y, p = data
    table = reliability_table(y, p, n_bins, strategy, pos_label)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy, pos_label=pos_label)
    assert np.allclose(table["observed_frequency"], prob_true) and np.allclose(table["mean_predicted"], prob_pred)
    assert table["count"].sum() == len(y) and (table["count"] > 0).all()
    assert table["positives"].sum() == np.sum(y == pos_label)
    assert (table["lower"] <= table["mean_predicted"] + 1e-12).all()
    assert (table["mean_predicted"] <= table["upper"] + 1e-12).all()


@settings(max_examples=120, deadline=None)
@given(data=labelled_probabilities(), n_bins=st.integers(1, 15), strategy=st.sampled_from(STRATEGIES))
def test_decomposition_adds_up_to_brier_score_loss(data, n_bins, strategy):
    y, p = data
    parts = brier_decomposition(y, p, n_bins, strategy)
    assert np.isclose(parts["brier"], brier_score_loss(y, p))
    assert np.isclose(parts["reliability"] - parts["resolution"] + parts["uncertainty"] + parts["within_bin"],
                      brier_score_loss(y, p))
    assert parts["reliability"] >= 0 and parts["resolution"] >= 0 and parts["within_bin_variance"] >= 0
    assert np.isclose(parts["uncertainty"], brier_score_loss(y, np.full(len(y), y.mean())))
    ece = expected_calibration_error(y, p, n_bins, strategy)
    assert 0 <= ece <= np.sqrt(parts["reliability"]) + 1e-12  # Jensen: a mean |gap| <= the root mean squared gap
    if n_bins == 1:
        assert np.isclose(ece, abs(y.mean() - p.mean()))


@settings(max_examples=60, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=30), beta=st.floats(0.01, 1))
def test_correction_multiplies_the_odds_by_beta_and_keeps_the_order(p, beta):
    p = np.array(p)
    corrected = undersampling_correction(p, beta)
    assert ((corrected >= 0) & (corrected <= 1)).all()
    inner = (p > 1e-9) & (p < 1 - 1e-9)
    assert np.allclose(corrected[inner] / (1 - corrected[inner]), beta * p[inner] / (1 - p[inner]))
    order = np.argsort(p, kind="stable")
    assert (np.diff(corrected[order]) >= -1e-12).all()
    assert (corrected <= p + 1e-12).all()  # beta <= 1 only lowers the probabilities


# --------------------------------------------------------------------------- inputs
def test_inputs_are_not_modified():
    y, p = Y6.copy(), P6.copy()
    reliability_table(y, p, 2)
    brier_decomposition(y, p, 2, "quantile")
    expected_calibration_error(y, p)
    undersampling_correction(p, 0.5)
    bin_edges(p, 3, "quantile")
    assert np.array_equal(y, Y6) and np.array_equal(p, P6)


def test_check_probabilities_returns_new_arrays():
    y, p = [0, 1, 1], np.array([0.2, 0.6, 1.0])
    is_positive, prob = check_probabilities(y, p)
    assert is_positive.tolist() == [False, True, True] and prob is not p and np.array_equal(prob, p)
    assert check_probabilities(["a", "b"], [0.1, 0.9], pos_label="a")[0].tolist() == [True, False]


@pytest.mark.parametrize("y, p, message", [
    ([0, 1, 1], [0.1, 0.2], "y_true and y_prob have different lengths: 3 and 2"),
    ([], [], "y_true is empty"),
    ([0, 1], [0.1, np.nan], "y_prob contains NaN"),
    ([0, 1], [0.1, np.inf], "y_prob contains infinite values"),
    ([0, 1], [-0.1, 0.5], r"y_prob must hold probabilities in \[0, 1\]; got values from -0.1 to 0.5"),
    ([0, 1], [0.5, 1.5], r"y_prob must hold probabilities in \[0, 1\]; got values from 0.5 to 1.5"),
    ([0, 1], ["a", "b"], "y_prob must hold numbers"),
    ([[0, 1]], [[0.2, 0.4]], "y_true must be one-dimensional"),
    ([1, 1], [0.2, 0.4], r"y_true must hold two classes; got 1: \['1'\]"),
    ([0, 1, 2], [0.2, 0.4, 0.6], r"y_true must hold two classes; got 3: \['0', '1', '2'\]"),
    ([0, np.nan], [0.2, 0.4], "y_true contains NaN"),
])
@pytest.mark.parametrize("function", [reliability_table, brier_decomposition, expected_calibration_error,
                                      check_probabilities])
def test_bad_labels_or_probabilities(function, y, p, message):
    with pytest.raises(ValueError, match=message):
        function(y, p)


@pytest.mark.parametrize("function", [reliability_table, brier_decomposition, expected_calibration_error])
def test_unknown_pos_label(function):
    with pytest.raises(ValueError, match=r"pos_label='yes' is not a label of y_true; it holds \['0', '1'\]"):
        function(Y6, P6, 2, "uniform", "yes")


@pytest.mark.parametrize("n_bins, strategy, message", [
    (0, "uniform", "n_bins must be at least 1; got 0"),
    (2.5, "uniform", "n_bins must be an integer"),
    (True, "uniform", "n_bins must be an integer"),
    (5, "kmeans", "strategy must be 'uniform' or 'quantile'; got 'kmeans'"),
    (5, None, "strategy must be 'uniform' or 'quantile'; got None"),
])
@pytest.mark.parametrize("function", [reliability_table, brier_decomposition, expected_calibration_error])
def test_bad_bins(function, n_bins, strategy, message):
    with pytest.raises(ValueError, match=message):
        function(Y6, P6, n_bins, strategy)


def test_bin_edges_checks_its_inputs():
    with pytest.raises(ValueError, match="n_bins must be at least 1"):
        bin_edges(P6, 0)
    with pytest.raises(ValueError, match="strategy must be 'uniform' or 'quantile'"):
        bin_edges(P6, 3, "equal")
    with pytest.raises(ValueError, match="y_prob contains NaN"):
        bin_edges([0.2, np.nan], 3, "quantile")


@pytest.mark.parametrize("p, beta, message", [
    ([0.2], 0, "beta must be > 0; got 0"),
    ([0.2], -0.5, "beta must be > 0"),
    ([0.2], 1.5, r"beta is the fraction of the majority class kept: it must be in \(0, 1\]; got 1.5"),
    ([0.2], np.nan, "beta must be a finite number"),
    ([0.2], "0.5", "beta must be a finite number"),
    ([0.2, 1.2], 0.5, r"prob_sampled must hold probabilities in \[0, 1\]; got values from 0.2 to 1.2"),
    ([-0.2, 0.5], 0.5, r"prob_sampled must hold probabilities in \[0, 1\]; got values from -0.2 to 0.5"),
    ([0.2, np.nan], 0.5, "prob_sampled contains NaN"),
    ([], 0.5, "prob_sampled is empty"),
])
def test_bad_correction_inputs(p, beta, message):
    with pytest.raises(ValueError, match=message):
        undersampling_correction(p, beta)


# --------------------------------------------------------------------------- the figure
def test_plot_reliability_draws_and_describes_from_the_data():
    rng = np.random.default_rng(0)
    p = rng.random(400)
    y = (rng.random(400) < p ** 2).astype(int)  # over-confident: observed p^2 < predicted p
    fig, (ax, counts_ax) = plt.subplots(2, 1)
    returned = plot_reliability(y, p, "model A", n_bins=5, ax=ax, counts_ax=counts_ax, marker="s")
    plot_reliability(y, np.sqrt(p) * 0 + p ** 2, "model B", n_bins=5, ax=ax, linestyle="--")
    assert returned is ax
    table = reliability_table(y, p, 5)
    curve = [line for line in ax.get_lines() if line.get_label() == "model A"][0]
    assert np.allclose(curve.get_xdata(), table["mean_predicted"]) and curve.get_marker() == "s"
    assert sum(line.get_label() == "Perfectly calibrated" for line in ax.get_lines()) == 1  # drawn once
    text = descriptions(ax)[0]
    assert text.startswith("Reliability diagram of model A: 5 non-empty uniform bins of 400 samples")
    assert f"expected calibration error {expected_calibration_error(y, p, 5):.3f}" in text
    worst = table.loc[table["gap"].abs().idxmax()]
    assert f"the largest gap, {worst['gap']:+.3f}" in text
    assert len(descriptions(ax)) == 2 and descriptions(ax)[1].startswith("Reliability diagram of model B")
    assert counts_ax.get_yscale() == "log"
    stairs = counts_ax.patches[0]
    assert np.array_equal(stairs.get_data().values, table["count"].to_numpy())
    assert descriptions(counts_ax)[0].startswith(f"Samples per bin for model A: {table['count'].iloc[0]} in (0.00, 0.20]")
    plt.close(fig)


def test_plot_reliability_makes_its_own_axes():
    ax = plot_reliability(Y6, P6, "six", n_bins=2)
    assert "2 non-empty uniform bins of 6 samples" in descriptions(ax)[0]
    assert ax.get_xlim() == (0, 1)
    plt.close(ax.figure)


def test_corp_decomposition_adds_up_and_separates_calibration_from_ranking():
    rng = np.random.default_rng(5)
    truth = rng.uniform(0.02, 0.6, 2000)
    y = (rng.uniform(size=2000) < truth).astype(int)
    calibrated = corp_decomposition(y, truth)
    squeezed = corp_decomposition(y, truth ** 2)  # same order, so the same discrimination; badly calibrated
    for parts in (calibrated, squeezed):
        assert parts["brier"] == pytest.approx(parts["miscalibration"] - parts["discrimination"]
                                               + parts["uncertainty"], abs=1e-12)
        assert parts["miscalibration"] >= -1e-12
    assert squeezed["discrimination"] == pytest.approx(calibrated["discrimination"], abs=1e-12)
    assert squeezed["miscalibration"] > 10 * calibrated["miscalibration"]
    assert squeezed["brier"] == pytest.approx(np.mean((truth ** 2 - y) ** 2))
    # by hand on four samples: the isotonic fit pools the violating pair (0.4, 0.6) -> outcomes (1, 0) -> 0.5 each
    parts = corp_decomposition([0, 1, 0, 1], [0.2, 0.4, 0.6, 0.8])
    assert parts["brier"] == pytest.approx((0.04 + 0.36 + 0.36 + 0.04) / 4)
    assert parts["miscalibration"] == pytest.approx(0.2 - (0 + 0.25 + 0.25 + 0) / 4)
