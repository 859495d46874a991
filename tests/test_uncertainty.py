"""How sure is a number? The intervals and paired tests of notebooks 01-03.

helpers.metrics (Wilson and Clopper-Pearson intervals, McNemar's exact test,
precision at another prevalence), helpers.roc (DeLong's test, the paired
bootstrap of an AUC difference, the 11-point AP of PASCAL VOC 2007) and
helpers.cv (the textbook fold interval, fold scores over data sets, the
optimism bootstrap): values worked out by hand, property tests against scipy
and scikit-learn, and the contract (ValueError naming the problem, inputs
untouched).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.metrics import roc_auc_score
from sklearn.naive_bayes import GaussianNB

from helpers.cv import (estimates_from_fold_scores, estimates_over_datasets, fold_scores_over_datasets,
                        fold_t_intervals, optimism_bootstrap)
from helpers.metrics import (binary_metrics, mcnemar_test, predictive_values_at_prevalence,
                             proportion_interval)
from helpers.roc import (average_precision_by_hand, bootstrap_auc_interval, delong_test,
                         interpolated_average_precision, paired_bootstrap_auc_difference, recall_at_fpr, roc_table)

PROPERTY = settings(max_examples=80, deadline=None, derandomize=True)


# --------------------------------------------------------------------------- proportion intervals
def test_wilson_interval_of_recall_20_of_130_by_its_formula():
    z = stats.norm.ppf(0.975)
    p, n = 20 / 130, 130
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    result = proportion_interval(20, 130)
    assert result.estimate == pytest.approx(20 / 130)
    assert (result.low, result.high) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert (round(result.low, 3), round(result.high, 3)) == (0.102, 0.226)  # the review's "about [0.10, 0.23]"
    assert result.method == "wilson" and result.confidence == 0.95 and result.trials == 130


def test_clopper_pearson_by_its_beta_quantiles_and_edges():
    result = proportion_interval(3, 10, confidence=0.9, method="clopper-pearson")
    assert result.low == pytest.approx(stats.beta.ppf(0.05, 3, 8), abs=1e-12)
    assert result.high == pytest.approx(stats.beta.ppf(0.95, 4, 7), abs=1e-12)
    none = proportion_interval(0, 10, method="clopper-pearson")
    assert none.low == 0 and none.high == pytest.approx(1 - 0.025 ** (1 / 10), abs=1e-12)  # (alpha/2)^(1/n)
    every = proportion_interval(10, 10, method="clopper-pearson")
    assert every.high == 1 and every.low == pytest.approx(0.025 ** (1 / 10), abs=1e-12)
    assert proportion_interval(0, 10).low == 0 and proportion_interval(10, 10).high == 1


@PROPERTY
@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_proportion_intervals_equal_scipy_binomtest(counts, confidence):
    k, n = counts
    for method, scipy_method in (("wilson", "wilson"), ("clopper-pearson", "exact")):
        ours = proportion_interval(k, n, confidence, method)
        theirs = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method=scipy_method)
        assert (ours.low, ours.high) == pytest.approx((theirs.low, theirs.high), abs=1e-9), method
        assert ours.low <= k / n <= ours.high


def test_clopper_pearson_with_one_success_and_the_fields():
    one = proportion_interval(1, 20, method="clopper-pearson")
    assert one.low == pytest.approx(1 - 0.975 ** (1 / 20), abs=1e-12) and one.low > 0  # Beta(1, n) quantile
    assert (one.successes, one.trials, one.estimate) == (1, 20, 0.05)


def test_wilson_is_narrower_at_a_lower_confidence():
    assert proportion_interval(20, 130, 0.9).high < proportion_interval(20, 130, 0.95).high
    assert proportion_interval(20, 130, 0.9).low > proportion_interval(20, 130, 0.95).low


@pytest.mark.parametrize("args, message", [
    ((5, 0), "trials must be at least 1"),
    ((-1, 10), "successes must be at least 0"),
    ((11, 10), "successes must be at most trials"),
    ((2.0, 10), "successes must be an integer"),
    ((True, 10), "successes must be an integer"),
    ((2, 10, 1.0), "confidence must be a number strictly between 0 and 1"),
    ((2, 10, 0.95, "exact"), "method must be one of"),
])
def test_proportion_interval_refuses_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        proportion_interval(*args)


# --------------------------------------------------------------------------- McNemar
def test_mcnemar_counts_the_discordant_pairs_by_hand():
    y = np.array([1, 1, 1, 0, 0, 0, 1, 0])
    a = np.array([1, 1, 0, 0, 0, 1, 1, 0])  # right on 0, 1, 3, 4, 6, 7
    b = np.array([1, 0, 0, 1, 1, 0, 1, 0])  # right on 0, 5, 6, 7
    result = mcnemar_test(y, a, b)
    # a right and b wrong: 1, 3, 4; b right and a wrong: 5; both right: 0, 6, 7; both wrong: 2
    assert (result.only_a_right, result.only_b_right, result.both_right, result.both_wrong) == (3, 1, 3, 1)
    assert result.accuracy_difference == pytest.approx(2 / 8)
    # P(X <= 1) for Binomial(4, 1/2) = 5/16, two-sided 10/16
    assert result.p_value == pytest.approx(10 / 16)


def test_mcnemar_with_no_discordant_pair_and_word_labels():
    same = mcnemar_test(["a", "b", "a"], ["a", "a", "a"], ["a", "a", "a"])
    assert same.p_value == 1.0 and same.only_a_right == same.only_b_right == 0 and same.both_wrong == 1
    lopsided = mcnemar_test(np.ones(10), np.ones(10), np.zeros(10))
    assert lopsided.only_a_right == 10 and lopsided.p_value == pytest.approx(2 / 2**10)


@PROPERTY
@given(st.integers(2, 80).flatmap(lambda n: st.tuples(*(st.lists(st.integers(0, 2), min_size=n, max_size=n)
                                                        for _ in range(3)))))
def test_mcnemar_equals_scipy_binomtest_on_the_discordant_pairs(labels):
    y, a, b = map(np.array, labels)
    copies = [y.copy(), a.copy(), b.copy()]
    result = mcnemar_test(y, a, b)
    only_a = int(np.sum((a == y) & (b != y)))
    only_b = int(np.sum((a != y) & (b == y)))
    assert (result.only_a_right, result.only_b_right) == (only_a, only_b)
    expected = 1.0 if only_a + only_b == 0 else stats.binomtest(only_a, only_a + only_b).pvalue
    assert result.p_value == pytest.approx(expected, abs=1e-12)
    assert result.accuracy_difference == pytest.approx(np.mean(a == y) - np.mean(b == y))
    assert result.both_right + result.both_wrong + only_a + only_b == y.size
    assert mcnemar_test(y, b, a).p_value == pytest.approx(result.p_value)  # symmetric
    for before, after in zip(copies, (y, a, b)):
        np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("args, message", [
    (([1, 0], [1, 0, 1], [1, 0]), "y_true and y_pred_a have different lengths: 2 and 3"),
    (([1, 0], [1, 0], [1]), "y_true and y_pred_b have different lengths: 2 and 1"),
    (([], [], []), "y_true is empty"),
    (([1, np.nan], [1, 0], [1, 0]), "y_true contains NaN"),
])
def test_mcnemar_refuses_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        mcnemar_test(*args)


# --------------------------------------------------------------------------- another prevalence
def test_predictive_values_at_the_test_sets_own_prevalence_equal_the_counts():
    tp, fp, fn, tn = 90, 140, 210, 9560  # the notes' cancer classifier
    m = binary_metrics(tp, fp, fn, tn)
    at_own = predictive_values_at_prevalence(m["recall"], m["specificity"], m["prevalence"])
    assert at_own["precision"] == pytest.approx(m["precision"]) and at_own["npv"] == pytest.approx(m["npv"])
    # post-test odds = pre-test odds x LR+
    at_ten = predictive_values_at_prevalence(m["recall"], m["specificity"], 0.1)
    odds = at_ten["precision"] / (1 - at_ten["precision"])
    assert odds == pytest.approx(0.1 / 0.9 * m["lr_plus"])
    odds_negative = (1 - at_ten["npv"]) / at_ten["npv"]
    assert odds_negative == pytest.approx(0.1 / 0.9 * m["lr_minus"])


def test_predictive_values_at_the_edges():
    assert predictive_values_at_prevalence(0.8, 0.9, 0.5) == pytest.approx({"precision": 0.8 / 0.9, "npv": 0.9 / 1.1})
    edge = predictive_values_at_prevalence(0.0, 1.0, 0.3)  # never positive: precision 0/0
    assert math.isnan(edge["precision"]) and edge["npv"] == pytest.approx(0.7)
    assert predictive_values_at_prevalence(0.5, 0.5, 1)["precision"] == 1


@pytest.mark.parametrize("args, message", [
    ((1.2, 0.9, 0.1), "recall must be a number in"), ((0.8, -0.1, 0.1), "specificity must be a number in"),
    ((0.8, 0.9, "0.1"), "prevalence must be a number in"), ((True, 0.9, 0.1), "recall must be a number in"),
    ((0.8, 0.9, np.nan), "prevalence must be a number in"),
])
def test_predictive_values_refuse_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        predictive_values_at_prevalence(*args)


# --------------------------------------------------------------------------- 11-point AP
def test_eleven_point_ap_reads_the_best_real_precision_at_recall_zero():
    # the review's case: a negative ranked first; PASCAL VOC 2007 gives 0.5, the plain AP is 0.5
    assert interpolated_average_precision([0, 1, 0, 1], [4, 3, 2, 1], n_points=11) == pytest.approx(0.5)
    assert average_precision_by_hand([0, 1, 0, 1], [4, 3, 2, 1]) == pytest.approx(0.5)


def test_eleven_point_ap_can_be_below_the_plain_ap():
    # 99 positives first, 10,000 negatives, then the last positive
    y = np.concatenate([np.ones(99), np.zeros(10_000), [1]])
    s = -np.arange(y.size, dtype=float)
    plain = average_precision_by_hand(y, s)
    assert plain == pytest.approx((99 + 100 / 10_100) / 100)
    assert interpolated_average_precision(y, s) == pytest.approx(plain)
    eleven = interpolated_average_precision(y, s, n_points=11)
    assert eleven == pytest.approx((10 + 100 / 10_100) / 11)
    assert eleven < plain - 0.07


# --------------------------------------------------------------------------- DeLong and the paired bootstrap
def brute_delong(y, a, b):
    """DeLong's variance from the P x N matrix of pairwise comparisons (the definition)."""
    y = np.asarray(y).astype(bool)
    comps = []
    for s in (np.asarray(a, float), np.asarray(b, float)):
        psi = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
        comps.append((psi.mean(axis=1), psi.mean(axis=0)))
    v10 = np.array([c[0] for c in comps])
    v01 = np.array([c[1] for c in comps])
    s10, s01 = np.cov(v10), np.cov(v01)
    variance = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / y.sum() + (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / (~y).sum()
    return v10[0].mean() - v10[1].mean(), variance


def test_delong_on_five_patients_by_hand():
    # A ranks all 6 (positive, negative) pairs right; B gets 4: V10_B = [0, 1, 1], V01_B = [2/3, 2/3]
    # Var = var([0, 1, 1]) / 3 = (1/3) / 3; SE = 1/3; difference 1/3; z = 1
    result = delong_test([0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.7, 0.8], [0.3, 0.6, 0.2, 0.7, 0.9])
    assert (result.auc_a, result.auc_b) == pytest.approx((1, 2 / 3))
    assert result.standard_error == pytest.approx(1 / 3)
    assert result.z == pytest.approx(1.0)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(1.0))  # 0.3173
    assert (result.ci_low, result.ci_high) == pytest.approx((1 / 3 - 1.959964 / 3, 1 / 3 + 1.959964 / 3), abs=1e-6)


@st.composite
def paired_scores(draw, max_size=40):
    n = draw(st.integers(4, max_size))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    assume(0 < sum(y) < n)
    a = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))  # few values: many ties
    b = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    return np.array(y), np.array(a, dtype=float), np.array(b, dtype=float)


@PROPERTY
@given(paired_scores())
def test_delong_equals_its_definition_and_roc_auc_score(problem):
    y, a, b = problem
    difference, variance = brute_delong(y, a, b)
    assume(variance > 1e-12)
    copies = [y.copy(), a.copy(), b.copy()]
    result = delong_test(y, a, b)
    assert result.auc_a == pytest.approx(roc_auc_score(y, a)) and result.auc_b == pytest.approx(roc_auc_score(y, b))
    assert result.difference == pytest.approx(difference)
    assert result.standard_error == pytest.approx(math.sqrt(variance), rel=1e-9)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(abs(difference) / math.sqrt(variance)), rel=1e-7)
    for before, after in zip(copies, (y, a, b)):
        np.testing.assert_array_equal(before, after)


def test_delong_agrees_with_the_paired_bootstrap_and_pairing_helps():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    shared = rng.normal(size=400)  # both models see the same hard cases: correlated scores
    a = y + shared + rng.normal(scale=0.6, size=400)
    b = y * 0.8 + shared + rng.normal(scale=0.6, size=400)
    result = delong_test(y, a, b)
    boot = paired_bootstrap_auc_difference(y, a, b, n_rounds=1500, random_state=0)
    assert boot["difference"] == pytest.approx(result.difference)
    assert boot["standard_error"] == pytest.approx(result.standard_error, rel=0.1)
    assert boot["low"] == pytest.approx(result.ci_low, abs=0.01) and boot["high"] == pytest.approx(result.ci_high, abs=0.01)
    # the unpaired SE (the two AUCs' own SEs combined as if independent) is much larger
    v_a = np.var(_placements_mean(y, a)[0], ddof=1) / y.sum() + np.var(_placements_mean(y, a)[1], ddof=1) / (y == 0).sum()
    v_b = np.var(_placements_mean(y, b)[0], ddof=1) / y.sum() + np.var(_placements_mean(y, b)[1], ddof=1) / (y == 0).sum()
    assert math.sqrt(v_a + v_b) > 1.5 * result.standard_error


def _placements_mean(y, s):
    y = np.asarray(y).astype(bool)
    psi = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
    return psi.mean(axis=1), psi.mean(axis=0)


def test_paired_bootstrap_is_reproducible_and_keeps_the_classes():
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    a = np.array([0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.3, 0.9])
    b = np.array([0.2, 0.1, 0.5, 0.6, 0.9, 0.3, 0.4, 0.8])
    first = paired_bootstrap_auc_difference(y, a, b, n_rounds=50, random_state=3)
    again = paired_bootstrap_auc_difference(y, a, b, n_rounds=50, random_state=3)
    np.testing.assert_array_equal(first["differences"], again["differences"])
    assert first["difference"] == pytest.approx(roc_auc_score(y, a) - roc_auc_score(y, b))
    assert first["low"] <= first["high"] and first["n_rounds"] == 50
    assert 0 <= first["p_value"] <= 1
    same = paired_bootstrap_auc_difference(y, a, a, n_rounds=20, random_state=0)
    assert same["difference"] == 0 and not same["differences"].any() and same["p_value"] == 1


def test_paired_bootstrap_summaries_are_those_of_its_differences():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1], 30)
    a, b = y + rng.normal(size=60), y + rng.normal(size=60)
    result = paired_bootstrap_auc_difference(y, a, b, random_state=0, confidence=0.9)
    d = result["differences"]
    assert d.size == 1000 and result["n_rounds"] == 1000  # the default
    assert (result["low"], result["high"]) == pytest.approx(tuple(np.quantile(d, [0.05, 0.95])))
    assert result["standard_error"] == pytest.approx(d.std(ddof=1))
    assert result["p_value"] == pytest.approx(min(1.0, 2 * min(np.mean(d <= 0), np.mean(d >= 0))))
    assert 0 < result["p_value"] < 1
    with pytest.raises(ValueError, match="^confidence must be a number strictly between 0 and 1"):
        paired_bootstrap_auc_difference(y, a, b, confidence=0)


def test_paired_bootstrap_p_value_is_small_for_a_clear_winner():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 100)
    result = paired_bootstrap_auc_difference(y, y + rng.normal(scale=0.3, size=200), rng.normal(size=200),
                                             n_rounds=200, random_state=0)
    assert result["p_value"] == 0 and result["low"] > 0.3


@pytest.mark.parametrize("call, message", [
    (lambda: delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3]), "y_true and y_score have different lengths"),
    (lambda: delong_test([1, 1, 1], [1, 2, 3], [3, 2, 1]), "only one class"),
    (lambda: delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4]), "no variance"),
    (lambda: delong_test([0, 1], [1, 2], [2, 1], confidence=95), "confidence must be"),
    (lambda: paired_bootstrap_auc_difference([0, 1], [1, np.inf], [2, 1]), "infinite"),
    (lambda: paired_bootstrap_auc_difference([0, 1], [1, 2], [2, 1], n_rounds=1), "n_rounds must be at least 2"),
])
def test_paired_auc_comparisons_refuse_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    # one positive: the placements' covariance is over one sample (no "rank every pair alike": they do not)
    (lambda: delong_test([0, 0, 0, 1], [.1, .5, .3, .4], [.2, .1, .6, .3]), "only 1 positive sample.*DeLong"),
    (lambda: delong_test([1, 1, 0, 1], [.1, .5, .3, .4], [.2, .1, .6, .3]), "only 1 negative sample"),
    # AUC 0.5 against AUC 1: a difference of -0.5 whose estimated variance is 0
    (lambda: delong_test([0, 1, 0, 1, 1], [.5] * 5, [.1, .9, .2, .8, .3]), r"difference \(-0.5\) no variance"),
    (lambda: bootstrap_auc_interval([0, 1, 0, 0], [.1, .9, .2, .3]), "only 1 positive sample.*cannot vary"),
    (lambda: paired_bootstrap_auc_difference([0, 1, 0, 0], [.1, .9, .2, .3], [.3, .2, .1, .4]),
     "only 1 positive sample"),
])
def test_uncertainty_at_the_edges_raises_a_clear_error_and_no_numpy_warning(call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NumPy RuntimeWarning before the error fails the test
        with pytest.raises(ValueError, match=message):
            call()


def test_paired_bootstrap_of_another_metric_pairs_the_rows_and_returns_its_difference():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], [150, 50])
    a, b = y + rng.normal(scale=0.8, size=200), y + rng.normal(scale=1.2, size=200)

    def partial_auc(labels, scores):
        return roc_auc_score(labels, scores, max_fpr=0.1)

    result = paired_bootstrap_auc_difference(y, a, b, n_rounds=300, random_state=0, metric=partial_auc)
    assert result["difference"] == pytest.approx(partial_auc(y, a) - partial_auc(y, b))
    assert result["low"] < result["difference"] < result["high"]
    # the same rows for both models: b against itself differs by exactly 0 in every round
    same = paired_bootstrap_auc_difference(y, b, b, n_rounds=50, random_state=0, metric=partial_auc)
    assert np.all(same["differences"] == 0)
    # the default is the ROC AUC
    assert paired_bootstrap_auc_difference(y, a, b, n_rounds=2, random_state=0)["difference"] == pytest.approx(
        roc_auc_score(y, a) - roc_auc_score(y, b))
    with pytest.raises(ValueError, match="metric must be None or a function"):
        paired_bootstrap_auc_difference(y, a, b, metric="pauc")
    with pytest.raises(ValueError, match="metric must return a finite number"):
        paired_bootstrap_auc_difference(y, a, b, metric=lambda labels, scores: np.nan)


def test_recall_at_fpr_is_the_roc_tables_best_tpr_within_the_budget():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    scores = y + rng.normal(size=300)
    table = roc_table(y, scores)
    for budget in (0.01, 0.1, 0.37):
        assert recall_at_fpr(y, scores, budget) == table.query("fpr <= @budget")["tpr"].max()
    assert recall_at_fpr([0, 0, 1, 1], [1, 2, 3, 4], 0.4) == 1.0  # a perfect ranking finds all at FPR 0


# --------------------------------------------------------------------------- fold intervals and data sets
def test_fold_t_interval_by_its_formula():
    scores = np.array([0.6, 0.7, 0.65, 0.55, 0.75])
    row = fold_t_intervals(scores).iloc[0]
    se = scores.std(ddof=1) / math.sqrt(5)
    assert row["estimate"] == pytest.approx(0.65) and row["naive SE"] == pytest.approx(se)
    assert row["high"] - row["estimate"] == pytest.approx(stats.t.ppf(0.975, 4) * se)
    table = fold_t_intervals(np.vstack([scores, scores + 0.1]), confidence=0.9)
    assert list(table.index) == [1, 2] and table["estimate"].tolist() == pytest.approx([0.65, 0.75])
    assert table["high"].iloc[0] - 0.65 == pytest.approx(stats.t.ppf(0.95, 4) * se)
    # what scipy's own t interval gives for the same five numbers
    low, high = stats.t.interval(0.95, 4, loc=scores.mean(), scale=stats.sem(scores))
    assert (row["low"], row["high"]) == pytest.approx((low, high))


@pytest.mark.parametrize("scores, message", [
    ([0.5], "^at least two fold scores per row are needed; got 1"),
    ([[0.5, np.nan]], "^fold_scores contains NaN or infinite values$"),
    (np.zeros((2, 2, 2)), "^fold_scores must be one row of k scores or a table"),
    (["0.5", "0.6"], "^fold_scores must hold numbers"),
])
def test_fold_t_intervals_refuse_bad_input(scores, message):
    with pytest.raises(ValueError, match=message):
        fold_t_intervals(scores)


def test_fold_t_intervals_names_the_confidence_and_takes_whole_numbers():
    with pytest.raises(ValueError, match="^confidence must be a number strictly between 0 and 1"):
        fold_t_intervals([0.5, 0.6], confidence=1.5)
    whole = fold_t_intervals([1, 0, 1, 1])  # accuracies of single-sample folds are 0 or 1
    assert whole["estimate"].iloc[0] == 0.75 and whole["naive SE"].iloc[0] == pytest.approx(0.25)


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=240, n_features=4, n_informative=2, n_redundant=0, weights=[0.6],
                               random_state=0)


def test_fold_scores_over_datasets_average_to_the_estimates(data):
    X, y = data
    folds = fold_scores_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=3, random_state=1)
    assert set(folds) == {2, 4} and folds[2].shape == (3, 2) and folds[4].shape == (3, 4)
    table = estimates_over_datasets(GaussianNB(), X, y, ks=(2, 4), n_datasets=3, random_state=1)
    pd.testing.assert_frame_equal(estimates_from_fold_scores(folds), table)
    assert table[4].tolist() == pytest.approx(folds[4].mean(axis=1).tolist())
    assert ((folds[4] >= 0) & (folds[4] <= 1)).all()
    with pytest.raises(ValueError, match="same number of data sets"):
        estimates_from_fold_scores({2: np.zeros((3, 2)), 4: np.zeros((2, 4))})
    with pytest.raises(ValueError, match="^fold_scores is empty$"):
        estimates_from_fold_scores({})


def test_fold_scores_over_datasets_defaults_are_those_of_estimates_over_datasets(data):
    X, y = data
    folds = fold_scores_over_datasets(GaussianNB(), X, y)
    assert sorted(folds) == [2, 5, 10] and all(scores.shape[0] == 8 for scores in folds.values())
    pd.testing.assert_frame_equal(estimates_from_fold_scores(folds),
                                  estimates_over_datasets(GaussianNB(), X, y, random_state=0))
    moved = fold_scores_over_datasets(GaussianNB(), X, y, ks=(5,), random_state=1)[5]
    assert not np.allclose(moved, folds[5])  # another random_state: other parts and folds


def test_optimism_bootstrap_by_hand_on_a_model_that_memorises(data):
    from sklearn.neighbors import KNeighborsClassifier

    X, y = data
    result = optimism_bootstrap(KNeighborsClassifier(n_neighbors=1), X, y, n_rounds=5, random_state=0)
    # 1-NN scores AUC 1 on its own training rows, so each round's optimism is 1 - AUC on the original rows
    assert result["apparent"] == 1.0
    assert result["corrected"] == pytest.approx(1 - result["optimism"])
    assert result["optimism"] == pytest.approx(result["optimism_per_round"].mean())
    assert (result["optimism_per_round"] > 0).all() and result["n_rounds"] == 5
    assert len(result["optimism_per_round"]) == 5
    rng = np.random.default_rng(0)
    drawn = rng.integers(0, y.size, y.size)  # the first round's sample, drawn as the helper draws it
    model = KNeighborsClassifier(n_neighbors=1).fit(X[drawn], y[drawn])
    assert result["optimism_per_round"][0] == pytest.approx(1 - roc_auc_score(y, model.predict_proba(X)[:, 1]))


def test_optimism_bootstrap_runs_fifty_rounds_by_default(data):
    X, y = data
    result = optimism_bootstrap(GaussianNB(), X, y, random_state=0)
    assert result["n_rounds"] == 50 and len(result["optimism_per_round"]) == 50


def test_optimism_bootstrap_redraws_a_sample_with_one_class():
    X = np.arange(8, dtype=float).reshape(-1, 1)
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0])  # most bootstrap samples miss the positive: redrawn, not the end
    result = optimism_bootstrap(GaussianNB(), X, y, n_rounds=6, random_state=0)
    assert len(result["optimism_per_round"]) == 6 and np.isfinite(result["corrected"])


def test_optimism_bootstrap_refuses_bad_input(data):
    X, y = data
    with pytest.raises(ValueError, match="n_rounds must be at least 1"):
        optimism_bootstrap(GaussianNB(), X, y, n_rounds=0)
    with pytest.raises(ValueError, match="at least two classes"):
        optimism_bootstrap(GaussianNB(), X, np.zeros(y.size))
    with pytest.raises(ValueError, match="different lengths"):
        optimism_bootstrap(GaussianNB(), X, y[:-1])


def test_eleven_point_ap_counts_a_recall_of_exactly_three_tenths_unlike_arange_levels():
    # 02 section 8: np.arange's fourth level is 0.30000000000000004, so "recall >= level" misses a recall of 0.3
    arange_levels = np.arange(0.0, 1.1, 0.1)
    assert arange_levels[3] == 0.30000000000000004 and not 0.3 >= arange_levels[3]
    y = np.array([1, 1, 1] + [0] * 5 + [1] * 7)  # 10 positives: the first three ranked on top, recall 0.3 exactly
    scores = -np.arange(y.size, dtype=float)
    precision_at = {}
    for level in np.linspace(0, 1, 11):
        reached = [k for k in range(1, y.size + 1) if y[:k].sum() / 10 >= level - 1e-12]
        precision_at[level] = max(y[:k].mean() for k in reached)
    assert interpolated_average_precision(y, scores, n_points=11) == pytest.approx(np.mean(list(precision_at.values())))
    assert precision_at[np.linspace(0, 1, 11)[3]] == 1.0  # recall 0.3 is reached at precision 1 (3 of 3)
