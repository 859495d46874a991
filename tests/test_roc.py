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
from helpers.roc_plots import plot_roc_sweep, plot_score_histograms  # noqa: E402
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


# --------------------------------------------------------------------------- lift, interpolated AP, bootstrap interval
from helpers.roc import (bootstrap_auc_interval, describe_threshold_state, interpolated_average_precision, lift_at,  # noqa: E402
                         sweep_state, threshold_state, ThresholdSweep)


@pytest.mark.parametrize("fraction, lift", [
    (0.5, (4 / 5) / 0.5),   # the notes' example corrected: precision@50% / prevalence = 0.8 / 0.5
    (0.1, (1 / 1) / 0.5),   # the top tuple is positive
    (0.3, (2 / 3) / 0.5),   # 0.9, 0.8 positive, 0.7 negative
    (1.0, 1.0),             # everything: the prevalence itself
    (0.04, 2.0),            # round(0.4) = 0 rows: at least one row is taken
])
def test_lift_on_the_ten_tuples(fraction, lift):
    assert lift_at(ROC_TEN_LABELS, ROC_TEN_SCORES, fraction) == pytest.approx(lift, abs=1e-12)


def test_lift_is_recall_over_k_and_respects_pos_label():
    y = np.array(["no", "yes", "no", "yes", "no", "no", "no", "no"])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    # top 25 % = 2 rows ("no", "yes"): recall 1/2, K = 1/4, lift 2
    assert lift_at(y, s, 0.25, pos_label="yes") == pytest.approx(2.0)
    # with "no" positive: top 2 rows hold 1 of 6 "no"s, recall 1/6 over K = 1/4
    assert lift_at(y, s, 0.25, pos_label="no") == pytest.approx((1 / 6) / 0.25)


def test_lift_breaks_ties_in_input_order():
    # both top scores tie; a stable sort keeps the negative (first) ahead of the positive
    assert lift_at([0, 1, 1, 0], [0.9, 0.9, 0.1, 0.1], 0.25) == 0.0
    assert lift_at([1, 0, 1, 0], [0.9, 0.9, 0.1, 0.1], 0.25) == 2.0


@pytest.mark.parametrize("fraction", [0, -0.1, 1.5, True, "0.5", None, np.nan])
def test_lift_refuses_bad_fractions(fraction):
    with pytest.raises(ValueError, match="fraction must be a number in"):
        lift_at(ROC_TEN_LABELS, ROC_TEN_SCORES, fraction)


def test_interpolated_average_precision_on_the_ten_tuples():
    # positives at ranks 1, 2, 4, 5, 9: precision 1, 1, 3/4, 4/5, 5/9; interpolation lifts 3/4 to 4/5
    assert interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES) == pytest.approx(
        (1 + 1 + 0.8 + 0.8 + 5 / 9) / 5, abs=1e-12)
    # eleven levels: 0 .. 0.4 -> 1, 0.5 .. 0.8 -> 0.8, 0.9 and 1 -> 5/9
    assert interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES, n_points=11) == pytest.approx(
        (5 * 1 + 4 * 0.8 + 2 * 5 / 9) / 11, abs=1e-12)
    # three levels 0, 0.5, 1
    assert interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES, n_points=3) == pytest.approx(
        (1 + 0.8 + 5 / 9) / 3, abs=1e-12)


def brute_interpolated(y, s, levels=None):
    """Interpolated precision by brute force over every distinct threshold."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    thresholds = np.unique(s)[::-1]
    points = [(1.0, 0.0)] + [(float(np.mean(y[s >= t])), float(np.sum(y[s >= t]) / y.sum())) for t in thresholds]
    precision = np.array([p for p, _ in points])
    recall = np.array([r for _, r in points])

    def best(r):  # the best precision a real threshold reaches at recall r or beyond (not the first row's 1)
        return precision[1:][recall[1:] >= r - 1e-12].max()
    if levels is None:
        return sum((recall[i] - recall[i - 1]) * best(recall[i]) for i in range(1, len(points)))
    return float(np.mean([best(r) for r in levels]))


@PROPERTY
@given(binary_scores())
def test_interpolated_average_precision_equals_brute_force(problem):
    y, s = problem
    interpolated = interpolated_average_precision(y, s)
    assert interpolated == pytest.approx(brute_interpolated(y, s), abs=1e-9)
    assert interpolated >= average_precision_by_hand(y, s) - 1e-12
    assert interpolated_average_precision(y, s, n_points=11) == pytest.approx(
        brute_interpolated(y, s, np.linspace(0, 1, 11)), abs=1e-9)


@pytest.mark.parametrize("n_points", [1, 0, 2.0, True, "11"])
def test_interpolated_average_precision_refuses_bad_n_points(n_points):
    with pytest.raises(ValueError, match="n_points must be"):
        interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES, n_points=n_points)


def test_bootstrap_auc_interval_equals_an_independent_loop():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = y * 0.4 + rng.normal(size=60)
    result = bootstrap_auc_interval(y, s, n_rounds=200, confidence=0.9, random_state=11)
    replay = np.random.default_rng(11)
    pos, neg = s[y == 1], s[y == 0]
    aucs = []
    for _ in range(200):
        resampled = np.concatenate([replay.choice(pos, pos.size), replay.choice(neg, neg.size)])
        aucs.append(roc_auc_score(np.repeat([1, 0], [pos.size, neg.size]), resampled))
    assert result["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert result["low"] == pytest.approx(np.quantile(aucs, 0.05), abs=1e-12)
    assert result["high"] == pytest.approx(np.quantile(aucs, 0.95), abs=1e-12)
    assert result["standard_error"] == pytest.approx(np.std(aucs, ddof=1), abs=1e-12)
    assert result["n_rounds"] == 200


def test_bootstrap_auc_interval_defaults_and_pos_label():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(40) < 0.4, "yes", "no")
    s = (y == "yes") + rng.normal(size=40)
    default = bootstrap_auc_interval(y, s, pos_label="yes", random_state=1)
    assert default["n_rounds"] == 1000
    explicit = bootstrap_auc_interval(y, s, pos_label="yes", n_rounds=1000, confidence=0.95, random_state=1)
    assert default == explicit
    assert default["low"] < default["auc"] < default["high"]
    flipped = bootstrap_auc_interval(y, s, pos_label="no", random_state=1)
    assert flipped["auc"] == pytest.approx(1 - default["auc"])


def test_bootstrap_interval_of_a_perfect_ranking_is_a_point():
    result = bootstrap_auc_interval([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], n_rounds=50, random_state=0)
    assert (result["auc"], result["low"], result["high"], result["standard_error"]) == (1.0, 1.0, 1.0, 0.0)


def test_a_wider_confidence_gives_a_wider_interval():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 80)
    s = y * 0.5 + rng.normal(size=80)
    narrow = bootstrap_auc_interval(y, s, n_rounds=300, confidence=0.5, random_state=2)
    wide = bootstrap_auc_interval(y, s, n_rounds=300, confidence=0.99, random_state=2)
    assert wide["low"] < narrow["low"] < narrow["high"] < wide["high"]


@pytest.mark.parametrize("kwargs, message", [
    ({"n_rounds": 1}, "n_rounds must be at least 2"), ({"n_rounds": 10.0}, "n_rounds must be an integer"),
    ({"confidence": 1}, "confidence must be a number strictly between 0 and 1"),
    ({"confidence": True}, "confidence must be a number strictly between 0 and 1"),
    ({"confidence": "0.9"}, "confidence must be a number strictly between 0 and 1"),
])
def test_bootstrap_auc_interval_refuses_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bootstrap_auc_interval(ROC_TEN_LABELS, ROC_TEN_SCORES, **kwargs)


# --------------------------------------------------------------------------- threshold state: gaps found by mutation testing
def test_threshold_state_with_another_positive_class():
    # "yes" is positive; scores as for the ten tuples
    labels = np.where(np.array(ROC_TEN_LABELS) == 1, "yes", "no")
    state = threshold_state(labels, ROC_TEN_SCORES, 0.55, pos_label="yes")
    assert (state["tp"], state["fp"], state["fn"], state["tn"]) == (4, 1, 1, 4)
    # with the 0 class positive, the highest scores are the *negatives*
    zero = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55, pos_label=0)
    assert (zero["tp"], zero["fp"], zero["fn"], zero["tn"]) == (1, 4, 4, 1)


def test_optimal_points_carry_their_precision():
    state = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=1, cost_fn=1)
    assert state["cost_optimal"]["precision"] == pytest.approx(4 / 5)  # threshold 0.55: TP 4, FP 1
    assert state["youden"]["precision"] == pytest.approx(4 / 5)
    dear = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=1, cost_fn=5)
    assert dear["cost_optimal"]["precision"] == pytest.approx(5 / 9)  # threshold 0.5: TP 5, FP 4
    free_misses = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=1, cost_fn=0)
    assert free_misses["cost_optimal"]["threshold"] == np.inf  # call nobody
    assert np.isnan(free_misses["cost_optimal"]["precision"])  # 0 / 0 at the inf row


def test_threshold_state_default_costs_are_one():
    default = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.6)
    assert (default["cost_fp"], default["cost_fn"]) == (1.0, 1.0)
    assert default["total_cost"] == 1 + 2  # FP 1, FN 2 at threshold 0.6
    sweep = ThresholdSweep.from_scores(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert sweep_state(sweep, 0.6) == default
    only_fn = sweep_state(sweep, 0.6, cost_fn=3.0)
    assert only_fn["cost_fp"] == 1.0 and only_fn["total_cost"] == 1 + 3 * 2


@pytest.mark.parametrize("kwargs, message", [
    ({"cost_fp": True}, "cost_fp must be a finite number >= 0"),
    ({"cost_fp": "1"}, "cost_fp must be a finite number >= 0"),
    ({"cost_fn": False}, "cost_fn must be a finite number >= 0"),
    ({"cost_fn": "2"}, "cost_fn must be a finite number >= 0"),
    ({"cost_fn": np.inf}, "cost_fn must be a finite number >= 0"),
    ({"threshold": True}, "threshold must be a number"),
    ({"threshold": "0.5"}, "threshold must be a number"),
])
def test_threshold_state_refuses_bool_and_str(kwargs, message):
    arguments = {"threshold": 0.5, **kwargs}
    with pytest.raises(ValueError, match=message):
        threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, **arguments)


def test_sweep_counts_and_totals():
    sweep = ThresholdSweep.from_scores(ROC_TEN_LABELS, ROC_TEN_SCORES)
    assert (sweep.positives, sweep.negatives) == (5, 5)
    assert isinstance(sweep.positives, int) and isinstance(sweep.negatives, int)
    assert sweep.thresholds[0] == np.inf and list(sweep.tp[:3]) == [0, 1, 2] and list(sweep.fp[:4]) == [0, 0, 0, 1]
    assert ThresholdSweep.from_scores(ROC_TEN_LABELS, ROC_TEN_SCORES, pos_label=0).positives == 5
    assert ThresholdSweep.from_scores([1, 0, 0], [0.2, 0.3, 0.1], pos_label=0).positives == 2


def test_describe_threshold_state_in_full():
    state = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55, cost_fp=1, cost_fn=2)
    assert describe_threshold_state(state).split("\n") == [
        "threshold     0.550",
        "TP 4  FP 1  FN 1  TN 4",
        "precision     0.800",
        "recall (TPR)  0.800",
        "specificity   0.800",
        "F1            0.800",
        "accuracy      0.800",
        "cost          1 x FP + 2 x FN",
        "total cost    3.0",
        "expected cost 0.300 per sample",
        "cost-optimal  t = 0.550 (total 3.0)",
        "Youden J max  t = 0.550 (J = 0.600)",
    ]


def test_both_costs_zero_message_in_full():
    with pytest.raises(ValueError, match="^cost_fp and cost_fn are both 0: every threshold would cost nothing$"):
        threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=0, cost_fn=0.0)


@pytest.mark.parametrize("fpr, tpr, message", [
    ([0, np.inf], [0, 1], "^fpr contains infinite values"),
    ([0, 1], [0, -np.inf], "^tpr contains infinite values"),
    ([0, 1], [0, np.nan], "^tpr contains NaN"),
    (["a", "b"], [0, 1], "^fpr must hold numbers"),
    ([0, 1], ["a", "b"], "^tpr must hold numbers"),
])
def test_auc_trapezoid_names_the_array(fpr, tpr, message):
    with pytest.raises(ValueError, match=message):
        auc_trapezoid(fpr, tpr)


def test_lift_breaks_large_ties_in_input_order_like_a_stable_sort():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 3, 40).astype(float)  # three distinct scores: big tie blocks
    y = (np.arange(40) % 2 == 0).astype(int)
    ranked = sorted(range(40), key=lambda i: (-s[i], i))  # highest score first, ties in input order
    for fraction in (0.1, 0.25, 0.5, 0.75):
        top = ranked[:round(fraction * 40)]
        assert lift_at(y, s, fraction) == pytest.approx(y[top].mean() / y.mean(), abs=1e-12), fraction


def test_interpolated_average_precision_with_two_points_and_another_positive_class():
    # two levels, recall 0 and 1: (best precision overall + precision at full recall) / 2
    assert interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES, n_points=2) == pytest.approx((1 + 5 / 9) / 2)
    words = np.where(np.array(ROC_TEN_LABELS) == 1, "P", "N")
    assert interpolated_average_precision(words, ROC_TEN_SCORES, pos_label="P") == pytest.approx(
        interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES))
    flipped = interpolated_average_precision(ROC_TEN_LABELS, ROC_TEN_SCORES, pos_label=0)
    assert flipped == pytest.approx(brute_interpolated(1 - np.array(ROC_TEN_LABELS), ROC_TEN_SCORES), abs=1e-12)


def test_auc_trapezoid_accepts_a_decreasing_curve_with_repeated_x():
    assert auc_trapezoid([1, 0.5, 0.5, 0], [1, 0.75, 0.5, 0]) == pytest.approx(0.5 * (1 + 0.75) / 2 + 0.5 * 0.5 / 2)
    with pytest.raises(ValueError, match="^fpr is neither increasing nor decreasing; sort the points first$"):
        auc_trapezoid([0, 0.7, 0.5, 1], [0, 0.5, 0.6, 1])


def test_pr_table_starts_with_no_prediction():
    first = pr_table(ROC_TEN_LABELS, ROC_TEN_SCORES).iloc[0]
    assert (first["threshold"], first["tp"], first["fp"], first["precision"], first["recall"]) == (np.inf, 0, 0, 1.0, 0.0)


def test_youdens_j_is_the_cost_optimum_when_cfn_over_cfp_is_n_over_p():
    # 02 section 7: a unit of TPR is worth C_FN x P and a unit of FPR costs C_FP x N, so J's equal weights are
    # the costs C_FN / C_FP = N / P; the inverted reading (C_FN / C_FP = P / N) picks another threshold here
    rng = np.random.default_rng(7)
    y = np.repeat([0, 1], [400, 60])
    scores = y * 0.8 + rng.normal(size=460)
    n_neg, n_pos = 400, 60
    state = threshold_state(y, scores, 0.5, cost_fp=n_pos, cost_fn=n_neg)
    assert state["cost_optimal"]["threshold"] == state["youden"]["threshold"]
    assert state["cost_optimal"]["total_cost"] == pytest.approx(n_neg * n_pos * (1 - state["youden"]["youden_j"]))
    inverted = threshold_state(y, scores, 0.5, cost_fp=n_neg, cost_fn=n_pos)
    assert inverted["cost_optimal"]["threshold"] != inverted["youden"]["threshold"]
