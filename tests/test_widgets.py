"""The F-beta slider: its pure function, the flip point and the iso-F curves."""

import html
import io
import math

import ipywidgets
import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from PIL import Image
from hypothesis import strategies as st
from sklearn.metrics import fbeta_score

from helpers.datasets import HIGH_PRECISION, HIGH_RECALL, Counts
from helpers.metrics_plots import iso_fbeta_precision, plot_iso_fbeta
from helpers.metrics import FBETA_NAMES, describe_fbeta_state, fbeta_state, ranking_flip_beta
from helpers.widgets import BETA_GRID, Explorer, fbeta_explorer, grid_slider

matplotlib.use("Agg")
A, B = FBETA_NAMES


def labels(counts):
    tp, fp, fn, tn = counts
    return np.repeat([1, 0, 1, 0], [tp, fp, fn, tn]), np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])


@pytest.mark.parametrize("beta", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_fbeta_state_matches_sklearn(beta):
    state = fbeta_state(beta)
    for name, counts in zip(FBETA_NAMES, (HIGH_RECALL, HIGH_PRECISION)):
        assert state["fbeta"][name] == pytest.approx(fbeta_score(*labels(counts), beta=beta), abs=1e-12)
    assert state["recall"][A] == pytest.approx(280 / 300)
    assert state["precision"][B] == pytest.approx(50 / 55)


def test_lecture_note_values():
    assert fbeta_state(1.0)["fbeta"][A] == pytest.approx(0.56)
    assert fbeta_state(2.0)["fbeta"][B] == pytest.approx(0.199203, abs=1e-6)
    assert fbeta_state(0.5)["fbeta"][B] == pytest.approx(0.480769, abs=1e-6)


def test_flip_beta_closed_form_and_ranking():
    flip = ranking_flip_beta(HIGH_RECALL, HIGH_PRECISION)
    assert flip == pytest.approx(math.sqrt(19600 / 69000))
    at_flip = fbeta_state(flip)
    assert at_flip["fbeta"][A] == pytest.approx(at_flip["fbeta"][B], rel=1e-12)
    assert at_flip["leader"] == "tie"
    assert fbeta_state(flip - 0.01)["leader"] == B
    assert fbeta_state(flip + 0.01)["leader"] == A
    assert fbeta_state(0.3)["flip_beta"] == pytest.approx(flip)


def test_no_flip_when_one_classifier_dominates():
    better, worse = Counts(90, 5, 10, 895), Counts(80, 20, 20, 880)
    assert math.isnan(ranking_flip_beta(better, worse))
    assert all(fbeta_state(b, better, worse)["leader"] == A for b in (0.1, 1, 5))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.tuples(*[st.integers(1, 500)] * 3), st.tuples(*[st.integers(1, 500)] * 3))
def test_flip_beta_is_where_the_scores_cross(a, b):
    counts_a, counts_b = Counts(*a, 10), Counts(*b, 10)
    flip = ranking_flip_beta(counts_a, counts_b)
    if math.isnan(flip):
        sign = {np.sign(fbeta_state(x, counts_a, counts_b)["fbeta"][A] - fbeta_state(x, counts_a, counts_b)["fbeta"][B])
                for x in np.geomspace(0.01, 100, 50)}
        assert len(sign - {0.0}) <= 1
    else:
        scores = fbeta_state(flip, counts_a, counts_b)["fbeta"]
        assert scores[A] == pytest.approx(scores[B], rel=1e-9)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.floats(0.05, 0.95), st.floats(0.1, 5), st.floats(0.01, 1))
def test_iso_curve_points_have_the_requested_fbeta(f, beta, recall):
    precision = iso_fbeta_precision([recall], f, beta)[0]
    if not math.isnan(precision):
        b2 = beta**2
        assert (1 + b2) * precision * recall / (b2 * precision + recall) == pytest.approx(f, rel=1e-9)
        assert 0 <= precision <= 1


def test_describe_names_the_leader():
    text = describe_fbeta_state(fbeta_state(2.0))
    assert f"ranks first: {A}" in text and "0.737" in text and "0.533" in text


def test_explorer_layout_and_plot():
    box = fbeta_explorer()
    slider = box.controls["beta"]
    assert isinstance(slider, ipywidgets.SelectionSlider)
    values = [value for _, value in slider.options]
    # every value on the grid is exact: the browser can send back nothing like 1.0000000000000002
    assert values[0] == 0.1 and values[-1] == 5.0 and slider.value == 1.0 and 1.0 in values
    assert len(values) == len(BETA_GRID) and all(round(v, 2) == v for v in values)
    # review item 8: 80 presses took beta from 1 to 5; now a press multiplies beta by at most 1.5
    assert values.index(5.0) - values.index(1.0) <= 12 and values.index(1.0) - values.index(0.1) <= 12
    assert all(1 < b / a <= 1.5 for a, b in zip(values, values[1:]))
    assert box.image.value[:4] == b"\x89PNG" and "beta = 1.00" in box.text.value
    slider.value = 2.0
    assert box.state == fbeta_state(2.0)
    assert describe_fbeta_state(fbeta_state(2.0)) in box.text.value
    ax = plot_iso_fbeta(2.0, {"A": (0.9, 0.4)})
    assert ax.get_title() == "iso-F curves for beta = 2.00"
    assert len(ax.lines) == 6  # four iso-F curves, one point and the curve through it
    dashed = ax.lines[-1]
    r, p = dashed.get_xdata(), dashed.get_ydata()
    ok = ~np.isnan(p)
    f = 5 * p[ok] * r[ok] / (4 * p[ok] + r[ok])
    assert np.allclose(f, 5 * 0.4 * 0.9 / (4 * 0.4 + 0.9))
    matplotlib.pyplot.close("all")


def test_smallest_text_px_is_the_fbeta_figures_14_points():
    from matplotlib.figure import Figure

    from helpers.metrics_plots import FBETA_FONT_POINTS
    from helpers.widgets import smallest_text_px

    box = fbeta_explorer()
    assert smallest_text_px(box.figure) == pytest.approx(FBETA_FONT_POINTS * 96 / 72)  # 18.7 px
    box.figure.axes[0].title.set_fontsize(9)
    assert smallest_text_px(box.figure) == pytest.approx(12)
    with pytest.raises(ValueError, match="no visible text"):
        smallest_text_px(Figure())
    matplotlib.pyplot.close("all")


def test_spread_labels_keeps_each_label_at_its_end_unless_crowded():
    from helpers.metrics_plots import spread_labels

    assert spread_labels([0.2, 0.4, 0.6], 0.1, 0, 1).tolist() == [0.2, 0.4, 0.6]  # far enough apart: unmoved
    crowded = spread_labels([0.03, 0.01, 0.02, 0.98], 0.1, 0, 1)  # given out of order
    assert crowded.tolist() == pytest.approx([0.21, 0.01, 0.11, 0.98])  # their order by height kept
    top = spread_labels([0.99, 1.0], 0.1, 0, 1)
    assert top.tolist() == pytest.approx([0.9, 1.0]), "pushed down from the top, never above it"
    assert np.isnan(spread_labels([np.nan, 0.5], 0.1, 0, 1)[0])
    with pytest.raises(ValueError, match="3 labels 0.6 apart do not fit between 0 and 1"):
        spread_labels([0.1, 0.2, 0.3], 0.6, 0, 1)


def test_fbeta_legend_and_labels_clear_the_curves_at_every_beta():
    """Review item 8: the legend covered the F = 0.2 curve, and at high beta the curves' labels ran into one
    another. At every grid value, measured on the rendered figure: the legend and every curve label lie outside
    the axes (where the curves are drawn), inside the figure, and no two of them overlap; each label's leader
    line starts at its curve's end."""
    from matplotlib.text import Text

    box = fbeta_explorer()
    figure = box.figure
    renderer = figure.canvas.get_renderer()
    inside = figure.bbox
    for beta in BETA_GRID:
        box.controls["beta"].value = float(beta)
        ax = figure.axes[0]
        plot_area = ax.get_window_extent(renderer)
        legend = ax.get_legend().get_window_extent(renderer)
        # the text alone (an Annotation's own extent includes its leader line, which starts on the curve)
        labels = [Text.get_window_extent(text, renderer) for text in ax.texts]
        assert len(labels) == 4
        for name, box_ in [("legend", legend)] + [(text.get_text(), b) for text, b in zip(ax.texts, labels)]:
            assert not box_.overlaps(plot_area), f"beta = {beta}: {name} is over the curves"
            assert inside.contains(box_.x0, box_.y0) and inside.contains(box_.x1, box_.y1), \
                f"beta = {beta}: {name} is cut off by the figure's edge"
        boxes = [legend, *labels, ax.xaxis.label.get_window_extent(renderer), ax.title.get_window_extent(renderer)]
        for i, first in enumerate(boxes):
            assert not any(first.overlaps(other) for other in boxes[i + 1:]), f"beta = {beta}: two texts overlap"
        for text in ax.texts:
            assert text.xy[1] == pytest.approx(iso_fbeta_precision([1.0], float(text.get_text()[2:]), beta)[0])
    matplotlib.pyplot.close("all")


# --------------------------------------------------------------------------- blitting: a move equals a fresh start
def pixels(box):
    from PIL import Image
    import io

    return np.asarray(Image.open(io.BytesIO(box.image.value)))


def test_fbeta_move_draws_the_same_picture_as_a_fresh_start():
    """The slider redraws only what changes: after a move nothing of the old beta may remain."""
    moved = fbeta_explorer()
    start = pixels(moved)
    moved.controls["beta"].value = 2.5
    # the same explorer, started at 2.5
    fresh = Explorer({"beta": grid_slider(BETA_GRID, 2.5, "beta")}, moved._state, moved._draw, moved._describe,
                     moved.figsize, update=moved._update)
    assert np.array_equal(pixels(moved), pixels(fresh))
    assert not np.array_equal(pixels(moved), start), "the figure is redrawn"
    ax = moved.figure.axes[0]
    assert ax.get_title() == "iso-F curves for beta = 2.50"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        f"{n} F={moved.state['fbeta'][n]:.3f}" for n in FBETA_NAMES]
    moved.controls["beta"].value = 1.0
    assert np.array_equal(pixels(moved), start), "back at beta = 1 the first picture, pixel for pixel"


def test_update_iso_fbeta_moves_every_curve_and_label():
    ax = plot_iso_fbeta(1.0, {"A": (0.9, 0.4)})
    from helpers.metrics_plots import update_iso_fbeta

    artists = update_iso_fbeta(2.0, {"A F=0.7": (0.9, 0.4)}, ax)
    fresh = plot_iso_fbeta(2.0, {"A F=0.7": (0.9, 0.4)})
    for moved, new in zip(ax.lines, fresh.lines):
        assert np.allclose(moved.get_xydata(), new.get_xydata(), equal_nan=True)
    assert [t.xy for t in ax.texts] == [t.xy for t in fresh.texts]
    assert ax.get_legend().get_texts()[0].get_text() == "A F=0.7" and ax.get_title() == fresh.get_title()
    assert set(ax.lines) | set(ax.texts) | {ax.get_legend(), ax.title} == set(artists)
    with pytest.raises(ValueError, match="points must name the 1 points"):
        update_iso_fbeta(2.0, {"A": (0.9, 0.4), "B": (0.2, 0.9)}, ax)
    matplotlib.pyplot.close("all")


def test_smote_move_draws_the_same_picture_as_a_fresh_start():
    from helpers.resampling import describe_smote_state, smote_state, toy_imbalanced
    from helpers.widgets import smote_explorer

    X, y = toy_imbalanced(random_state=0)
    moved = smote_explorer(X, y)
    start = pixels(moved)
    moved.controls["ratio"].value = 0.9
    moved.controls["k_neighbors"].value = 2
    assert moved.state["n_new"] == smote_state(X, y, 2, 0.9)["n_new"]
    assert describe_smote_state(smote_state(X, y, 2, 0.9)) in moved.text.value
    assert np.array_equal(pixels(moved), pixels(smote_explorer(X, y, k_neighbors=2, ratio=0.9)))
    assert not np.array_equal(pixels(moved), start)
    ax = moved.figure.axes[0]
    synthetic = next(c for c in ax.collections if c.get_gid() == "synthetic")
    assert np.array_equal(synthetic.get_offsets(), moved.state["X_new"])
    assert f"synthetic ({moved.state['n_new']})" in [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("xlim", [(0.5, 1.0), None], ids=["fixed x-axis", "x-axis fits the scores"])
def test_cv_spread_move_draws_the_same_picture_as_a_fresh_start(xlim):
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    from helpers.cv import cv_spread_state
    from helpers.widgets import cv_spread_explorer

    X, y = make_classification(n_samples=120, n_features=5, flip_y=0.2, random_state=0)
    model = LogisticRegression()
    states = {(k, r): cv_spread_state(model, X, y, k, r) for k in (2, 5) for r in (2, 5)}
    moved = cv_spread_explorer(model, X, y, ks=(2, 5), xlim=xlim, states=states)
    start = pixels(moved)
    moved.controls["k"].value = 2
    moved.controls["n_repeats"].value = 2
    assert moved.state is states[(2, 2)]
    fresh = cv_spread_explorer(model, X, y, ks=(2, 5), xlim=xlim, states={(5, 5): states[(2, 2)]})
    assert np.array_equal(pixels(moved), pixels(fresh)), "two repeats after five: no row of the old state remains"
    ax = moved.figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2"] and ax.get_ylim() == (0.5, 2.5)
    moved.controls["k"].value, moved.controls["n_repeats"].value = 5, 5
    assert np.array_equal(pixels(moved), start), "back at the start: the first picture again"


def test_explorer_without_update_draws_a_fresh_figure_each_time():
    def draw(state, figure):
        figure.subplots().bar(["x"], [state["height"]])

    box = Explorer({"height": grid_slider([1, 2, 3], 1, "height", fmt="{:d}")}, lambda height: {"height": height},
                   draw, lambda state: f"height {state['height']}")
    first = pixels(box)
    box.controls["height"].value = 3
    assert "height 3" in box.text.value and not np.array_equal(pixels(box), first) and box.figure is None
    box.controls["height"].value = 1
    assert np.array_equal(pixels(box), first)


# --------------------------------------------------------------------------- the decks' pre-rendered sliders
def frames_of(tab):
    """The (image, panel) pairs of a deck view's frames, in grid order (nested tabs flattened)."""
    if isinstance(tab, ipywidgets.Tab):
        return [pair for child in tab.children for pair in frames_of(child)]
    image, text = tab.children
    return [(image, text)]


def test_deck_view_pre_renders_every_grid_value_linked_to_its_slider():
    from helpers.widgets import DECK_FRAMES_CLASS, DescribedImage

    box = fbeta_explorer()
    view = box.deck_view()
    controls, frames = view.children[0], view.children[-1]
    (slider,) = controls.children
    assert isinstance(slider, ipywidgets.SelectionSlider) and slider.description == "beta"
    assert slider.options == box.controls["beta"].options and slider.value == 1.0, "the live slider's grid"
    assert isinstance(frames, ipywidgets.Tab) and DECK_FRAMES_CLASS in frames._dom_classes
    assert frames.selected_index == slider.index == list(BETA_GRID).index(1.0)
    (link,) = view.links
    assert isinstance(link, ipywidgets.widgets.widget_link.DirectionalLink)
    assert (link.source, link.target) == ((slider, "index"), (frames, "selected_index"))
    pairs = frames_of(frames)
    assert len(pairs) == len(BETA_GRID) == 22
    fresh = fbeta_explorer()
    for beta in (0.1, 2.5, 5.0):  # a frame is the live explorer's figure, numbers and text alternative there
        image, text = pairs[list(BETA_GRID).index(beta)]
        fresh.controls["beta"].value = beta
        assert isinstance(image, DescribedImage)
        assert np.array_equal(np.asarray(Image.open(io.BytesIO(image.value))), pixels(fresh))
        assert text.value == fresh.text.value and describe_fbeta_state(fbeta_state(beta)) in text.value
        assert image.tooltip == fresh.alt and f"beta = {beta:.2f}" in image.tooltip
    matplotlib.pyplot.close("all")


def test_deck_view_nests_a_second_slider_and_fixes_number_boxes():
    from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
    from helpers.resampling import describe_smote_state, smote_state, toy_imbalanced
    from helpers.widgets import smote_explorer, threshold_explorer

    X, y = toy_imbalanced(random_state=0)
    box = smote_explorer(X, y, k_neighbors=4, ratio=0.5, k_values=(2, 3, 4), ratios=(0.4, 0.5, 0.8))
    view = box.deck_view()
    k_slider, ratio_slider = view.children[0].children
    outer = view.children[-1]
    assert len(outer.children) == 3 and all(len(inner.children) == 3 for inner in outer.children)
    assert {(link.source[0], link.target[0]) for link in view.links} == \
        {(k_slider, outer)} | {(ratio_slider, inner) for inner in outer.children}
    image, text = outer.children[0].children[2].children  # k = 2, ratio 0.8
    assert describe_smote_state(smote_state(X, y, 2, 0.8)) in text.value
    assert (outer.selected_index, outer.children[0].selected_index) == (k_slider.index, ratio_slider.index) == (2, 1)

    threshold = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.5, cost_fp=2.0, cost_fn=5.0)
    view = threshold.deck_view()
    slider, cost_fp, cost_fn = view.children[0].children
    assert cost_fp.disabled and cost_fn.disabled and (cost_fp.value, cost_fn.value) == (2.0, 5.0)
    assert "cost of FP 2, cost of FN 5" in view.children[1].value and "Fixed in this deck" in view.children[1].value
    pairs = frames_of(view.children[-1])
    assert len(pairs) == len(threshold.slider.options)
    at = [v for _, v in threshold.slider.options].index(0.9)
    assert "threshold     0.900" in pairs[at][1].value and "2 x FP + 5 x FN" in pairs[at][1].value
    matplotlib.pyplot.close("all")


def test_deck_mode_displays_the_deck_view(monkeypatch):
    from helpers.widgets import DECK_ENV

    box = fbeta_explorer()
    live = box._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert live == box.model_id
    monkeypatch.setenv(DECK_ENV, "1")
    deck = box._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]["model_id"]
    from ipywidgets.widgets.widget import _instances

    shown = _instances[deck]
    assert deck != box.model_id and "course-deck-explorer" in shown._dom_classes
    matplotlib.pyplot.close("all")


# --------------------------------------------------------------------------- accessibility of the sliders
def test_the_figures_text_alternative_follows_the_slider():
    box = fbeta_explorer()
    first = box.alt
    assert box.image.tooltip == first and first.startswith("Iso-F-beta curves with both classifiers marked: ")
    assert "beta = 1.00" in first and "A (high recall): 0.560" in first
    box.controls["beta"].value = 3.0
    assert box.image.tooltip == box.alt != first
    assert "beta = 3.00" in box.alt and f"{fbeta_state(3.0)['fbeta'][A]:.3f}" in box.alt
    assert "beta = 1.00" not in box.alt, "nothing of the first state is left"
    matplotlib.pyplot.close("all")


def test_a_sliders_alt_keeps_the_panels_first_clauses_within_the_limit():
    from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
    from helpers.figures import ALT_LIMIT
    from helpers.roc import describe_threshold_state, sweep_state
    from helpers.widgets import threshold_explorer

    box = threshold_explorer(ROC_TEN_LABELS, ROC_TEN_SCORES, threshold=0.5)
    clauses = [" ".join(line.split()) for line in describe_threshold_state(box.state).splitlines()]
    assert len(box.alt) <= ALT_LIMIT < len(f"{box.WHAT}: {'; '.join(clauses)}."), "all of it would not fit"
    kept = box.alt.split(": ", 1)[1].rstrip(".").split("; ")
    assert kept == clauses[:len(kept)] and len(kept) >= 3, "whole clauses, in the panel's order"
    longer = f"{box.WHAT}: {'; '.join(clauses[:len(kept) + 1])}."
    assert len(longer) > ALT_LIMIT, "as many clauses as fit"
    assert "TP 5 FP 4 FN 0 TN 1" in box.alt and sweep_state(box.sweep, 0.5, 1.0, 1.0)["tp"] == 5
    matplotlib.pyplot.close("all")


def test_every_course_slider_has_a_visible_label():
    from helpers.resampling import toy_imbalanced
    from helpers.widgets import smote_explorer

    X, y = toy_imbalanced(random_state=0)
    for box in (fbeta_explorer(), smote_explorer(X, y)):
        for name, control in box.controls.items():
            assert control.description, f"slider {name} has no label"
    matplotlib.pyplot.close("all")


def test_number_panels_are_at_least_ten_points():
    from helpers.widgets import PANEL_FONT_PX, panel, plain_panel

    assert PANEL_FONT_PX >= 10 * 96 / 72  # 13.3 px
    for html in (panel("x"), plain_panel("x"), fbeta_explorer().text.value):
        assert f"font-size: {PANEL_FONT_PX}px" in html
    matplotlib.pyplot.close("all")


# --------------------------------------------------------------------------- what a screen reader hears on a move
def test_announcement_is_the_clauses_that_changed():
    from helpers.widgets import announcement

    before = "threshold     0.505\nTP 130  FP 1001\nrecall 1.000 | precision 0.115"
    only_threshold = "threshold     0.510\nTP 130  FP 1001\nrecall 1.000 | precision 0.115"
    assert announcement(before, only_threshold) == "threshold 0.510"
    counts_too = "threshold     0.520\nTP 129  FP 1001\nrecall 0.992 | precision 0.115"
    assert announcement(before, counts_too) == "threshold 0.520; TP 129 FP 1001; recall 0.992"
    assert announcement(before, before) == ""
    assert announcement(None, before) == "threshold 0.505; TP 130 FP 1001; recall 1.000; precision 0.115"
    with pytest.raises(ValueError, match="must be strings"):
        announcement(before, None)


def test_an_explorer_announces_a_short_line_and_keeps_the_full_panel():
    from helpers.roc import describe_threshold_state
    from helpers.widgets import announcement, threshold_explorer

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], [900, 130])
    explorer = threshold_explorer(y, rng.uniform(size=y.size) + 0.3 * y)
    assert explorer.announce.value == ""  # the first state is not a change
    first = describe_threshold_state(explorer.state)
    grid = explorer.slider.options
    explorer.slider.value = grid[[v for _, v in grid].index(explorer.slider.value) + 1][1]
    second = describe_threshold_state(explorer.state)
    short = announcement(first, second)
    assert explorer.announce.value == f"<p>{html.escape(short)}</p>"
    assert short.startswith("threshold ") and len(short) < len(" ".join(second.split()))
    assert "cost-optimal" not in short and "Youden" not in short  # unchanged by a move: not read again
    assert second in explorer.text.value  # every number still readable in the panel
    explorer.cost_fp.value = -1.0  # a bad input: its message, no stale announcement
    assert explorer.announce.value == "" and explorer.message.value


def test_the_bridge_gets_each_sliders_option_labels_and_marks_the_short_line_live():
    import ipywidgets as widgets

    from helpers.widgets import ANNOUNCE_CLASS, BRIDGE_ESM, slider_labels

    controls = [grid_slider([0.1, 0.2, 0.3], 0.2, "t", fmt="{:.3f}"), widgets.FloatText(1.0),
                widgets.IntSlider(value=3, min=2, max=5)]
    assert slider_labels(controls) == [["0.100", "0.200", "0.300"], None]
    # the readout is never an input, the value text never read from its text, and the live region is the short line
    assert "'contenteditable', 'false'" in BRIDGE_ESM and "'tabindex', '-1'" in BRIDGE_ESM
    assert "readout.textContent" not in BRIDGE_ESM and f".{ANNOUNCE_CLASS}, " in BRIDGE_ESM
    assert ".course-explorer-panel" not in BRIDGE_ESM
