"""helpers.widgets.threshold_state and the threshold slider, without a browser.

Costs: ``total_cost = cost_fp * FP + cost_fn * FN`` over the whole set and
``expected_cost = total_cost / n`` (per sample), everywhere below.
"""

import io
from html import escape
import math
import threading

import ipywidgets as widgets
import matplotlib.colors
import matplotlib.transforms
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image as PILImage

from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.roc import describe_threshold_state, threshold_state
from helpers.style import MIN_FONT_POINTS, NEGATIVE, POSITIVE
from helpers.widgets import (SLIDER_FONT_POINTS, ThresholdExplorer, fbeta_explorer, panel, readable,
                             threshold_explorer, threshold_grid)

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
DISPLAYED_PX_MIN = MIN_FONT_POINTS * 96 / 72  # 10 pt in a 96 dpi browser


@pytest.fixture(scope="module")
def explorer():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1)
    return ThresholdExplorer(y, s, threshold=0.5, cost_fp=1, cost_fn=3, names=("healthy", "ill")), y, s


def matrix_texts(widget):
    return [[t.get_text() for t in row] for row in widget.drawing.cm_display.text_]


def test_widget_shows_the_numbers_of_threshold_state(explorer):
    widget, y, s = explorer
    state = widget.update(0.42, 2.0, 3.0)
    assert same(state, threshold_state(y, s, 0.42, 2.0, 3.0))
    assert [line.get_xdata()[0] for line in widget.drawing.threshold_lines] == [0.42, 0.42]
    # positive class first, as notebook 01 teaches: rows true (ill, healthy), columns predicted
    assert matrix_texts(widget) == [[str(state["tp"]), str(state["fn"])], [str(state["fp"]), str(state["tn"])]]
    ax = widget.drawing.cm_display.ax_
    assert [t.get_text() for t in ax.get_xticklabels()] == ["ill", "healthy"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ill", "healthy"]
    for key, point in (("current", state), ("cost_optimal", state["cost_optimal"]), ("youden", state["youden"])):
        assert list(widget.drawing.markers["roc", key].get_data()) == [[point["fpr"]], [point["tpr"]]]
        assert list(widget.drawing.markers["pr", key].get_data()) == [[point["tpr"]], [point["precision"]]]
    assert describe_threshold_state(state) in widget.text.value
    assert widget.image.value[:8] == b"\x89PNG\r\n\x1a\n"


def test_histograms_show_counts_of_each_class(explorer):
    widget, y, s = explorer
    hist_axes = widget.figure.axes[:2]  # positive class on top, then negative
    for ax, label, colour in zip(hist_axes, (1, 0), (POSITIVE, NEGATIVE)):
        (stairs,) = ax.patches
        assert stairs.get_data().values.sum() == (y == label).sum(), "bar heights are counts, summing to n"
        assert ax.get_ylabel() == "count"
        assert f"{(y == label).sum()} samples" in " ".join(t.get_text() for t in ax.texts)
        assert matplotlib.colors.same_color(stairs.get_facecolor()[:3], colour)


def test_markers_never_hide_each_other(explorer):
    widget, _, _ = explorer
    youden, cost, current = (widget.drawing.markers["roc", key] for key in ("youden", "cost_optimal", "current"))
    assert youden.get_markerfacecolor() == "none", "the Youden diamond is hollow: what it surrounds shows"
    assert youden.get_markersize() > cost.get_markersize() > current.get_markersize()
    assert youden.get_zorder() < cost.get_zorder() < current.get_zorder(), "the smallest is drawn last"
    # on the ten tuples with equal costs both optima are t = 0.55: the same point, both visible
    both = ThresholdExplorer(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55)
    roc = {key: both.drawing.markers["roc", key].get_data() for key in ("youden", "cost_optimal", "current")}
    assert roc["youden"] == roc["cost_optimal"] == roc["current"]


def test_moving_the_slider_redraws(explorer):
    widget, y, s = explorer
    widget.cost_fp.value, widget.cost_fn.value = 1.0, 3.0
    widget.slider.value = 0.3
    before = widget.image.value
    widget.slider.value = 0.6
    assert widget.state["threshold"] == 0.6
    assert same(widget.state, threshold_state(y, s, 0.6, 1.0, 3.0))
    assert widget.image.value != before
    widget.cost_fn.value = 10.0
    assert widget.state["cost_fn"] == 10.0
    assert same(widget.state["cost_optimal"], threshold_state(y, s, 0.6, 1.0, 10.0)["cost_optimal"])


def numbers_shown(widget) -> bool:
    return any(ch.isdigit() for ch in widget.text.value) or any(
        ch.isdigit() for row in matrix_texts(widget) for text in row for ch in text)


@pytest.mark.parametrize("cost_fp, cost_fn, message", [
    (0.0, 0.0, "both 0"),
    (-1.0, 1.0, "cost_fp must be a finite number >= 0; got -1.0"),
    (1.0, -2.0, "cost_fn must be a finite number >= 0; got -2.0"),
])
def test_bad_costs_show_a_message_and_no_stale_numbers(explorer, cost_fp, cost_fn, message):
    widget, y, s = explorer
    widget.cost_fp.value, widget.cost_fn.value, widget.slider.value = 1.0, 1.0, 0.5
    assert widget.message.value == "" and numbers_shown(widget)
    before = widget.image.value
    widget.cost_fp.value, widget.cost_fn.value = cost_fp, cost_fn
    assert escape(message) in widget.message.value
    assert widget.cost_fp.value == cost_fp and widget.cost_fn.value == cost_fn, "a negative cost is not clamped"
    assert widget.state is None and not numbers_shown(widget), "the old numbers are gone"
    assert all(len(m.get_xdata()) == 0 for m in widget.drawing.markers.values())
    assert widget.image.value != before
    widget.slider.value = 0.6  # moving the slider keeps the message: the costs are still bad
    assert escape(message) in widget.message.value and not numbers_shown(widget)
    widget.cost_fp.value, widget.cost_fn.value = 1.0, 1.0
    assert widget.message.value == "" and same(widget.state, threshold_state(y, s, 0.6, 1.0, 1.0))
    with pytest.raises(ValueError, match=message.split(";")[0]):
        widget.update(0.5, cost_fp, cost_fn)


def test_slider_starts_exactly_on_its_grid():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 500)
    s = rng.uniform(0.0123, 0.9871, 500)  # no round minimum: a FloatSlider from s.min() would land on 0.502
    slider = ThresholdExplorer(y, s, threshold=0.5).slider
    values = [value for _, value in slider.options]
    assert slider.value == 0.5 and 0.5 in values
    assert values == sorted(values) and values[0] <= s.min() and values[-1] >= s.max()
    assert all(round(v, 3) == v for v in values), "every position is a round number"
    assert 100 <= len(values) <= 400
    assert [label for label, _ in slider.options][values.index(0.5)] == "0.500"


@pytest.mark.parametrize("low, high, threshold, step", [
    (0.0, 1.0, 0.5, 0.005), (0.4, 0.9, 0.55, 0.005), (-3.0, 5.0, 0.0, 0.05), (0.2, 0.3, 0.25, 0.0005)])
def test_threshold_grid(low, high, threshold, step):
    grid = threshold_grid(low, high, threshold)
    assert threshold in grid and grid[0] <= low and grid[-1] >= high
    assert np.allclose(np.diff(grid), step)


def test_an_off_grid_threshold_is_added():
    grid = threshold_grid(0.0, 1.0, 0.5123)
    assert 0.5123 in grid and len(grid) == 202


def test_threshold_explorer_returns_the_controls_and_image():
    box = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.55)
    assert isinstance(box, widgets.VBox)
    controls = box.children[0].children
    assert [c.description for c in controls] == ["threshold", "cost of FP", "cost of FN"]
    values = [value for _, value in controls[0].options]
    assert controls[0].value == 0.55 and values[0] == 0.4 and values[-1] == 0.9


def test_threshold_explorer_validates_its_data():
    with pytest.raises(ValueError, match="only one class"):
        threshold_explorer([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(ValueError, match="threshold must be a number"):
        threshold_explorer([0, 1], [0.2, 0.9], threshold="high")
    with pytest.raises(ValueError, match="names"):
        threshold_explorer([0, 1], [0.2, 0.9], names=("only one",))


def test_callbacks_from_two_threads_leave_a_consistent_widget(explorer):
    widget, y, s = explorer
    widget.cost_fp.value, widget.cost_fn.value = 1.0, 1.0

    def move(thresholds):
        for t in thresholds:
            widget.update(float(t), 1.0, 1.0)

    threads = [threading.Thread(target=move, args=(np.round(np.linspace(a, b, 40), 3),))
               for a, b in ((0.1, 0.9), (0.9, 0.1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state = widget.state
    assert describe_threshold_state(state) in widget.text.value
    assert matrix_texts(widget) == [[str(state["tp"]), str(state["fn"])], [str(state["fp"]), str(state["tn"])]]
    assert widget.image.value == widget.render(), "the image shows the last state, not a mix"


# --------------------------------------------------------------------------- every widget is readable at 1280 x 720
def widget_figures():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    threshold = ThresholdExplorer(y, s, names=("no subscription", "subscribed"))
    yield "threshold", threshold.figure, threshold.image.value
    fbeta = fbeta_explorer()
    figure = Figure(figsize=fbeta.figsize, dpi=fbeta.dpi, layout="constrained")
    FigureCanvasAgg(figure)
    fbeta._draw(fbeta.state, figure)
    readable(figure, fbeta.min_points)
    yield "fbeta", figure, fbeta.image.value


SLIDER_PX_MIN = SLIDER_FONT_POINTS * 96 / 72  # 18 px in a 96 dpi browser, the figure shown at its pixel size


@pytest.mark.parametrize("name, figure, png", list(widget_figures()), ids=["threshold", "fbeta"])
def test_widget_text_is_at_least_18_px_as_displayed(name, figure, png):
    """From the back of a room (issue 27): every text of a slider's figure, tick labels included, is at least 18 px
    at its pixel size; and the figure leaves room on a 1280 x 720 slide for its number panel beside it (about 380
    px, tools/publishing/deck/course.css) and for its code and sliders above it."""
    figure.canvas.draw()
    sizes = {t.get_text(): t.get_fontsize() * figure.dpi / 72 for t in figure.findobj(Text)
             if t.get_text() and t.get_visible()}
    for ax in figure.axes:
        sizes.update({f"tick {t.get_text()}": t.get_fontsize() * figure.dpi / 72
                      for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()})
    assert len(sizes) > 10
    small = {text: round(px, 1) for text, px in sizes.items() if px < SLIDER_PX_MIN - 1e-9}
    assert small == {}, f"{name}: text below {SLIDER_PX_MIN} px as displayed"
    width, height = PILImage.open(io.BytesIO(png)).size
    assert width <= 840 and height <= 540, f"{name}: {width} x {height} px leaves no room at 1280 x 720"


def test_readable_raises_small_text_only():
    figure = Figure(dpi=96)
    ax = figure.subplots()
    ax.plot([0, 1], label="a line")
    ax.legend(fontsize=6)
    ax.set_title("big", fontsize=20)
    ax.tick_params(labelsize=7)
    readable(figure)
    figure.canvas = FigureCanvasAgg(figure)
    figure.canvas.draw()
    assert ax.get_legend().get_texts()[0].get_fontsize() == MIN_FONT_POINTS
    assert ax.title.get_fontsize() == 20
    assert {t.get_fontsize() for t in ax.get_xticklabels()} == {MIN_FONT_POINTS}
    small_dpi = Figure(dpi=72)
    small_dpi.subplots().set_title("t", fontsize=10)
    readable(small_dpi)
    assert small_dpi.axes[0].title.get_fontsize() == pytest.approx(MIN_FONT_POINTS * 96 / 72)


def test_panel_wraps_between_words_only():
    text = "k = 5 | 5 repeats x 5 folds = 25 fits"
    html = panel(text)
    assert html.endswith(f">{text}</pre>")
    assert "white-space: pre-wrap" in html and "word-break: keep-all" in html and "overflow-wrap: normal" in html


# --------------------------------------------------------------------------- the count histograms (plotting)
def test_plot_score_histograms_counts_mode_draws_one_panel_per_class():
    from helpers.roc_plots import plot_score_histograms

    figure = Figure()
    axes = figure.subplots(2, 1)
    y = np.array([1, 0, 1, 1, 0, 0, 0, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.52, 0.51, 0.4])
    returned = plot_score_histograms(y, s, names=("healthy", "ill"), bins=5, ax=axes, counts=True)
    assert list(returned) == list(axes)
    for ax, label, name, colour in zip(axes, (1, 0), ("ill", "healthy"), (POSITIVE, NEGATIVE)):
        (stairs,) = ax.patches
        values, edges = stairs.get_data()[:2]
        assert list(values) == list(np.histogram(s[y == label], bins=np.histogram_bin_edges(s, bins=5))[0])
        assert values.sum() == (y == label).sum() and ax.get_ylabel() == "count"
        assert [t.get_text() for t in ax.texts] == [f"{name}\n{(y == label).sum()} samples"]
        assert matplotlib.colors.same_color(stairs.get_facecolor()[:3], colour)
    density = plot_score_histograms(y, s, bins=5, ax=Figure().subplots())
    assert [t.get_text() for t in density.get_legend().get_texts()] == ["negative (n=6)", "positive (n=4)"]
    assert matplotlib.colors.same_color(density.patches[1].get_facecolor()[:3], POSITIVE)
    with pytest.raises(ValueError, match="ax must be a pair of Axes; got 1"):
        plot_score_histograms(y, s, ax=[axes[0]], counts=True)


def test_class_label_of_a_count_panel_wraps_the_name_and_gives_the_size():
    from helpers.roc_plots import class_label

    assert class_label("subscribed", 130) == "subscribed\n130 samples"
    assert class_label("no subscription", 1001) == "no\nsubscription\n1001 samples"


def bank_like_threshold_figure(points=SLIDER_FONT_POINTS):
    """A threshold figure as the explorer draws it, with 02's class sizes (130 subscribers, 1001 not) and tall bars
    at both ends of the scores; the figure's text at ``points``."""
    from helpers.roc import ThresholdSweep
    from helpers.roc_plots import ThresholdFigure

    rng = np.random.default_rng(0)
    y = np.r_[np.ones(130, bool), np.zeros(1001, bool)]
    score = np.r_[rng.uniform(0.9, 1.0, 40), rng.uniform(0, 1, 90), rng.beta(1, 6, 1001)]
    figure = Figure(figsize=ThresholdExplorer.FIGSIZE, dpi=ThresholdExplorer.DPI, layout="constrained")
    canvas = FigureCanvasAgg(figure)
    drawing = ThresholdFigure(figure, ThresholdSweep.from_scores(y, score, pos_label=True), y, score,
                              ("no subscription", "subscribed"))
    readable(figure, points)
    canvas.draw()
    return drawing, canvas, score


@pytest.mark.parametrize("points", [MIN_FONT_POINTS, SLIDER_FONT_POINTS, 16])
def test_class_labels_clear_the_threshold_line_and_the_bars_at_every_slider_position(points):
    """Review item 11 and issue 27: "subscribed: 130 samples" sat over the bars and the black threshold line ran
    through it. At every threshold of the slider's grid (every frame a deck pre-renders), with the figure's text
    at 10 to 16 pt, each class label's rendered box meets neither its panel's threshold line nor its bars, and it
    stays inside the figure."""
    from helpers.widgets import threshold_grid

    drawing, canvas, score = bank_like_threshold_figure(points)
    renderer = canvas.get_renderer()
    assert [t.get_text() for t in drawing.class_labels] == ["subscribed\n130 samples",
                                                             "no\nsubscription\n1001 samples"]
    figure_box = drawing.figure.bbox
    grid = threshold_grid(score.min(), score.max(), 0.5)
    assert len(grid) > 100
    for ax, label, line in zip(drawing.figure.axes[:2], drawing.class_labels, drawing.threshold_lines):
        box = label.get_window_extent(renderer)
        assert figure_box.x0 <= box.x0 and box.x1 <= figure_box.x1 and figure_box.y0 <= box.y0 <= box.y1 <= figure_box.y1
        bars = [patch.get_window_extent(renderer) for patch in ax.patches]
        assert bars and not any(box.overlaps(bar) for bar in bars), f"{label.get_text()!r} is over its bars"
        for threshold in grid:
            drawing.update(None, threshold)
            xs = ax.transData.transform(np.column_stack([line.get_xdata(), [0, 0]]))[:, 0]
            low, high = ax.transAxes.transform([(0, 0), (0, 1)])[:, 1]  # the line spans its panel's height
            line_box = matplotlib.transforms.Bbox([[xs.min() - line.get_linewidth(), low],
                                                   [xs.max() + line.get_linewidth(), high]])
            assert not box.overlaps(line_box), f"the threshold line at {threshold} crosses {label.get_text()!r}"


def test_class_labels_of_the_histograms_are_beside_their_panels():
    """Projector polish: with the ten tuples, each class label sits right of its count panel, level with it, and
    is drawn once with the figure (it never moves)."""
    box = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.5, names=("no", "yes"))
    renderer = box.canvas.get_renderer()
    for ax, label in zip(box.figure.axes[:2], box.drawing.class_labels):
        panel_box, label_box = ax.get_window_extent(renderer), label.get_window_extent(renderer)
        assert label_box.x0 > panel_box.x1, f"{label.get_text()!r} is not right of its panel"
        assert panel_box.y0 <= (label_box.y0 + label_box.y1) / 2 <= panel_box.y1
        assert label not in box.drawing.moving
    assert [t.get_text() for t in box.figure.axes[0].texts] == ["yes\n5 samples"]
