"""helpers.widgets.threshold_state and the threshold slider, without a browser.

Costs: ``total_cost = cost_fp * FP + cost_fn * FN`` over the whole set and
``expected_cost = total_cost / n`` (per sample), everywhere below.
"""

import math

import ipywidgets as widgets
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.roc import describe_threshold_state, threshold_state
from helpers.widgets import ThresholdExplorer, threshold_explorer

PROPERTY = settings(max_examples=150, deadline=None, derandomize=True)


def same(a, b) -> bool:
    """Equal numbers (nan equals nan), recursively through dicts."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


def brute_force(y, s, threshold, cost_fp, cost_fn):
    """Counts by a plain loop; optimal thresholds by trying every candidate, highest first."""
    def counts(t):
        tp = sum(1 for label, score in zip(y, s) if score >= t and label == 1)
        fp = sum(1 for label, score in zip(y, s) if score >= t and label == 0)
        return tp, fp, sum(y) - tp, len(y) - sum(y) - fp

    tp, fp, fn, tn = counts(threshold)
    candidates = [math.inf] + sorted(set(s), reverse=True)
    best_cost = best_j = None
    for t in candidates:
        c_tp, c_fp, c_fn, c_tn = counts(t)
        cost = cost_fp * c_fp + cost_fn * c_fn
        j = c_tp / (c_tp + c_fn) - c_fp / (c_fp + c_tn)
        if best_cost is None or cost < best_cost[1]:
            best_cost = (t, cost)
        if best_j is None or j > best_j[1]:
            best_j = (t, j)
    return (tp, fp, fn, tn), best_cost, best_j


# --------------------------------------------------------------------------- the lecture example
def test_state_at_055_on_the_ten_tuples():
    state = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55, cost_fp=1, cost_fn=5)
    assert (state["tp"], state["fp"], state["tn"], state["fn"]) == (4, 1, 4, 1)
    for name in ("precision", "recall", "specificity", "f1", "accuracy", "tpr"):
        assert state[name] == pytest.approx(0.8), name
    assert state["fpr"] == pytest.approx(0.2)
    assert state["youden_j"] == pytest.approx(0.6)
    assert state["total_cost"] == 1 * 1 + 5 * 1
    assert state["expected_cost"] == pytest.approx(6 / 10)


def test_a_threshold_between_scores_uses_score_at_least_threshold():
    state = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.52)  # 0.9 ... 0.53 are positive
    assert (state["tp"], state["fp"], state["tn"], state["fn"]) == (4, 3, 2, 1)
    assert state["precision"] == pytest.approx(4 / 7)


def test_extreme_thresholds():
    above = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.95)
    assert (above["tp"], above["fp"]) == (0, 0)
    assert math.isnan(above["precision"])  # nothing predicted positive: 0 / 0
    assert above["accuracy"] == 0.5 and above["total_cost"] == 5.0
    below = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.0)
    assert (below["tp"], below["fp"], below["tn"], below["fn"]) == (5, 5, 0, 0)
    assert below["specificity"] == 0.0 and below["recall"] == 1.0


def test_optimal_thresholds_on_the_ten_tuples():
    # costs (1, 1): FP + FN per row is 5 4 3 4 3 2 3 4 5 4 5: least at 0.55
    state = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=1, cost_fn=1)
    assert state["cost_optimal"]["threshold"] == 0.55
    assert state["cost_optimal"]["total_cost"] == 2.0
    assert state["cost_optimal"]["expected_cost"] == pytest.approx(0.2)
    # a missed positive 5 times dearer: FP + 5 FN = 25 20 15 16 11 6 7 8 9 4 5: least at 0.5
    dear = threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.5, cost_fp=1, cost_fn=5)
    assert dear["cost_optimal"]["threshold"] == 0.5 and dear["cost_optimal"]["total_cost"] == 4.0
    assert (dear["cost_optimal"]["fpr"], dear["cost_optimal"]["tpr"]) == pytest.approx((0.8, 1.0))
    # Youden J = TPR - FPR does not depend on costs: largest (0.6) at 0.55
    for s in (state, dear):
        assert s["youden"]["threshold"] == 0.55
        assert s["youden"]["youden_j"] == pytest.approx(0.6)
        assert (s["youden"]["fpr"], s["youden"]["tpr"]) == pytest.approx((0.2, 0.8))


def test_ties_in_cost_pick_the_highest_threshold():
    # costs (1, 1) on y = 1 0 1 0: FP + FN at inf, .9, .8, .7, .6 = 2 1 2 1 2
    state = threshold_state([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6], 0.5)
    assert state["cost_optimal"]["threshold"] == 0.9
    assert state["youden"]["threshold"] == 0.9


def test_describe_lists_every_metric():
    text = describe_threshold_state(threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55, 1, 5))
    assert "precision     0.800" in text and "total cost    6.0" in text
    assert "expected cost 0.600 per sample" in text
    assert "cost-optimal  t = 0.500 (total 4.0)" in text and "Youden J max  t = 0.550 (J = 0.600)" in text


# --------------------------------------------------------------------------- brute force
@st.composite
def scored_problems(draw):
    n = draw(st.integers(2, 30))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[1] = 0, 1
    s = draw(st.lists(st.integers(0, 8).map(lambda v: v / 8), min_size=n, max_size=n))
    threshold = draw(st.one_of(st.sampled_from(s), st.floats(-0.5, 1.5, allow_nan=False)))
    cost_fp = draw(st.sampled_from([0.0, 0.5, 1.0, 3.0]))
    cost_fn = draw(st.sampled_from([0.5, 1.0, 2.0, 10.0]))
    return y, s, threshold, cost_fp, cost_fn


@PROPERTY
@given(scored_problems())
def test_state_equals_brute_force(problem):
    y, s, threshold, cost_fp, cost_fn = problem
    state = threshold_state(y, s, threshold, cost_fp, cost_fn)
    (tp, fp, fn, tn), (best_t, best_cost), (youden_t, youden_j) = brute_force(y, s, threshold, cost_fp, cost_fn)
    assert (state["tp"], state["fp"], state["fn"], state["tn"]) == (tp, fp, fn, tn)
    assert state["accuracy"] == pytest.approx((tp + tn) / len(y))
    assert state["recall"] == pytest.approx(tp / (tp + fn))
    assert state["specificity"] == pytest.approx(tn / (tn + fp))
    assert state["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
    if tp + fp:
        assert state["precision"] == pytest.approx(tp / (tp + fp))
    else:
        assert math.isnan(state["precision"])
    assert state["total_cost"] == pytest.approx(cost_fp * fp + cost_fn * fn)
    assert state["expected_cost"] == pytest.approx((cost_fp * fp + cost_fn * fn) / len(y))
    assert state["cost_optimal"]["threshold"] == best_t
    assert state["cost_optimal"]["total_cost"] == pytest.approx(best_cost)
    assert state["youden"]["threshold"] == youden_t
    assert state["youden"]["youden_j"] == pytest.approx(youden_j)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs, message", [
    ({"threshold": math.nan}, "threshold must be a number"),
    ({"threshold": "0.5"}, "threshold must be a number"),
    ({"threshold": True}, "threshold must be a number"),
    ({"cost_fp": -1.0}, "cost_fp must be a finite number >= 0"),
    ({"cost_fn": math.inf}, "cost_fn must be a finite number >= 0"),
    ({"cost_fn": math.nan}, "cost_fn must be a finite number >= 0"),
    ({"cost_fp": 0.0, "cost_fn": 0.0}, "both 0"),
])
def test_bad_threshold_or_costs(kwargs, message):
    arguments = {"threshold": 0.5, "cost_fp": 1.0, "cost_fn": 1.0, **kwargs}
    with pytest.raises(ValueError, match=message):
        threshold_state(ROC_TEN_LABELS, ROC_TEN_SCORES, **arguments)


@pytest.mark.parametrize("y, s, message", [
    ([1, 1], [0.2, 0.3], "only one class"),
    ([0, 1], [0.2], "different lengths"),
    ([0, 1], [0.2, np.nan], "NaN"),
])
def test_bad_scores_are_reported_by_threshold_state(y, s, message):
    with pytest.raises(ValueError, match=message):
        threshold_state(y, s, 0.5)


def test_threshold_state_does_not_modify_its_input():
    y, s = np.array(ROC_TEN_LABELS), np.array(ROC_TEN_SCORES)[::-1].copy()
    y.setflags(write=False)
    s.setflags(write=False)
    threshold_state(y, s, 0.5, 1, 5)
    assert s.tolist() == list(ROC_TEN_SCORES)[::-1]


# --------------------------------------------------------------------------- the widget
@pytest.fixture(scope="module")
def explorer():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1)
    return ThresholdExplorer(y, s, threshold=0.5, cost_fp=1, cost_fn=3), y, s


def test_widget_shows_the_numbers_of_threshold_state(explorer):
    widget, y, s = explorer
    state = widget.update(0.42, 2.0, 3.0)
    assert same(state, threshold_state(y, s, 0.42, 2.0, 3.0))
    assert widget.threshold_line.get_xdata()[0] == 0.42
    texts = [[t.get_text() for t in row] for row in widget.cm_display.text_]
    assert texts == [[str(state["tn"]), str(state["fp"])], [str(state["fn"]), str(state["tp"])]]
    for key, point in (("current", state), ("cost_optimal", state["cost_optimal"]), ("youden", state["youden"])):
        assert list(widget.markers["roc", key].get_data()) == [[point["fpr"]], [point["tpr"]]]
        assert list(widget.markers["pr", key].get_data()) == [[point["tpr"]], [point["precision"]]]
    assert describe_threshold_state(state) in widget.metrics.value
    assert widget.image.value[:8] == b"\x89PNG\r\n\x1a\n"


def test_moving_the_slider_redraws(explorer):
    widget, y, s = explorer
    widget.slider.value = 0.3
    before = widget.image.value
    widget.slider.value = 0.6
    assert widget.state["threshold"] == pytest.approx(0.6)
    assert widget.state["tp"] == threshold_state(y, s, widget.slider.value)["tp"]
    assert widget.image.value != before
    widget.cost_fn.value = 10.0
    assert widget.state["cost_fn"] == 10.0
    assert same(widget.state["cost_optimal"], threshold_state(y, s, 0.6, widget.cost_fp.value, 10.0)["cost_optimal"])


def test_bad_costs_in_the_widget_show_a_message(explorer):
    widget, _, _ = explorer
    widget.cost_fp.value, widget.cost_fn.value = 1.0, 1.0
    widget.cost_fp.value = 0.0
    widget.cost_fn.value = 0.0
    assert "both 0" in widget.message.value
    widget.cost_fn.value = 1.0
    assert widget.message.value == "" and widget.state["cost_fn"] == 1.0


def test_threshold_explorer_returns_the_controls_and_image():
    box = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.55)
    assert isinstance(box, widgets.VBox)
    controls = box.children[0].children
    assert [c.description for c in controls] == ["threshold", "cost of FP", "cost of FN"]
    assert controls[0].value == 0.55 and (controls[0].min, controls[0].max) == (0.4, 0.9)


def test_threshold_explorer_validates_its_data():
    with pytest.raises(ValueError, match="only one class"):
        threshold_explorer([1, 1, 1], [0.2, 0.5, 0.9])
