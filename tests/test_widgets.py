"""The F-beta slider: its pure function, the flip point and the iso-F curves."""

import math

import ipywidgets
import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import fbeta_score

from helpers.datasets import HIGH_PRECISION, HIGH_RECALL, Counts
from helpers.plotting import iso_fbeta_precision, plot_iso_fbeta
from helpers.metrics import FBETA_NAMES, describe_fbeta_state, fbeta_state, ranking_flip_beta
from helpers.widgets import fbeta_explorer

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
    assert len(values) == 99 and all(round(v, 2) == v for v in values)
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
