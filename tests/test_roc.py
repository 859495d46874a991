"""helpers.roc: the lecture notes' 10-tuple example by hand, and scikit-learn on random scores."""

import matplotlib

matplotlib.use("Agg")  # figures are drawn off screen

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES  # noqa: E402
from helpers.plotting import plot_roc_sweep, plot_score_histograms  # noqa: E402
from helpers.roc import (  # noqa: E402
    PR_COLUMNS,
    ROC_COLUMNS,
    auc_rank,
    auc_trapezoid,
    average_precision_by_hand,
    pr_table,
    roc_counts,
    roc_table,
)

PROPERTY = settings(max_examples=150, deadline=None, derandomize=True)

# The notes' table (000, section 1.6) worked out again by hand: one row per tuple,
# after the first row at threshold inf. Row 9 (class P, p = 0.50) has TN = 1 and
# FN = 0; the notes print TN = 0, FN = 1, which would make P = TP + FN = 6.
TEN_ROWS = [
    # threshold, tp, fp, tn, fn
    (np.inf, 0, 0, 5, 5),
    (0.90, 1, 0, 5, 4),
    (0.80, 2, 0, 5, 3),
    (0.70, 2, 1, 4, 3),
    (0.60, 3, 1, 4, 2),
    (0.55, 4, 1, 4, 1),
    (0.54, 4, 2, 3, 1),
    (0.53, 4, 3, 2, 1),
    (0.51, 4, 4, 1, 1),
    (0.50, 5, 4, 1, 0),
    (0.40, 5, 5, 0, 0),
]
# The ROC points of the notes, written the right way round: (x = FPR, y = TPR).
TEN_POINTS = [(0, 0), (0, 0.2), (0, 0.4), (0.2, 0.4), (0.2, 0.6), (0.2, 0.8), (0.4, 0.8),
              (0.6, 0.8), (0.8, 0.8), (0.8, 1), (1, 1)]


# --------------------------------------------------------------------------- strategies
@st.composite
def binary_scores(draw, max_size=60):
    """Labels with both classes and scores with many ties (few distinct values)."""
    n = draw(st.integers(2, max_size))
    labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    labels[0], labels[1] = 0, 1  # both classes present
    ties = draw(st.booleans())
    values = st.integers(0, 6).map(lambda v: v / 6) if ties else st.floats(-5, 5, allow_nan=False)
    scores = draw(st.lists(values, min_size=n, max_size=n))
    order = draw(st.permutations(range(n)))
    return np.array(labels)[order], np.array(scores, dtype=float)[order]


# --------------------------------------------------------------------------- the lecture example
def test_ten_tuple_table_matches_the_hand_computation():
    table = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert list(table.columns) == ROC_COLUMNS
    rows = [(row.threshold, row.tp, row.fp, row.tn, row.fn) for row in table.itertuples()]
    assert rows == TEN_ROWS
    assert list(zip(table["fpr"].round(10), table["tpr"].round(10))) == TEN_POINTS


def test_ten_tuple_row_9_is_the_corrected_one():
    row = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES).iloc[9]
    assert (row.threshold, row.tp, row.fp, row.tn, row.fn) == (0.5, 5, 4, 1, 0)
    # every row keeps TP + FN = P = 5 and FP + TN = N = 5; the notes' TN=0, FN=1 would not
    assert row.tp + row.fn == 5 and row.fp + row.tn == 5


def test_ten_tuple_precision_column():
    precision = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES)["precision"]
    assert np.isnan(precision[0])  # nothing predicted positive: 0 / 0
    assert precision[1:].tolist() == pytest.approx([1, 1, 2 / 3, 3 / 4, 4 / 5, 4 / 6, 4 / 7, 4 / 8, 5 / 9, 5 / 10])


def test_ten_tuple_auc_is_19_over_25_both_ways():
    table = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert auc_trapezoid(table["fpr"], table["tpr"]) == pytest.approx(19 / 25)
    assert auc_rank(ROC_TEN_LABELS, ROC_TEN_SCORES) == pytest.approx(0.76)


def test_ten_tuple_gini_and_the_area_above_the_diagonal():
    auc = auc_rank(ROC_TEN_LABELS, ROC_TEN_SCORES)
    table = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES)
    above_diagonal = auc_trapezoid(table["fpr"], table["tpr"] - table["fpr"])
    assert above_diagonal == pytest.approx(0.26)
    assert 2 * auc - 1 == pytest.approx(0.52) == 2 * above_diagonal  # Gini
    assert 0.5 + above_diagonal == pytest.approx(auc)  # not 2 x the area, as the notes write


def test_ten_tuple_pr_table_and_average_precision():
    table = pr_table(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert list(table.columns) == PR_COLUMNS
    assert table["recall"].tolist() == pytest.approx([0, .2, .4, .4, .6, .8, .8, .8, .8, 1, 1])
    assert table["precision"][0] == 1.0  # scikit-learn's starting convention
    # AP = sum of precision where recall grows, times 0.2: rows 0.9, 0.8, 0.6, 0.55, 0.5
    expected = 0.2 * (1 + 1 + 3 / 4 + 4 / 5 + 5 / 9)
    assert average_precision_by_hand(ROC_TEN_LABELS, ROC_TEN_SCORES) == pytest.approx(expected)


def test_roc_counts_are_the_table_without_the_table():
    thresholds, tp, fp = roc_counts(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert thresholds.tolist() == [row[0] for row in TEN_ROWS]
    assert tp.tolist() == [row[1] for row in TEN_ROWS] and fp.tolist() == [row[2] for row in TEN_ROWS]


def test_ties_form_one_row_and_count_one_half():
    y, s = [1, 0, 1, 0], [0.8, 0.8, 0.3, 0.1]
    table = roc_table(y, s)
    assert table["threshold"].tolist() == [np.inf, 0.8, 0.3, 0.1]
    assert table[["tp", "fp"]].values.tolist() == [[0, 0], [1, 1], [2, 1], [2, 2]]
    # pairs (pos, neg): (0.8, 0.8) tie = 1/2, (0.8, 0.1) = 1, (0.3, 0.8) = 0, (0.3, 0.1) = 1
    assert auc_rank(y, s) == pytest.approx(2.5 / 4)


def test_string_labels_and_pos_label():
    y = np.array(["no", "yes", "yes", "no", "yes"])
    s = np.array([0.1, 0.9, 0.4, 0.35, 0.8])
    table = roc_table(y, s, pos_label="yes")
    fpr, tpr, thresholds = roc_curve(y, s, pos_label="yes", drop_intermediate=False)
    assert np.array_equal(table["fpr"], fpr) and np.array_equal(table["tpr"], tpr)
    assert auc_rank(y, s, pos_label="yes") == pytest.approx(roc_auc_score(y == "yes", s))
    # the other class as positive mirrors the curve: AUC becomes 1 - AUC
    assert auc_rank(y, s, pos_label="no") == pytest.approx(1 - auc_rank(y, s, pos_label="yes"))


def test_auc_trapezoid_accepts_either_direction():
    fpr, tpr = [0, 0.5, 1], [0, 0.75, 1]
    assert auc_trapezoid(fpr, tpr) == pytest.approx(0.625)
    assert auc_trapezoid(fpr[::-1], tpr[::-1]) == pytest.approx(0.625)


# --------------------------------------------------------------------------- against scikit-learn
@PROPERTY
@given(binary_scores())
def test_roc_table_equals_roc_curve(data):
    y, s = data
    table = roc_table(y, s)
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    assert np.array_equal(table["fpr"], fpr)
    assert np.array_equal(table["tpr"], tpr)
    assert np.array_equal(table["threshold"], thresholds)
    positives, negatives = int(y.sum()), int((1 - y).sum())
    assert (table["tp"] + table["fn"] == positives).all() and (table["fp"] + table["tn"] == negatives).all()


@PROPERTY
@given(binary_scores())
def test_pos_label_zero_equals_roc_curve(data):
    y, s = data
    table = roc_table(y, s, pos_label=0)
    fpr, tpr, _ = roc_curve(y, s, pos_label=0, drop_intermediate=False)
    assert np.array_equal(table["fpr"], fpr) and np.array_equal(table["tpr"], tpr)


@PROPERTY
@given(binary_scores())
def test_both_aucs_equal_roc_auc_score(data):
    y, s = data
    table = roc_table(y, s)
    expected = roc_auc_score(y, s)
    assert auc_trapezoid(table["fpr"], table["tpr"]) == pytest.approx(expected, abs=1e-12)
    assert auc_rank(y, s) == pytest.approx(expected, abs=1e-12)


@PROPERTY
@given(binary_scores(max_size=25))
def test_auc_rank_counts_pairs(data):
    y, s = data
    pos, neg = s[y == 1][:, None], s[y == 0][None, :]
    by_pairs = ((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (pos.size * neg.size)
    assert auc_rank(y, s) == pytest.approx(by_pairs, abs=1e-12)


@PROPERTY
@given(binary_scores())
def test_pr_table_equals_precision_recall_curve(data):
    y, s = data
    table = pr_table(y, s)
    precision, recall, thresholds = precision_recall_curve(y, s)
    assert np.array_equal(table["precision"].to_numpy()[::-1], precision)
    assert np.array_equal(table["recall"].to_numpy()[::-1], recall)
    assert np.array_equal(table["threshold"].to_numpy()[1:][::-1], thresholds)


@PROPERTY
@given(binary_scores())
def test_average_precision_equals_scikit_learn(data):
    y, s = data
    assert average_precision_by_hand(y, s) == pytest.approx(average_precision_score(y, s), abs=1e-12)


# --------------------------------------------------------------------------- bad input
TABLES = [roc_table, pr_table, auc_rank, average_precision_by_hand]


@pytest.mark.parametrize("function", TABLES)
@pytest.mark.parametrize("y, s, message", [
    ([0, 1, 1], [0.1, 0.2], "different lengths"),
    ([1, 1, 1], [0.1, 0.2, 0.3], "only one class"),
    ([0, 1, 2], [0.1, 0.2, 0.3], "two classes"),
    ([0, 1, 1], [0.1, np.nan, 0.3], "NaN"),
    ([0, 1, 1], [0.1, np.inf, 0.3], "infinite"),
    ([0, 1, 1], [0.1, -np.inf, 0.3], "infinite"),
    ([], [], "empty"),
    ([0, 1], [[0.1, 0.9], [0.8, 0.2]], "one-dimensional"),
    ([0, 1], ["a", "b"], "numbers"),
    ([0.0, np.nan, 1.0], [0.1, 0.2, 0.3], "NaN"),
    (["a", None, "b"], [0.1, 0.2, 0.3], "NaN or None"),
])
def test_bad_input_raises_a_clear_value_error(function, y, s, message):
    with pytest.raises(ValueError, match=message):
        function(y, s)


@pytest.mark.parametrize("function", TABLES)
def test_unknown_pos_label(function):
    with pytest.raises(ValueError, match=r"pos_label=2 is not a valid label: it should be one of \[0, 1\]"):
        function([0, 1, 1], [0.1, 0.2, 0.3], pos_label=2)


@pytest.mark.parametrize("fpr, tpr, message", [
    ([0, 0.5, 1], [0, 1], "different lengths"),
    ([0], [0], "at least 2 points"),
    ([0, 0.7, 0.5, 1], [0, 0.5, 0.6, 1], "neither increasing nor decreasing"),
    ([0, np.nan, 1], [0, 0.5, 1], "NaN"),
    ([], [], "empty"),
])
def test_auc_trapezoid_bad_input(fpr, tpr, message):
    with pytest.raises(ValueError, match=message):
        auc_trapezoid(fpr, tpr)


def test_inputs_are_not_modified():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.3, 0.9, 0.5, 0.1, 0.5, 0.2])
    y_before, s_before = y.copy(), s.copy()
    y.setflags(write=False)
    s.setflags(write=False)  # any write would raise
    for function in TABLES:
        function(y, s)
    table = roc_table(y, s)
    auc_trapezoid(table["fpr"], table["tpr"])
    assert np.array_equal(y, y_before) and np.array_equal(s, s_before)


# --------------------------------------------------------------------------- figures
def test_plot_roc_sweep_draws_the_first_rows():
    table = roc_table(ROC_TEN_LABELS, ROC_TEN_SCORES)
    ax = plot_roc_sweep(table, upto=4)
    path = ax.lines[1]  # after the diagonal
    assert np.allclose(np.column_stack([path.get_xdata(), path.get_ydata()]), TEN_POINTS[:4])
    assert [t.get_text() for t in ax.texts] == ["inf", "0.90", "0.80", "0.70"]
    with pytest.raises(ValueError, match="upto must be between 1 and the table's 11 rows"):
        plot_roc_sweep(table, upto=12)
    plt.close("all")


def test_plot_score_histograms_draws_two_densities():
    ax = plot_score_histograms(ROC_TEN_LABELS, ROC_TEN_SCORES, bins=5)
    for patch in ax.patches:  # one StepPatch per class, each a density: area 1
        values, edges = patch.get_data()[:2]
        assert np.sum(values * np.diff(edges)) == pytest.approx(1.0)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["negative (n=5)", "positive (n=5)"]
    with pytest.raises(ValueError, match="only one class"):
        plot_score_histograms([1, 1], [0.2, 0.4])
    plt.close("all")
