"""Unit tests of helpers.metrics.

Three kinds of test:
- the lecture notes' worked examples, with the values corrected where the
  notes are wrong (ERRATA.md), written as exact fractions;
- property-based tests (hypothesis) against scikit-learn and imbalanced-learn
  on random binary, multiclass and regression inputs;
- the contract's edge cases: ``nan`` without a warning for a zero
  denominator, a ``ValueError`` naming the problem for bad input, inputs
  never modified, and the scorers inside ``cross_validate`` / ``GridSearchCV``.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from imblearn import metrics as imb
from sklearn import metrics as skm
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from helpers.datasets import (
    BUY_COMPUTER,
    CANCER,
    EIGHT_PRED,
    EIGHT_TRUE,
    FLU_PRED,
    FLU_TRUE,
    HIGH_PRECISION,
    HIGH_RECALL,
    KAPPA_MATRIX,
    NOTES_CANCER_ACCURACY,
    NOTES_EIGHT_GMEAN_0,
    NOTES_EIGHT_WEIGHTED_F1,
    NOTES_KAPPA_P_E,
    NOTES_KAPPA_P_I,
    R2_EXAMPLE,
    R2_MEAN_PREDICTOR,
    R2_PERFECT,
    R2_REVERSED,
)
from helpers.metrics import (
    PER_CLASS_COLUMNS,
    binary_metrics,
    confusion_counts,
    kappa_by_hand,
    multiclass_confusion,
    npv_score,
    npv_scorer,
    per_class_metrics,
    regression_metrics,
    specificity_score,
    specificity_scorer,
)

# Reproducible in CI: the same examples on every run, nothing written to .hypothesis/.
PROPERTY = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# Each multiclass example makes a dozen library calls: fewer examples keep the run short.
MULTICLASS = settings(PROPERTY, max_examples=60)
FEW = settings(PROPERTY, max_examples=40)

BINARY_KEYS = {
    "accuracy", "error_rate", "recall", "specificity", "precision", "npv", "fpr", "fnr",
    "f1", "fbeta", "balanced_accuracy", "g_mean", "mcc", "prevalence",
}
REGRESSION_KEYS = {"mae", "mse", "rmse", "mape", "r2", "rmsle", "rae", "rrse"}
AVERAGE_ROWS = ["micro", "macro", "weighted"]


def exact(fraction, rel=1e-12):
    """pytest.approx of an exact value, tight enough to catch any formula slip."""
    return pytest.approx(float(fraction), rel=rel, abs=1e-15)


def assert_same(ours, theirs, rtol=1e-9, atol=1e-12):
    """Equal within float rounding, ``nan`` matching ``nan`` only."""
    np.testing.assert_allclose(
        np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float),
        rtol=rtol, atol=atol, equal_nan=True,
    )


def quiet(function, *args, **kwargs):
    """Call a library function, hiding its UndefinedMetricWarning and friends."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def strict(function, *args, **kwargs):
    """Call one of our functions, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return function(*args, **kwargs)


def expand(tp, fp, fn, tn, pos=1, neg=0):
    """Label arrays with exactly these counts."""
    y_true = np.array([pos] * tp + [neg] * fp + [pos] * fn + [neg] * tn)
    y_pred = np.array([pos] * tp + [pos] * fp + [neg] * fn + [neg] * tn)
    return y_true, y_pred


def expand_matrix(matrix):
    """Label arrays whose confusion matrix (rows actual) is ``matrix``."""
    matrix = np.asarray(matrix)
    rows, cols = np.indices(matrix.shape)
    counts = matrix.ravel()
    return np.repeat(rows.ravel(), counts), np.repeat(cols.ravel(), counts)


# =========================================================================== lecture notes
def test_binary_metrics_returns_every_contract_key():
    metrics = binary_metrics(*CANCER)
    assert BINARY_KEYS <= set(metrics)
    assert all(isinstance(value, float) for value in metrics.values())


def test_cancer_matrix_corrected_accuracy_recall_precision():
    m = binary_metrics(*CANCER)  # TP=90, FP=140, FN=210, TN=9560
    assert m["accuracy"] == exact(F(9650, 10000))
    assert round(m["accuracy"], 3) == 0.965
    assert round(m["accuracy"], 3) != NOTES_CANCER_ACCURACY  # the notes' 96.4 % is wrong
    assert m["error_rate"] == exact(F(350, 10000))
    assert m["recall"] == exact(F(90, 300))
    assert m["precision"] == exact(F(90, 230))
    assert m["specificity"] == exact(F(9560, 9700))
    assert m["npv"] == exact(F(9560, 9770))  # NPV is not specificity (ERRATA)
    assert m["fpr"] == exact(F(140, 9700))
    assert m["fnr"] == exact(F(210, 300))
    assert m["prevalence"] == exact(F(300, 10000))
    assert m["f1"] == exact(F(180, 180 + 210 + 140))
    assert m["balanced_accuracy"] == exact((F(90, 300) + F(9560, 9700)) / 2)
    assert m["g_mean"] == exact(math.sqrt(F(90, 300) * F(9560, 9700)))
    assert m["mcc"] == exact((90 * 9560 - 140 * 210) / math.sqrt(300 * 9700 * 230 * 9770))


def test_buy_computer_accuracy():
    m = binary_metrics(*BUY_COMPUTER)
    assert m["accuracy"] == exact(F(6954 + 2588, 10000))
    assert m["recall"] == exact(F(6954, 7000))
    assert m["specificity"] == exact(F(2588, 3000))


@pytest.mark.parametrize(
    "counts, expected, rounded",
    [
        pytest.param(
            HIGH_RECALL,
            {"f1": F(560, 1000), "f2": F(1400, 1900), "f05": F(350, 775), "recall": F(280, 300),
             "specificity": F(9280, 9700), "accuracy": F(9560, 10000), "precision": F(280, 700)},
            {"f1": 0.56, "f2": 0.7368, "f05": 0.4516, "recall": 93.33, "specificity": 95.67,
             "accuracy": 95.60},
            id="high-recall",
        ),
        pytest.param(
            HIGH_PRECISION,
            {"f1": F(100, 355), "f2": F(250, 1255), "f05": F(125, 260), "recall": F(50, 300),
             "specificity": F(9695, 9700), "accuracy": F(9745, 10000), "precision": F(50, 55)},
            {"f1": 0.2817, "f2": 0.1992, "f05": 0.4808, "recall": 16.67, "specificity": 99.95,
             "accuracy": 97.45},
            id="high-precision",
        ),
    ],
)
def test_recall_versus_precision_classifiers(counts, expected, rounded):
    f1 = binary_metrics(*counts)
    f2 = binary_metrics(*counts, beta=2)
    f05 = binary_metrics(*counts, beta=0.5)
    got = {"f1": f1["f1"], "f2": f2["fbeta"], "f05": f05["fbeta"], "recall": f1["recall"],
           "specificity": f1["specificity"], "accuracy": f1["accuracy"], "precision": f1["precision"]}
    assert got == {name: exact(value) for name, value in expected.items()}
    assert f1["fbeta"] == f1["f1"]  # beta = 1 is F1
    for name in ["f1", "f2", "f05"]:
        assert round(got[name], 4) == rounded[name]
    for name in ["recall", "specificity", "accuracy"]:
        assert round(100 * got[name], 2) == rounded[name]


def test_fbeta_leans_towards_recall_or_precision():
    # beta > 1 favours recall (the lenient classifier), beta < 1 precision (the strict one).
    assert binary_metrics(*HIGH_RECALL, beta=2)["fbeta"] > binary_metrics(*HIGH_PRECISION, beta=2)["fbeta"]
    assert binary_metrics(*HIGH_RECALL, beta=0.5)["fbeta"] < binary_metrics(*HIGH_PRECISION, beta=0.5)["fbeta"]


def test_kappa_example_corrected():
    result = kappa_by_hand(KAPPA_MATRIX)
    assert {"p_o", "p_e", "kappa"} <= set(result)
    n2 = 210**2
    p_i = [F(100 * 91, n2), F(100 * 104, n2), F(10 * 15, n2)]
    assert result["p_o"] == exact(F(181, 210))
    assert list(result["p_i"]) == [exact(p) for p in p_i]
    assert result["p_e"] == exact(sum(p_i))
    assert round(result["p_e"], 4) == 0.4456
    kappa = (F(181, 210) - sum(p_i)) / (1 - sum(p_i))
    assert result["kappa"] == exact(kappa)
    assert round(result["kappa"], 4) == 0.7509
    # The notes' parts are wrong ...
    assert np.abs(np.asarray(result["p_i"]) - NOTES_KAPPA_P_I).max() > 0.01
    assert abs(result["p_e"] - NOTES_KAPPA_P_E) > 0.01
    # ... and scikit-learn agrees with the corrected kappa.
    y1, y2 = expand_matrix(KAPPA_MATRIX)
    assert result["kappa"] == pytest.approx(skm.cohen_kappa_score(y1, y2), rel=1e-12)


def test_kappa_of_a_binary_matrix_equals_binary_metrics_kappa():
    tp, fp, fn, tn = CANCER
    matrix = [[tn, fp], [fn, tp]]
    assert kappa_by_hand(matrix)["kappa"] == pytest.approx(binary_metrics(*CANCER)["kappa"], rel=1e-12)
    y_true, y_pred = expand(*CANCER)
    assert binary_metrics(*CANCER)["kappa"] == pytest.approx(skm.cohen_kappa_score(y_true, y_pred), rel=1e-12)


def test_eight_sample_example_per_class():
    table = per_class_metrics(EIGHT_TRUE, EIGHT_PRED)
    assert list(table.columns) == PER_CLASS_COLUMNS
    assert list(table.index) == [0, 1, 2, "micro", "macro", "weighted"]
    expected = {  # recall, precision, f1, specificity, npv
        0: (F(2, 2), F(2, 3), F(4, 5), F(5, 6), F(5, 5)),
        1: (F(1, 3), F(1, 3), F(1, 3), F(3, 5), F(3, 5)),
        2: (F(1, 3), F(1, 2), F(2, 5), F(4, 5), F(4, 6)),
    }
    for label, values in expected.items():
        row = table.loc[label]
        assert [row[c] for c in ["recall", "precision", "f1", "specificity", "npv"]] == [exact(v) for v in values]
        assert row["g_mean"] == exact(math.sqrt(values[0] * values[3]))
    assert table.loc[0, "g_mean"] == exact(math.sqrt(F(5, 6)))
    assert round(table.loc[0, "g_mean"], 4) == 0.9129
    assert table.loc[0, "g_mean"] != pytest.approx(NOTES_EIGHT_GMEAN_0, abs=0.01)
    assert table["support"].tolist() == [2, 3, 3, 8, 8, 8]


def test_eight_sample_example_averages():
    table = per_class_metrics(EIGHT_TRUE, EIGHT_PRED)
    f1 = [F(4, 5), F(1, 3), F(2, 5)]
    assert table.loc["macro", "f1"] == exact(sum(f1) / 3)
    assert round(table.loc["macro", "f1"], 4) == 0.5111
    assert table.loc["weighted", "f1"] == exact(F(38, 80))  # 3.8 / 8 = 0.475
    assert table.loc["weighted", "f1"] != pytest.approx(NOTES_EIGHT_WEIGHTED_F1, abs=0.01)
    # The weighted specificity weights the specificities (not the NPVs) by support / 8.
    assert table.loc["weighted", "specificity"] == exact((2 * F(5, 6) + 3 * F(3, 5) + 3 * F(4, 5)) / 8)
    assert table.loc["weighted", "npv"] == exact((2 * 1 + 3 * F(3, 5) + 3 * F(2, 3)) / 8)
    assert table.loc["macro", "specificity"] == exact((F(5, 6) + F(3, 5) + F(4, 5)) / 3)
    assert table.loc["macro", "g_mean"] == pytest.approx(table.loc[[0, 1, 2], "g_mean"].mean(), rel=1e-12)
    # Micro P = R = F1 = accuracy for single-label data.
    for column in ["recall", "precision", "f1"]:
        assert table.loc["micro", column] == exact(F(1, 2))
    assert skm.accuracy_score(EIGHT_TRUE, EIGHT_PRED) == 0.5
    # Macro-F1 is the mean of the per-class F1, not the harmonic mean of macro-P and macro-R.
    macro_p, macro_r = table.loc["macro", "precision"], table.loc["macro", "recall"]
    harmonic = 2 * macro_p * macro_r / (macro_p + macro_r)
    assert round(harmonic, 3) == 0.526
    assert table.loc["macro", "f1"] == pytest.approx(skm.f1_score(EIGHT_TRUE, EIGHT_PRED, average="macro"), rel=1e-12)
    # imbalanced-learn's averaged G-mean is sqrt(mean sensitivity * mean specificity): another number.
    imblearn_macro = imb.geometric_mean_score(EIGHT_TRUE, EIGHT_PRED, average="macro")
    assert imblearn_macro == pytest.approx(math.sqrt(macro_r * table.loc["macro", "specificity"]), rel=1e-12)
    assert abs(imblearn_macro - table.loc["macro", "g_mean"]) > 0.01


def test_flu_example_matches_classification_report():
    matrix, classes = multiclass_confusion(FLU_TRUE, FLU_PRED)
    assert classes.tolist() == ["Coronavirus", "Flu", "Ok"]
    assert matrix.tolist() == [[4, 1, 1], [6, 2, 2], [3, 0, 6]]
    table = per_class_metrics(FLU_TRUE, FLU_PRED)
    report = skm.classification_report(FLU_TRUE, FLU_PRED, output_dict=True)
    for label in ["Coronavirus", "Flu", "Ok"]:
        assert table.loc[label, "precision"] == pytest.approx(report[label]["precision"], rel=1e-12)
        assert table.loc[label, "recall"] == pytest.approx(report[label]["recall"], rel=1e-12)
        assert table.loc[label, "f1"] == pytest.approx(report[label]["f1-score"], rel=1e-12)
        assert table.loc[label, "support"] == report[label]["support"]
    for row, key in [("macro", "macro avg"), ("weighted", "weighted avg")]:
        assert table.loc[row, "precision"] == pytest.approx(report[key]["precision"], rel=1e-12)
        assert table.loc[row, "recall"] == pytest.approx(report[key]["recall"], rel=1e-12)
        assert table.loc[row, "f1"] == pytest.approx(report[key]["f1-score"], rel=1e-12)
    assert table.loc["micro", "f1"] == pytest.approx(report["accuracy"], rel=1e-12)
    # The notes print these with digits=3.
    printed = table.loc[["Coronavirus", "Flu", "Ok", "macro", "weighted"], ["precision", "recall", "f1"]]
    assert printed.round(3).values.tolist() == [
        [0.308, 0.667, 0.421], [0.667, 0.2, 0.308], [0.667, 0.667, 0.667],
        [0.547, 0.511, 0.465], [0.581, 0.48, 0.464],
    ]
    imbalanced = imb.classification_report_imbalanced(FLU_TRUE, FLU_PRED, output_dict=True)
    for label in ["Coronavirus", "Flu", "Ok"]:
        assert table.loc[label, "specificity"] == pytest.approx(imbalanced[label]["spe"], rel=1e-12)
        assert table.loc[label, "g_mean"] == pytest.approx(imbalanced[label]["geo"], rel=1e-12)


@pytest.mark.parametrize(
    "pair, r2",
    [
        pytest.param(R2_EXAMPLE, F(443, 467), id="sklearn-docs-example"),  # 0.9486...
        pytest.param(R2_PERFECT, F(1), id="perfect"),
        pytest.param(R2_MEAN_PREDICTOR, F(0), id="mean-predictor"),
        pytest.param(R2_REVERSED, F(-3), id="reversed-is-negative"),
    ],
)
def test_r2_examples(pair, r2):
    result = regression_metrics(*pair)
    assert set(result) >= REGRESSION_KEYS
    assert result["r2"] == exact(r2)
    assert result["r2"] == pytest.approx(skm.r2_score(*pair), rel=1e-12, abs=1e-15)
    # RRSE = sqrt(SSE / SST) = sqrt(1 - R^2).
    assert result["rrse"] == exact(math.sqrt(1 - r2))


def test_r2_example_other_metrics():
    result = regression_metrics(*R2_EXAMPLE)  # errors 0.5, -0.5, 0, -1
    assert round(result["r2"], 4) == 0.9486
    assert result["mae"] == exact(F(1, 2))
    assert result["mse"] == exact(F(3, 8))
    assert result["rmse"] == exact(math.sqrt(F(3, 8)))
    assert result["mape"] == exact((F(1, 6) + 1 + 0 + F(1, 7)) / 4)
    assert result["rae"] == exact(F(4, 17))  # sum |e| = 2, sum |y - mean| = 8.5
    y_true, y_pred = np.array(R2_EXAMPLE, dtype=float) + 1  # shift: logs of positive values
    assert regression_metrics(y_true, y_pred)["rmsle"] == exact(
        math.sqrt(np.mean((np.log1p(y_true) - np.log1p(y_pred)) ** 2))
    )
    assert regression_metrics(*R2_REVERSED)["rae"] == exact(2)


# =========================================================================== binary: properties
count = st.integers(min_value=0, max_value=40)
label_pairs = st.sampled_from([(0, 1), (-1, 1), ("no", "yes"), ("benign", "malignant"), (False, True)])


@st.composite
def binary_labels(draw, min_size=1, max_size=60):
    """(y_true, y_pred, pos_label, neg_label) over two labels, either as positive."""
    pair = draw(label_pairs)
    if draw(st.booleans()):
        pair = pair[::-1]
    neg, pos = pair
    n = draw(st.integers(min_size, max_size))
    codes = st.lists(st.integers(0, 1), min_size=n, max_size=n)
    y_true = np.array([pair[c] for c in draw(codes)])
    y_pred = np.array([pair[c] for c in draw(codes)])
    return y_true, y_pred, pos, neg


@PROPERTY
@given(binary_labels())
def test_confusion_counts_matches_sklearn_confusion_matrix(data):
    y_true, y_pred, pos, neg = data
    tn, fp, fn, tp = skm.confusion_matrix(y_true, y_pred, labels=[neg, pos]).ravel()
    assert strict(confusion_counts, y_true, y_pred, pos_label=pos) == (tp, fp, fn, tn)
    assert strict(confusion_counts, list(y_true), list(y_pred), pos_label=pos) == (tp, fp, fn, tn)


@PROPERTY
@given(count, count, count, count, st.floats(min_value=0.1, max_value=10))
def test_binary_metrics_matches_sklearn_and_imblearn(tp, fp, fn, tn, beta):
    assume(tp + fp + fn + tn > 0)
    y_true, y_pred = expand(tp, fp, fn, tn)
    m = strict(binary_metrics, tp, fp, fn, tn, beta=beta)
    nan = {"zero_division": np.nan}
    accuracy = skm.accuracy_score(y_true, y_pred)
    assert_same(m["accuracy"], accuracy)
    assert_same(m["error_rate"], 1 - accuracy)
    assert_same(m["prevalence"], np.mean(y_true == 1))
    assert_same(m["recall"], quiet(skm.recall_score, y_true, y_pred, **nan))
    assert_same(m["precision"], quiet(skm.precision_score, y_true, y_pred, **nan))
    assert_same(m["fnr"], 1 - m["recall"])
    assert_same(m["fpr"], 1 - m["specificity"])
    assert_same(m["fbeta"], quiet(skm.fbeta_score, y_true, y_pred, beta=beta, **nan))
    assert_same(m["kappa"], quiet(skm.cohen_kappa_score, y_true, y_pred))

    mcc = quiet(skm.matthews_corrcoef, y_true, y_pred)
    if (tp + fn) * (tn + fp) * (tp + fp) * (tn + fn) == 0:
        assert mcc == 0.0 and math.isnan(m["mcc"])  # scikit-learn's 0 is our documented nan
    else:
        assert_same(m["mcc"], mcc)

    has_pos, has_neg = tp + fn > 0, tn + fp > 0
    if has_pos and has_neg:
        assert_same(m["balanced_accuracy"], skm.balanced_accuracy_score(y_true, y_pred))
        assert_same(m["specificity"], imb.specificity_score(y_true, y_pred, average="binary"))
        assert_same(m["g_mean"], imb.geometric_mean_score(y_true, y_pred, average="binary"))
    else:
        assert math.isnan(m["balanced_accuracy"]) and math.isnan(m["g_mean"])
        assert math.isnan(m["recall"]) != has_pos and math.isnan(m["specificity"]) != has_neg
        if has_neg:
            assert m["specificity"] == tn / (tn + fp)


@PROPERTY
@given(binary_labels())
def test_binary_metrics_of_labels_with_any_positive_class(data):
    y_true, y_pred, pos, neg = data
    m = strict(binary_metrics, *confusion_counts(y_true, y_pred, pos_label=pos))
    assert_same(m["f1"], quiet(skm.f1_score, y_true, y_pred, pos_label=pos, zero_division=np.nan))
    # One call for both classes: (precision, recall) of the negative class are (NPV, specificity).
    precision, recall, _, _ = quiet(
        skm.precision_recall_fscore_support, y_true, y_pred, labels=[neg, pos], zero_division=np.nan
    )
    assert_same([m["npv"], m["precision"]], precision)
    assert_same([m["specificity"], m["recall"]], recall)
    assert_same(strict(specificity_score, y_true, y_pred, pos_label=pos), m["specificity"])
    assert_same(strict(npv_score, y_true, y_pred, pos_label=pos), m["npv"])
    if (y_true == neg).any() and (y_true == pos).any():  # imbalanced-learn needs both labels
        assert_same(
            imb.sensitivity_score(y_true, y_pred, pos_label=pos, average="binary"), m["recall"]
        )


# =========================================================================== multiclass: properties
@st.composite
def multiclass_labels(draw, max_classes=5, max_size=60):
    k = draw(st.integers(2, max_classes))
    n = draw(st.integers(2, max_size))
    codes = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    y_true, y_pred = np.array(draw(codes)), np.array(draw(codes))
    assume(np.union1d(y_true, y_pred).size >= 2)
    return y_true, y_pred


def check_against_libraries(table, y_true, y_pred, labels):
    """Every cell of a per_class_metrics table against scikit-learn / imbalanced-learn."""
    assert list(table.index) == list(labels) + AVERAGE_ROWS
    assert list(table.columns) == PER_CLASS_COLUMNS
    per_class = table.loc[list(labels)]
    nan = {"labels": labels, "zero_division": np.nan}
    p, r, f, support = quiet(skm.precision_recall_fscore_support, y_true, y_pred, average=None, **nan)
    assert_same(per_class["precision"], p)
    assert_same(per_class["recall"], r)
    assert_same(per_class["f1"], f)
    assert per_class["support"].tolist() == support.tolist()
    assert table.loc[AVERAGE_ROWS, "support"].tolist() == [len(y_true)] * 3

    # Specificity and G-mean per class (imbalanced-learn's geometric_mean_score(average=None)
    # is sqrt(sensitivity * specificity) of this call); imbalanced-learn writes 0 where we write nan.
    sen, spe, _ = quiet(imb.sensitivity_specificity_support, y_true, y_pred, labels=labels, average=None)
    negatives = len(y_true) - support
    assert_same(per_class["specificity"], np.where(negatives > 0, spe, np.nan))
    assert_same(per_class["g_mean"], np.where((negatives > 0) & (support > 0), np.sqrt(sen * spe), np.nan))
    # NPV of class k = TN / (TN + FN) from scikit-learn's confusion matrix.
    matrix = skm.confusion_matrix(y_true, y_pred, labels=labels)
    tn = matrix.sum() - matrix.sum(axis=0) - matrix.sum(axis=1) + np.diag(matrix)
    predicted_negative = matrix.sum() - matrix.sum(axis=0)
    assert_same(per_class["npv"], np.where(predicted_negative > 0, tn / np.maximum(predicted_negative, 1), np.nan))

    for average in ["micro", "macro", "weighted"]:
        p, r, f, _ = quiet(skm.precision_recall_fscore_support, y_true, y_pred, average=average, **nan)
        for column, expected in [("precision", p), ("recall", r), ("f1", f)]:
            values = per_class[column].to_numpy(dtype=float)
            defined_weight = support[~np.isnan(values)].sum()
            if average == "weighted" and defined_weight == 0 and not np.isnan(values).all():
                # scikit-learn falls back to the plain mean when every class with a value
                # has no support; a support-weighted mean is undefined there: nan.
                assert math.isnan(table.loc[average, column])
            else:
                assert_same(table.loc[average, column], expected)
    # Micro P = R = F1 = accuracy for single-label data.
    accuracy = np.mean(np.asarray(y_true) == np.asarray(y_pred))
    assert_same(table.loc["micro", ["precision", "recall", "f1"]], [accuracy] * 3)
    if np.all(negatives > 0):
        assert_same(table.loc["weighted", "specificity"],
                    imb.specificity_score(y_true, y_pred, labels=labels, average="weighted"))
    # Micro specificity and NPV pool the counts: sum TN / sum (TN + FP) or sum (TN + FN),
    # and both sums are n (k - 1) for single-label data.
    micro = tn.sum() / (len(y_true) * (len(labels) - 1))
    assert_same(table.loc["micro", ["specificity", "npv"]], [micro, micro])
    assert_same(table.loc["micro", "g_mean"], math.sqrt(accuracy * micro))
    for column in ["recall", "precision", "f1", "specificity", "npv", "g_mean"]:
        values = per_class[column].to_numpy(dtype=float)
        defined = ~np.isnan(values)
        assert_same(table.loc["macro", column], values[defined].mean() if defined.any() else np.nan)
        weights = support[defined]
        weighted = np.sum(values[defined] * weights) / weights.sum() if weights.sum() > 0 else np.nan
        assert_same(table.loc["weighted", column], weighted)


@MULTICLASS
@given(multiclass_labels())
def test_per_class_metrics_matches_sklearn_and_imblearn(data):
    y_true, y_pred = data
    table = strict(per_class_metrics, y_true, y_pred)
    labels = np.union1d(y_true, y_pred)
    check_against_libraries(table, y_true, y_pred, labels.tolist())
    matrix, classes = multiclass_confusion(y_true, y_pred)
    assert classes.tolist() == labels.tolist()
    assert matrix.tolist() == skm.confusion_matrix(y_true, y_pred).tolist()


NAMES = ["cat", "dog", "emu", "fox", "gnu"]


@FEW
@given(st.data())
def test_per_class_metrics_string_labels_in_a_given_order(data):
    k = data.draw(st.integers(2, 5))
    labels = data.draw(st.permutations(NAMES[:k]))
    n = data.draw(st.integers(1, 40))
    names = st.lists(st.sampled_from(NAMES[:k]), min_size=n, max_size=n)
    y_true, y_pred = np.array(data.draw(names)), np.array(data.draw(names))
    table = strict(per_class_metrics, y_true, y_pred, labels=labels)  # absent labels included
    check_against_libraries(table, y_true, y_pred, list(labels))
    matrix, _ = multiclass_confusion(y_true, y_pred, labels=labels)
    assert matrix.tolist() == skm.confusion_matrix(y_true, y_pred, labels=labels).tolist()


def test_per_class_metrics_accepts_series_and_object_labels():
    y_true, y_pred = pd.Series(FLU_TRUE, index=range(100, 125)), pd.Series(FLU_PRED, dtype=object)
    table = per_class_metrics(y_true, y_pred, labels=["Ok", "Flu", "Coronavirus"])
    assert list(table.index[:3]) == ["Ok", "Flu", "Coronavirus"]
    assert table.loc["Flu", "recall"] == exact(F(2, 10))
    assert table.loc["Ok", "precision"] == exact(F(6, 9))


def test_per_class_metrics_labels_of_mixed_integer_dtypes():
    # Classes must keep their values whatever the dtypes of the two arrays.
    table = per_class_metrics(np.array([0, 1, 1], dtype=np.int8), np.array([0, 1, 300]))
    assert list(table.index[:3]) == [0, 1, 300]
    assert table.loc[300, "support"] == 0
    assert table.loc[1, "recall"] == exact(F(1, 2))
    table = per_class_metrics(np.array([0, 1, 1], dtype=np.uint8), np.array([-1, 1, 1]))
    assert list(table.index[:3]) == [-1, 0, 1]
    assert table.loc[0, "recall"] == 0.0


@PROPERTY
@given(st.integers(2, 4).flatmap(lambda k: st.lists(st.lists(count, min_size=k, max_size=k), min_size=k, max_size=k)))
def test_kappa_by_hand_matches_cohen_kappa_score(matrix):
    matrix = np.array(matrix)
    assume(matrix.sum() > 0)
    result = strict(kappa_by_hand, matrix)
    y1, y2 = expand_matrix(matrix)
    n = matrix.sum()
    assert_same(result["p_o"], np.trace(matrix) / n)
    assert_same(result["p_e"], np.sum(matrix.sum(axis=0) * matrix.sum(axis=1)) / n**2)
    labels = np.arange(len(matrix))
    assert_same(result["kappa"], quiet(skm.cohen_kappa_score, y1, y2, labels=labels))


# =========================================================================== regression: properties
value = st.integers(-100_000, 100_000).map(lambda v: v / 100)
non_negative = st.integers(0, 100_000).map(lambda v: v / 100)


def paired(elements, max_size=30):
    return st.integers(1, max_size).flatmap(
        lambda n: st.tuples(st.lists(elements, min_size=n, max_size=n), st.lists(elements, min_size=n, max_size=n))
    )


@PROPERTY
@given(paired(value))
def test_regression_metrics_match_sklearn(pair):
    y_true, y_pred = map(np.array, pair)
    m = strict(regression_metrics, y_true, y_pred)
    assert_same(m["mae"], skm.mean_absolute_error(y_true, y_pred))
    assert_same(m["mse"], skm.mean_squared_error(y_true, y_pred))
    assert_same(m["rmse"], skm.root_mean_squared_error(y_true, y_pred))
    assert_same(m["mape"], skm.mean_absolute_percentage_error(y_true, y_pred))
    if np.ptp(y_true) > 0:
        assert_same(m["r2"], skm.r2_score(y_true, y_pred), rtol=1e-7, atol=1e-9)
        assert_same(m["rrse"], math.sqrt(1 - skm.r2_score(y_true, y_pred)), rtol=1e-7, atol=1e-9)
        baseline = skm.mean_absolute_error(y_true, np.full_like(y_true, y_true.mean()))
        assert_same(m["rae"], skm.mean_absolute_error(y_true, y_pred) / baseline, rtol=1e-7)
    else:  # constant target: scikit-learn forces 1 or 0, we document nan
        assert math.isnan(m["r2"]) and math.isnan(m["rae"]) and math.isnan(m["rrse"])


@PROPERTY
@given(paired(non_negative))
def test_regression_rmsle_matches_sklearn_on_non_negative_data(pair):
    y_true, y_pred = map(np.array, pair)
    m = strict(regression_metrics, y_true, y_pred)
    assert_same(m["rmsle"], skm.root_mean_squared_log_error(y_true, y_pred))


def test_rmsle_is_nan_when_a_log_is_undefined():
    assert math.isnan(strict(regression_metrics, [-1.0, 2.0], [0.0, 1.0])["rmsle"])
    assert math.isnan(strict(regression_metrics, [0.0, 2.0], [-3.0, 1.0])["rmsle"])
    assert not math.isnan(regression_metrics([-0.5, 2.0], [0.0, 1.0])["rmsle"])


# =========================================================================== scorers
@pytest.fixture(scope="module")
def cancer_problem():
    X, y = load_breast_cancer(return_X_y=True)  # 0 = malignant, 1 = benign
    model = make_pipeline(StandardScaler(), LogisticRegression(random_state=0))
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    return X, y, model, cv, manual_folds(model, X, y, cv)


def manual_folds(model, X, y, cv, labels=(0, 1), **params):
    """(tn, fp, fn, tp) of each fold, fitted by hand; ``labels`` is (negative, positive)."""
    counts = []
    for train, test in cv.split(X, y):
        fitted = clone(model).set_params(**params).fit(X[train], y[train])
        counts.append(skm.confusion_matrix(y[test], fitted.predict(X[test]), labels=list(labels)).ravel())
    return np.array(counts)


def test_scorers_in_cross_validate(cancer_problem):
    X, y, model, cv, folds = cancer_problem
    scoring = {
        "specificity": specificity_scorer,
        "npv": npv_scorer,
        "recall_of_0": make_scorer(skm.recall_score, pos_label=0),
        "precision_of_0": make_scorer(skm.precision_score, pos_label=0),
    }
    result = cross_validate(model, X, y, cv=cv, scoring=scoring, error_score="raise")
    tn, fp, fn, tp = folds.T
    assert result["test_specificity"].tolist() == pytest.approx((tn / (tn + fp)).tolist(), rel=1e-15)
    assert result["test_npv"].tolist() == pytest.approx((tn / (tn + fn)).tolist(), rel=1e-15)
    # Specificity with class 1 positive is the recall of class 0; NPV the precision of class 0.
    assert result["test_specificity"].tolist() == pytest.approx(result["test_recall_of_0"].tolist(), rel=1e-15)
    assert result["test_npv"].tolist() == pytest.approx(result["test_precision_of_0"].tolist(), rel=1e-15)
    assert 0.8 < result["test_specificity"].mean() < 1  # a real, imperfect model


def test_scorers_with_another_positive_class(cancer_problem):
    X, y, model, cv, folds = cancer_problem
    scoring = {
        "specificity_pos0": make_scorer(specificity_score, pos_label=0),
        "npv_pos0": make_scorer(npv_score, pos_label=0),
        "recall_of_1": make_scorer(skm.recall_score, pos_label=1),
        "precision_of_1": make_scorer(skm.precision_score, pos_label=1),
    }
    result = cross_validate(model, X, y, cv=cv, scoring=scoring, error_score="raise")
    tn, fp, fn, tp = folds.T
    # With class 0 positive, the negatives are class 1: specificity = TP/(TP+FN) of class 1.
    assert result["test_specificity_pos0"].tolist() == pytest.approx((tp / (tp + fn)).tolist(), rel=1e-15)
    assert result["test_specificity_pos0"].tolist() == pytest.approx(result["test_recall_of_1"].tolist(), rel=1e-15)
    assert result["test_npv_pos0"].tolist() == pytest.approx(result["test_precision_of_1"].tolist(), rel=1e-15)


def test_scorers_with_string_labels(cancer_problem):
    X, y, model, cv, folds = cancer_problem
    names = np.where(y == 1, "benign", "malignant")
    scorer = make_scorer(specificity_score, pos_label="malignant")
    result = cross_validate(model, X, names, cv=cv, scoring={"spe": scorer}, error_score="raise")
    tn, fp, fn, tp = manual_folds(model, X, names, cv, labels=("malignant", "benign")).T
    assert result["test_spe"].tolist() == pytest.approx((tp / (tp + fn)).tolist(), rel=1e-15)
    assert result["test_spe"].tolist() == pytest.approx((folds[:, 3] / folds[:, [2, 3]].sum(axis=1)).tolist())
    with pytest.raises(ValueError, match="pos_label=1 is not a valid label"):
        cross_validate(model, X, names, cv=cv, scoring=specificity_scorer, error_score="raise")


def test_scorers_in_grid_search(cancer_problem):
    X, y, model, _, _ = cancer_problem
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=1)
    grid = [0.001, 0.1, 10.0]
    search = GridSearchCV(
        model, {"logisticregression__C": grid}, cv=cv, refit="specificity",
        scoring={"specificity": specificity_scorer, "npv": npv_scorer},
    ).fit(X, y)
    expected_spe, expected_npv = [], []
    for c in grid:
        tn, fp, fn, tp = manual_folds(model, X, y, cv, logisticregression__C=c).T
        expected_spe.append(tn / (tn + fp))
        expected_npv.append(tn / (tn + fn))
    results = search.cv_results_
    for fold in range(cv.get_n_splits()):
        assert results[f"split{fold}_test_specificity"].tolist() == pytest.approx(
            [s[fold] for s in expected_spe], rel=1e-15)
        assert results[f"split{fold}_test_npv"].tolist() == pytest.approx([v[fold] for v in expected_npv], rel=1e-15)
    means = [s.mean() for s in expected_spe]
    assert len(set(means)) == len(grid)  # the choice below is not a tie
    assert search.best_params_ == {"logisticregression__C": grid[int(np.argmax(means))]}
    assert search.best_score_ == pytest.approx(max(means), rel=1e-12)


# =========================================================================== nan, never a warning
def test_zero_denominators_give_nan_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        no_positive = binary_metrics(0, 0, 0, 5)
        only_positive = binary_metrics(5, 0, 0, 0)
        nothing_predicted_positive = binary_metrics(0, 0, 3, 2)
        nothing_predicted_negative = binary_metrics(3, 2, 0, 0, beta=2)
    for name in ["recall", "fnr", "precision", "f1", "fbeta", "balanced_accuracy", "g_mean", "mcc", "kappa"]:
        assert math.isnan(no_positive[name]), name
    assert no_positive["accuracy"] == 1 and no_positive["specificity"] == 1 and no_positive["npv"] == 1
    for name in ["specificity", "fpr", "npv", "balanced_accuracy", "g_mean", "mcc", "kappa"]:
        assert math.isnan(only_positive[name]), name
    assert only_positive["recall"] == 1 and only_positive["f1"] == 1 and only_positive["precision"] == 1
    assert math.isnan(nothing_predicted_positive["precision"])  # 0/0, not 100 % (ERRATA)
    assert nothing_predicted_positive["recall"] == 0 and nothing_predicted_positive["f1"] == 0
    assert nothing_predicted_positive["npv"] == exact(F(2, 5))
    assert math.isnan(nothing_predicted_negative["npv"])
    assert nothing_predicted_negative["fbeta"] == exact(F(5 * 3, 5 * 3 + 2))


def test_mcc_is_nan_where_sklearn_returns_zero():
    y_true, y_pred = [0, 0, 1, 1], [0, 0, 0, 0]
    assert skm.matthews_corrcoef(y_true, y_pred) == 0.0
    assert math.isnan(strict(binary_metrics, *confusion_counts(y_true, y_pred))["mcc"])


def test_scores_with_zero_denominator_give_nan_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(specificity_score([1, 1, 1], [1, 0, 1]))  # no actual negative
        assert math.isnan(npv_score([0, 1, 1], [1, 1, 1]))  # nothing predicted negative
        assert specificity_score([0, 0, 1], [0, 1, 1]) == 0.5
        assert npv_score([0, 1, 1], [0, 0, 1]) == 0.5


def test_per_class_zero_denominators_give_nan_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # class 2 is only predicted, class 3 is asked for but never seen
        table = per_class_metrics([0, 0, 1, 1], [0, 2, 1, 1], labels=[0, 1, 2, 3])
    assert math.isnan(table.loc[2, "recall"]) and math.isnan(table.loc[2, "g_mean"])
    assert table.loc[2, "precision"] == 0 and table.loc[2, "f1"] == 0
    assert table.loc[3, ["recall", "precision", "f1", "g_mean"]].isna().all()
    assert table.loc[3, "specificity"] == 1 and table.loc[3, "support"] == 0
    assert table.loc[0, "precision"] == 1 and table.loc[0, "recall"] == exact(F(1, 2))
    # nan values are left out of the averages
    assert table.loc["macro", "recall"] == exact((F(1, 2) + 1) / 2)
    assert table.loc["macro", "precision"] == exact((1 + 1 + 0) / F(3))
    assert table.loc["weighted", "recall"] == exact(F(3, 4))


def test_weighted_average_without_supported_class_is_nan():
    # Every class is absent from y_true or never predicted: no support-weighted precision.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = per_class_metrics([0, 0, 0], [1, 1, 1])
    assert math.isnan(table.loc["weighted", "precision"])
    assert table.loc["macro", "precision"] == 0
    assert table.loc["weighted", "recall"] == 0 and table.loc["weighted", "f1"] == 0


def test_constant_target_gives_nan_r2_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        constant = regression_metrics([5, 5, 5], [4, 5, 6])
        rounded_mean = regression_metrics([0.1, 0.1, 0.1], [0.2, 0.2, 0.2])  # mean(0.1s) != 0.1
        perfect = regression_metrics([2.0], [2.0])
    for result in (constant, rounded_mean, perfect):
        assert math.isnan(result["r2"]) and math.isnan(result["rae"]) and math.isnan(result["rrse"])
    assert constant["mae"] == exact(F(2, 3)) and rounded_mean["mae"] == pytest.approx(0.1, rel=1e-12)
    assert perfect["mse"] == 0


def test_kappa_with_chance_agreement_of_one_is_nan():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = kappa_by_hand([[7, 0], [0, 0]])
    assert result["p_o"] == 1 and result["p_e"] == 1 and math.isnan(result["kappa"])


def test_mape_uses_epsilon_for_a_zero_target():
    result = strict(regression_metrics, [0.0, 2.0], [1.0, 1.0])
    assert result["mape"] == pytest.approx(skm.mean_absolute_percentage_error([0.0, 2.0], [1.0, 1.0]), rel=1e-12)
    assert result["mape"] > 1e15


# =========================================================================== bad input
PAIR_CASES = [
    pytest.param([0, 1, 1], [0, 1], "different lengths", id="different-lengths"),
    pytest.param([], [], "empty", id="empty"),
    pytest.param([0, np.nan, 1], [0, 1, 1], "NaN", id="nan-true"),
    pytest.param([0, 1, 1], [0.0, 1.0, np.nan], "NaN", id="nan-pred"),
    pytest.param(pd.Series([0, None, 1], dtype=object), [0, 1, 1], "NaN or None", id="none"),
    pytest.param([[0, 1], [1, 0]], [[0, 1], [1, 0]], "one-dimensional", id="two-dimensional"),
]


@pytest.mark.parametrize("y_true, y_pred, message", PAIR_CASES)
@pytest.mark.parametrize(
    "function", [confusion_counts, per_class_metrics, specificity_score, npv_score, multiclass_confusion]
)
def test_bad_label_arrays_raise(function, y_true, y_pred, message):
    with pytest.raises(ValueError, match=message):
        function(y_true, y_pred)


@pytest.mark.parametrize("function", [confusion_counts, specificity_score, npv_score])
def test_binary_functions_reject_unknown_pos_label_and_more_classes(function):
    with pytest.raises(ValueError, match=r"pos_label=2 is not a valid label"):
        function([0, 1, 1], [1, 1, 0], pos_label=2)
    with pytest.raises(ValueError, match=r"pos_label=1 is not a valid label.*'no', 'yes'"):
        function(["no", "yes"], ["yes", "yes"])
    with pytest.raises(ValueError, match="needs binary labels; got 3 classes"):
        function([0, 1, 2], [0, 1, 1])


def test_single_class_is_fine_where_one_class_is_enough():
    # A fold without positives: like scikit-learn, the default pos_label is accepted.
    assert confusion_counts([0, 0, 0], [0, 1, 0]) == (0, 1, 0, 2)
    assert confusion_counts(["no", "no"], ["no", "no"], pos_label="yes") == (0, 0, 0, 2)


def test_per_class_metrics_needs_two_classes():
    with pytest.raises(ValueError, match="at least two classes"):
        per_class_metrics([1, 1, 1], [1, 1, 1])
    with pytest.raises(ValueError, match="at least two classes"):
        per_class_metrics(["a"], ["a"], labels=["a"])


@pytest.mark.parametrize(
    "labels, message",
    [
        pytest.param([0, 1], r"contains labels not in labels: \[2\]", id="missing-class"),
        pytest.param([0, 1, 1, 2], "duplicates", id="duplicates"),
        pytest.param([], "labels is empty", id="empty"),
        pytest.param(["0", "1", "2"], "labels mix strings and numbers", id="wrong-type"),
    ],
)
def test_per_class_metrics_rejects_bad_labels(labels, message):
    with pytest.raises(ValueError, match=message):
        per_class_metrics([0, 1, 2], [0, 1, 1], labels=labels)


@pytest.mark.parametrize(
    "counts, message",
    [
        pytest.param((-1, 2, 3, 4), "tp must not be negative", id="negative-tp"),
        pytest.param((1, 2, 3, -4), "tn must not be negative", id="negative-tn"),
        pytest.param((0, 0, 0, 0), "empty", id="all-zero"),
        pytest.param((1, 2.5, 3, 4), "fp must be a whole number", id="fraction"),
        pytest.param((1, 2, np.nan, 4), "fn must be a whole number", id="nan"),
        pytest.param((1, 2, 3, math.inf), "tn must be a whole number", id="inf"),
        pytest.param((True, 2, 3, 4), "tp must be a number", id="bool"),
        pytest.param((1, "2", 3, 4), "fp must be a number", id="string"),
        pytest.param((1, 2, None, 4), "fn must be a number", id="none"),
    ],
)
def test_binary_metrics_rejects_bad_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        binary_metrics(*counts)


@pytest.mark.parametrize("beta", [0, -1, math.inf, math.nan, "2", True])
def test_binary_metrics_rejects_bad_beta(beta):
    with pytest.raises(ValueError, match="beta must be a positive finite number"):
        binary_metrics(1, 2, 3, 4, beta=beta)


def test_binary_metrics_accepts_numpy_and_whole_float_counts():
    counts = np.array(CANCER)
    assert binary_metrics(*counts) == binary_metrics(*CANCER)
    assert binary_metrics(*(float(c) for c in CANCER), beta=np.float64(2)) == binary_metrics(*CANCER, beta=2)


@pytest.mark.parametrize(
    "matrix, message",
    [
        pytest.param([[1, 2, 3], [4, 5, 6]], r"square matrix; got shape \(2, 3\)", id="non-square"),
        pytest.param([1, 2, 3, 4], r"square matrix; got shape \(4,\)", id="one-dimensional"),
        pytest.param(np.ones((2, 2, 2)), "square matrix", id="three-dimensional"),
        pytest.param([[1, -1], [2, 3]], "negative", id="negative"),
        pytest.param([[1, np.nan], [2, 3]], "NaN", id="nan"),
        pytest.param([[0, 0], [0, 0]], "empty", id="empty"),
    ],
)
def test_kappa_by_hand_rejects_bad_matrices(matrix, message):
    with pytest.raises(ValueError, match=message):
        kappa_by_hand(matrix)


@pytest.mark.parametrize(
    "y_true, y_pred, message",
    [
        pytest.param([1.0, 2.0], [1.0], "different lengths", id="different-lengths"),
        pytest.param([], [], "empty", id="empty"),
        pytest.param([1.0, np.nan], [1.0, 2.0], "NaN", id="nan"),
        pytest.param([1.0, 2.0], [1.0, np.inf], "infinite", id="inf"),
        pytest.param(["a", "b"], [1.0, 2.0], "must be numeric", id="strings"),
        pytest.param([[1.0, 2.0]], [[1.0, 2.0]], "one-dimensional", id="two-dimensional"),
    ],
)
def test_regression_metrics_rejects_bad_input(y_true, y_pred, message):
    with pytest.raises(ValueError, match=message):
        regression_metrics(y_true, y_pred)


# =========================================================================== inputs untouched
def as_kinds(values):
    """The same values as a list, a read-only array and an indexed Series."""
    array = np.array(values)
    array.flags.writeable = False  # any in-place change would raise
    return [list(values), array, pd.Series(values, index=range(10, 10 + len(values)), name="y")]


def snapshot(value):
    return value.copy(deep=True) if isinstance(value, pd.Series) else np.array(value, copy=True)


def assert_unchanged(before, after):
    if isinstance(before, pd.Series):
        pd.testing.assert_series_equal(after, before)
    else:
        np.testing.assert_array_equal(np.asarray(after), before)


@pytest.mark.parametrize("kind", [0, 1, 2], ids=["list", "read-only-array", "series"])
@pytest.mark.parametrize(
    "call, y_true, y_pred",
    [
        pytest.param(lambda t, p: confusion_counts(t, p, pos_label="yes"),
                     ["yes", "no", "yes", "no"], ["yes", "yes", "no", "no"], id="confusion_counts"),
        pytest.param(lambda t, p: specificity_score(t, p), [1, 0, 1, 0, 0], [1, 1, 0, 0, 0], id="specificity"),
        pytest.param(lambda t, p: npv_score(t, p), [1, 0, 1, 0, 0], [1, 1, 0, 0, 0], id="npv"),
        pytest.param(lambda t, p: per_class_metrics(t, p), list(EIGHT_TRUE), list(EIGHT_PRED), id="per_class"),
        pytest.param(lambda t, p: per_class_metrics(t, p, labels=["Ok", "Flu", "Coronavirus"]),
                     list(FLU_TRUE), list(FLU_PRED), id="per_class_labels"),
        pytest.param(lambda t, p: regression_metrics(t, p), [3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0],
                     id="regression"),
    ],
)
def test_inputs_are_not_modified(call, y_true, y_pred, kind):
    t, p = as_kinds(y_true)[kind], as_kinds(y_pred)[kind]
    t_before, p_before = snapshot(t), snapshot(p)
    first = call(t, p)
    assert_unchanged(t_before, t)
    assert_unchanged(p_before, p)
    # the same answer from every kind of container
    reference = call(list(y_true), list(y_pred))
    if isinstance(first, pd.DataFrame):
        pd.testing.assert_frame_equal(first, reference)
    else:
        assert first == reference


def test_labels_and_matrix_are_not_modified():
    labels = np.array(["Ok", "Flu", "Coronavirus"])
    labels.flags.writeable = False
    per_class_metrics(FLU_TRUE, FLU_PRED, labels=labels)
    assert labels.tolist() == ["Ok", "Flu", "Coronavirus"]
    matrix = np.array(KAPPA_MATRIX)
    matrix.flags.writeable = False
    nested = [list(row) for row in KAPPA_MATRIX]
    kappa_by_hand(matrix)
    kappa_by_hand(nested)
    assert matrix.tolist() == nested == [list(row) for row in KAPPA_MATRIX]


# --------------------------------------------------------------------------- gaps found by mutation testing (issue 7)
from helpers.datasets import NOTES_EIGHT_WEIGHTED_GMEAN, SAME_ACCURACY  # noqa: E402
from helpers.metrics import (asymmetric_cost, describe_fbeta_state, fbeta_state,  # noqa: E402
                             ranking_flip_beta)


def test_fdr_and_likelihood_ratios_of_the_cancer_example():
    m = binary_metrics(*CANCER)  # TP 90, FP 140, FN 210, TN 9560
    assert m["fdr"] == exact(F(140, 230))
    assert m["lr_plus"] == exact(F(90, 300) / F(140, 9700))  # TPR / FPR = 20.79
    assert m["lr_minus"] == exact(F(210, 300) / F(9560, 9700))  # FNR / TNR = 0.710
    assert m["dor"] == exact((F(90, 300) / F(140, 9700)) / (F(210, 300) / F(9560, 9700)))  # 29.27
    assert round(m["lr_plus"], 2) == 20.79 and round(m["lr_minus"], 3) == 0.710 and round(m["dor"], 2) == 29.27
    y_true, y_pred = expand(*CANCER)
    assert_same((m["lr_plus"], m["lr_minus"]), skm.class_likelihood_ratios(y_true, y_pred))
    assert m["dor"] == exact(F(90 * 9560, 140 * 210))  # DOR = (TP TN) / (FP FN)


def test_likelihood_ratios_are_nan_where_undefined():
    no_false_alarm = strict(binary_metrics, 5, 0, 5, 10)  # FPR 0: LR+ = 0.5 / 0 undefined, DOR too
    assert math.isnan(no_false_alarm["lr_plus"]) and math.isnan(no_false_alarm["dor"])
    assert no_false_alarm["lr_minus"] == exact(F(1, 2))
    no_miss = strict(binary_metrics, 5, 5, 0, 5)  # FNR 0: LR- = 0, DOR = LR+ / 0 undefined
    assert no_miss["lr_minus"] == 0 and no_miss["lr_plus"] == exact(2) and math.isnan(no_miss["dor"])
    no_negative = strict(binary_metrics, 3, 0, 1, 0)  # no actual negative: specificity undefined
    assert math.isnan(no_negative["lr_plus"]) and math.isnan(no_negative["lr_minus"])


def test_same_accuracy_three_classifiers():
    rows = {name: binary_metrics(*counts) for name, counts in SAME_ACCURACY.items()}
    assert {round(m["accuracy"], 12) for m in rows.values()} == {0.9}
    assert [m["recall"] for m in rows.values()] == [0.0, 0.5, 1.0]
    assert math.isnan(rows["always negative"]["precision"])
    assert rows["every positive"]["precision"] == 0.5 and sum(SAME_ACCURACY["every positive"]) == 100


def test_notes_weighted_gmean_is_off_by_one_in_the_last_digit():
    table = per_class_metrics(EIGHT_TRUE, EIGHT_PRED)
    # per class: sqrt(1 x 5/6), sqrt(1/3 x 3/5), sqrt(1/3 x 4/5), weighted by supports 2, 3, 3
    assert table.loc["weighted", "g_mean"] == exact((2 * math.sqrt(5 / 6) + 3 * math.sqrt(1 / 3 * 3 / 5)
                                                     + 3 * math.sqrt(1 / 3 * 4 / 5)) / 8)
    assert round(table.loc["weighted", "g_mean"], 4) == 0.5896 != NOTES_EIGHT_WEIGHTED_GMEAN


def test_imblearn_gmean_averages_differ_from_the_notes():
    table = per_class_metrics(EIGHT_TRUE, EIGHT_PRED)
    macro_imb = imb.geometric_mean_score(EIGHT_TRUE, EIGHT_PRED, average="macro")
    weighted_imb = imb.geometric_mean_score(EIGHT_TRUE, EIGHT_PRED, average="weighted")
    assert round(macro_imb, 4) == 0.6431 and round(weighted_imb, 4) == 0.6055
    assert round(table.loc["macro", "g_mean"], 4) == 0.6255 and round(table.loc["weighted", "g_mean"], 4) == 0.5896
    mean_recall = table.loc[[0, 1, 2], "recall"].mean()
    mean_specificity = table.loc[[0, 1, 2], "specificity"].mean()
    assert macro_imb == pytest.approx(math.sqrt(mean_recall * mean_specificity))


def test_float_labels_and_wide_integer_labels():
    assert confusion_counts([0.5, 1.5, 0.5], [0.5, 0.5, 1.5], pos_label=0.5) == (1, 1, 1, 0)
    table = per_class_metrics([0.5, 1.5, 0.5, 2.5], [0.5, 0.5, 1.5, 2.5])
    assert list(table.index[:3]) == [0.5, 1.5, 2.5]
    assert table.loc[0.5, "recall"] == 0.5 and table.loc[0.5, "precision"] == 0.5
    # y_true needs 16 bits, y_pred fits in 8: the class list must keep the wide values
    matrix, classes = multiclass_confusion(np.array([300, 1, 300], dtype=np.int16), np.array([1, 1, 1], dtype=np.int8))
    assert classes.tolist() == [1, 300] and matrix.tolist() == [[1, 0], [2, 0]]
    big = per_class_metrics(np.array([1000, 1, 1000], dtype=np.int64), np.array([1, 1, 1], dtype=np.uint8))
    assert list(big.index[:2]) == [1, 1000] and big.loc[1000, "support"] == 2


def test_support_is_an_integer_column():
    table = per_class_metrics(EIGHT_TRUE, EIGHT_PRED)
    assert table["support"].dtype.kind == "i"
    assert table["support"].tolist() == [2, 3, 3, 8, 8, 8]


def test_weighted_nan_differs_from_scikit_learn_as_documented():
    # the only class in y_true (1) is never predicted: its precision is 0 / 0 and it has all the support
    y_true, y_pred = [1, 1], [0, 2]
    table = per_class_metrics(y_true, y_pred)
    assert math.isnan(table.loc[1, "precision"]) and table.loc[1, "support"] == 2
    assert math.isnan(table.loc["weighted", "precision"])
    assert quiet(skm.precision_score, y_true, y_pred, average="weighted", zero_division=np.nan) == 0.0
    assert table.loc["macro", "precision"] == 0.0  # classes 0 and 2: precision 0 each
    assert "returns 0" in per_class_metrics.__doc__


@pytest.mark.parametrize("y_true, y_pred, where", [
    (np.array([1, "a", 1, "a"], dtype=object), np.array([1, 1, "a", "a"], dtype=object), "y_true"),
    ([1, 2, 1], ["a", "b", "a"], "y_pred holds strings, y_true numbers"),
    (["a", "b", "a"], [1, 2, 1], "y_true holds strings, y_pred numbers"),
])
def test_mixed_label_types_raise_a_value_error(y_true, y_pred, where):
    with pytest.raises(ValueError, match=f"labels mix strings and numbers \\({where}"):
        per_class_metrics(y_true, y_pred)


def test_string_labels_of_one_type_still_work():
    table = per_class_metrics(np.array(["a", "b", "a"], dtype=object), np.array(["a", "a", "b"]))
    assert list(table.index[:2]) == ["a", "b"]


def test_regression_metrics_on_a_target_with_a_range_below_one():
    y_true = np.array([0.1, 0.2, 0.4])
    y_pred = np.array([0.15, 0.2, 0.3])
    m = regression_metrics(y_true, y_pred)
    sst = np.sum((y_true - y_true.mean()) ** 2)
    assert m["r2"] == pytest.approx(1 - (0.05**2 + 0.1**2) / sst, abs=1e-12)
    assert_same(m["r2"], skm.r2_score(y_true, y_pred))
    assert m["rrse"] == pytest.approx(math.sqrt((0.05**2 + 0.1**2) / sst), abs=1e-12)


def test_rmsle_is_nan_at_a_prediction_of_exactly_minus_one():
    assert math.isnan(strict(regression_metrics, [1.0, 2.0], [-1.0, 1.0])["rmsle"])
    assert math.isnan(strict(regression_metrics, [-1.0, 2.0], [1.0, 1.0])["rmsle"])
    just_above = regression_metrics([1.0, 2.0], [-0.999, 1.0])["rmsle"]
    assert just_above == pytest.approx(math.sqrt((np.log(2) - np.log(0.001)) ** 2 / 2 + (np.log(3) - np.log(2)) ** 2 / 2))


@pytest.mark.parametrize("function, message", [
    (lambda: regression_metrics([1.0, np.nan], [1.0, 2.0]), "y_true contains NaN"),
    (lambda: regression_metrics([1.0, 2.0], [1.0, np.nan]), "y_pred contains NaN"),
    (lambda: regression_metrics([1.0, np.inf], [1.0, 2.0]), "y_true contains NaN or infinite values"),
    (lambda: regression_metrics([1.0, 2.0], [1.0, -np.inf]), "y_pred contains NaN or infinite values"),
    (lambda: regression_metrics(["a", "b"], [1.0, 2.0]), "y_true must be numeric"),
    (lambda: regression_metrics([1.0, 2.0], ["a", "b"]), "y_pred must be numeric"),
    (lambda: confusion_counts([0, 1, np.nan], [0, 1, 1]), "y_true contains NaN"),
    (lambda: confusion_counts([0, 1, 1], [0, np.nan, 1]), "y_pred contains NaN"),
    (lambda: per_class_metrics([0, 1, 2], [0, None, 1]), "y_pred contains NaN or None"),
    (lambda: asymmetric_cost([1.0, 2.0], [1.0, np.nan]), "y_pred contains NaN"),
])
def test_bad_input_names_the_array(function, message):
    with pytest.raises(ValueError, match=message):
        function()


def test_asymmetric_cost_by_hand():
    y_true = np.array([10.0, 10.0, 10.0, 10.0])
    y_pred = np.array([12.0, 9.0, 10.0, 6.0])  # over by 2; under by 1, 0 and 4
    result = asymmetric_cost(y_true, y_pred, cost_over=3, cost_under=1)
    assert result == {"mean_cost": (3 * 2 + 1 + 4) / 4, "over": 2 / 4, "under": 5 / 4}
    assert result["over"] + result["under"] == regression_metrics(y_true, y_pred)["mae"]
    assert asymmetric_cost(y_true, y_pred) == {"mean_cost": 7 / 4, "over": 2 / 4, "under": 5 / 4}
    assert asymmetric_cost(y_true, y_pred, cost_under=2)["mean_cost"] == (2 + 2 * 5) / 4
    assert asymmetric_cost(y_true, y_true) == {"mean_cost": 0.0, "over": 0.0, "under": 0.0}


@pytest.mark.parametrize("kwargs, message", [
    ({"cost_over": -1}, "cost_over must be a finite number >= 0"),
    ({"cost_over": True}, "cost_over must be a finite number >= 0"),
    ({"cost_under": "1"}, "cost_under must be a finite number >= 0"),
    ({"cost_under": np.nan}, "cost_under must be a finite number >= 0"),
    ({"cost_under": np.inf}, "cost_under must be a finite number >= 0"),
])
def test_asymmetric_cost_refuses_bad_costs(kwargs, message):
    with pytest.raises(ValueError, match=message):
        asymmetric_cost([1.0, 2.0], [1.0, 3.0], **kwargs)


def test_asymmetric_cost_does_not_modify_its_input():
    y_true, y_pred = np.array([1.0, 2.0]), np.array([3.0, 0.0])
    asymmetric_cost(y_true, y_pred, 2, 1)
    assert y_true.tolist() == [1.0, 2.0] and y_pred.tolist() == [3.0, 0.0]


def test_ranking_flip_beta_by_hand():
    # s = (TP_b FP_a - TP_a FP_b) / (TP_a FN_b - TP_b FN_a) = (50*420 - 280*5) / (280*250 - 50*20)
    expected = math.sqrt((50 * 420 - 280 * 5) / (280 * 250 - 50 * 20))
    assert ranking_flip_beta(HIGH_RECALL, HIGH_PRECISION) == pytest.approx(expected, abs=1e-15)
    assert math.isnan(ranking_flip_beta(HIGH_RECALL, HIGH_RECALL))  # zero denominator
    assert math.isnan(ranking_flip_beta((10, 1, 1, 0), (5, 5, 5, 0)))  # one dominates: never equal
    at_flip = fbeta_state(expected)
    assert at_flip["leader"] == "tie" and at_flip["flip_beta"] == pytest.approx(expected)


def test_fbeta_state_leader_and_text():
    low, high = fbeta_state(0.25), fbeta_state(4.0)
    assert low["leader"] == "B (high precision)" and high["leader"] == "A (high recall)"
    assert high["recall"] == {"A (high recall)": 280 / 300, "B (high precision)": 50 / 300}
    assert low["precision"] == {"A (high recall)": 280 / 700, "B (high precision)": 50 / 55}
    assert low["beta"] == 0.25 and isinstance(fbeta_state(2)["beta"], float)
    text = describe_fbeta_state(high)
    assert text.startswith("beta = 4.00 | F-beta A (high recall): ")
    assert "ranks first: A (high recall) | the ranking flips at beta = 0.533" in text


@pytest.mark.parametrize("matrix, message", [
    ([[1, -1], [2, 3]], "^cm contains negative counts$"),
    ([[1, np.nan], [2, 3]], "^cm contains NaN or infinite values$"),
    ([[1, np.inf], [2, 3]], "^cm contains NaN or infinite values$"),
    ([[0, 0], [0, 0]], "^cm is empty: its counts add up to 0$"),
])
def test_kappa_by_hand_messages_in_full(matrix, message):
    with pytest.raises(ValueError, match=message):
        kappa_by_hand(matrix)



def test_asymmetric_cost_accepts_zero_and_fractional_costs():
    y_true, y_pred = np.array([1.0, 1.0]), np.array([2.0, 0.0])  # over by 1, under by 1
    assert asymmetric_cost(y_true, y_pred, cost_over=0, cost_under=0.5)["mean_cost"] == 0.25
    assert asymmetric_cost(y_true, y_pred, cost_over=0.5, cost_under=0)["mean_cost"] == 0.25


def test_describe_fbeta_state_in_full():
    assert describe_fbeta_state(fbeta_state(1.0)) == (
        "beta = 1.00 | F-beta A (high recall): 0.560, B (high precision): 0.282 | ranks first: A (high recall) | "
        "the ranking flips at beta = 0.533")


def test_integer_classes_keep_an_integer_dtype():
    _, classes = multiclass_confusion(np.array([3, 1, 3], dtype=np.int16), np.array([1, 1, 2], dtype=np.int8))
    assert classes.dtype == np.int16 and classes.tolist() == [1, 2, 3]
    _, classes = multiclass_confusion(np.array([0, 1]), np.array([True, False]))
    assert classes.dtype.kind == "i" and classes.tolist() == [0, 1]


@pytest.mark.parametrize("y_true, y_pred, classes, matrix", [
    ([0, 1, 1], [0.0, 1.5, 1.0], [0.0, 1.0, 1.5], [[1, 0, 0], [0, 1, 1], [0, 0, 0]]),
    ([0.0, 1.5, 1.0], [0, 1, 1], [0.0, 1.0, 1.5], [[1, 0, 0], [0, 1, 0], [0, 1, 0]]),
])
def test_integer_and_float_labels_together_are_not_truncated(y_true, y_pred, classes, matrix):
    got_matrix, got_classes = multiclass_confusion(np.array(y_true), np.array(y_pred))
    assert got_classes.tolist() == classes and got_matrix.tolist() == matrix


@pytest.mark.parametrize("y_true, y_pred, message", [
    ([0, 1, 5], [0, 1, 1], r"^y_true contains labels not in labels: \[5\]$"),
    ([0, 1, 1], [0, 7, 1], r"^y_pred contains labels not in labels: \[7\]$"),
])
def test_labels_argument_names_the_array_with_unknown_labels(y_true, y_pred, message):
    with pytest.raises(ValueError, match=message):
        per_class_metrics(y_true, y_pred, labels=[0, 1])


def test_messages_list_labels_of_mixed_types_and_name_the_labels_argument():
    with pytest.raises(ValueError, match=r"^pos_label='b' is not a valid label: it should be one of \[1, 'a'\]$"):
        confusion_counts(np.array([1, "a"], dtype=object), np.array([1, "a"], dtype=object), pos_label="b")
    with pytest.raises(ValueError, match=r"^labels mix strings and numbers \(labels holds strings, y_true numbers\)"):
        per_class_metrics([0, 1], [0, 1], labels=[0, "a"])
