"""helpers.validation: the shared input checks and nan-safe arithmetic."""

import math

import numpy as np
import pytest

from helpers import style
from helpers.validation import (as_1d, as_2d_floats, check_binary_scores, check_int, check_pair, check_probability,
                                check_real, check_X_y, divide, finite_floats, ratio, unit_probabilities)


@pytest.mark.parametrize("value, message", [(True, "n must be an integer"), (2.0, "n must be an integer"),
                                            ("3", "n must be an integer"), (1, "n must be at least 2"),
                                            (11, "n must be at most 10")])
def test_check_int_refuses(value, message):
    with pytest.raises(ValueError, match=message):
        check_int(value, "n", minimum=2, maximum=10)


def test_check_int_accepts_numpy_integers():
    assert check_int(np.int64(7), "n", 2, 10) == 7 and type(check_int(np.int64(7), "n")) is int


@pytest.mark.parametrize("value", [math.nan, math.inf, "1", None, False])
def test_check_real_refuses_non_finite_and_non_numbers(value):
    with pytest.raises(ValueError, match="noise_sd must be a finite number"):
        check_real(value, "noise_sd")


def test_check_real_bounds():
    assert check_real(0, "x", minimum=0) == 0.0
    with pytest.raises(ValueError, match=r"x must be > 0; got 0"):
        check_real(0, "x", minimum=0, strict=True)
    with pytest.raises(ValueError, match=r"x must be >= 0; got -0.5"):
        check_real(-0.5, "x", minimum=0)


@pytest.mark.parametrize("value", [0, 1, 1.5, True, "0.5"])
def test_check_probability(value):
    with pytest.raises(ValueError, match="confidence must be a number strictly between 0 and 1"):
        check_probability(value, "confidence")
    assert check_probability(0.95, "confidence") == 0.95


@pytest.mark.parametrize("values, message", [
    ([0.2, 1.2], r"p must hold probabilities in \[0, 1\]; got values from 0.2 to 1.2"),
    ([-0.25, 0.5], r"p must hold probabilities in \[0, 1\]; got values from -0.25 to 0.5"),
    ([0.5, np.nan], "p contains NaN"), ([0.5, np.inf], "p contains infinite values"), (["a"], "p must hold numbers")])
def test_unit_probabilities_refuses(values, message):
    with pytest.raises(ValueError, match=message):
        unit_probabilities(values, "p")


def test_unit_probabilities_accepts_the_ends_and_returns_a_new_array():
    given = np.array([0.0, 0.3, 1.0])
    out = unit_probabilities(given, "p")
    assert out.tolist() == [0.0, 0.3, 1.0] and out.dtype == np.float64
    assert not np.shares_memory(out, given) and given.tolist() == [0.0, 0.3, 1.0]
    assert unit_probabilities([0, 1, 1], "p").tolist() == [0.0, 1.0, 1.0]


def test_as_1d_and_pair_name_the_array():
    with pytest.raises(ValueError, match="y_pred contains NaN"):
        check_pair([1, 0], [1.0, np.nan])
    with pytest.raises(ValueError, match="y_true contains NaN or None"):
        check_pair(np.array([1, None], dtype=object), [1, 0])
    with pytest.raises(ValueError, match="scores is empty"):
        as_1d([], "scores")
    with pytest.raises(ValueError, match=r"a and b have different lengths: 2 and 3"):
        check_pair([1, 2], [1, 2, 3], names=("a", "b"))


def test_finite_floats_returns_a_new_array():
    given = np.array([0.1, 0.5, 0.9])
    out = finite_floats(given, "y_score")
    assert out is not given and not np.shares_memory(out, given)
    out[0] = 7
    assert given[0] == 0.1
    with pytest.raises(ValueError, match="y_score contains infinite values"):
        finite_floats([0.1, np.inf], "y_score")


def test_check_binary_scores_copies_and_names_the_problem():
    scores = np.array([0.2, 0.8])
    is_positive, out = check_binary_scores(["no", "yes"], scores, pos_label="yes")
    assert is_positive.tolist() == [False, True] and not np.shares_memory(out, scores)
    with pytest.raises(ValueError, match=r"pos_label=1 is not a valid label: it should be one of \['no', 'yes'\]"):
        check_binary_scores(["no", "yes"], scores)


def test_check_X_y():
    X = [[1, 2], [3, 4], [5, 6]]
    X_out, y_out = check_X_y(X, [0, 1, 1], min_classes=2)
    assert X_out.dtype == np.float64 and X_out.shape == (3, 2)
    with pytest.raises(ValueError, match="X must be two-dimensional"):
        check_X_y([1, 2, 3], [0, 1, 1])
    with pytest.raises(ValueError, match="X and y have different numbers of samples: 3 and 2"):
        check_X_y(X, [0, 1])
    with pytest.raises(ValueError, match="X contains NaN or infinite values"):
        check_X_y([[1, np.nan], [1, 2]], [0, 1])
    with pytest.raises(ValueError, match=r"y needs at least 2 classes; got only \['1'\]"):
        check_X_y(X, [1, 1, 1], min_classes=2)


def test_ratio_and_divide_give_nan_for_zero_denominators():
    assert ratio(1, 4) == 0.25 and math.isnan(ratio(1, 0))
    assert np.array_equal(divide([1, 2, 0], [2, 0, 0]), [0.5, np.nan, np.nan], equal_nan=True)


def test_style_keeps_text_readable():
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties
    style.use()
    sizes = [mpl.rcParams[k] for k in ("font.size", "axes.titlesize", "axes.labelsize", "xtick.labelsize",
                                       "ytick.labelsize", "legend.fontsize")]
    assert min(FontProperties(size=s).get_size_in_points() for s in sizes) >= style.MIN_FONT_POINTS
    assert mpl.rcParams["axes.prop_cycle"].by_key()["color"][0] == style.CYCLE[0]


# --------------------------------------------------------------------------- gaps found by mutation testing (issue 7)
from helpers.validation import check_counts  # noqa: E402


def test_check_int_boundaries_are_inclusive():
    assert check_int(2, "n", minimum=2, maximum=2) == 2
    assert check_int(-5, "n") == -5  # no bounds by default
    with pytest.raises(ValueError, match="n must be at least 2; got 1"):
        check_int(1, "n", minimum=2)
    with pytest.raises(ValueError, match="n must be at most 2; got 3"):
        check_int(3, "n", maximum=2)


def test_check_real_returns_a_float_and_checks_strictness_at_the_bound():
    assert check_real(1, "x") == 1.0 and type(check_real(np.float32(0.5), "x")) is float
    assert check_real(-3.5, "x") == -3.5  # no minimum by default
    assert check_real(0.001, "x", minimum=0, strict=True) == 0.001
    with pytest.raises(ValueError, match=r"x must be >= 1; got 0.5"):
        check_real(0.5, "x", minimum=1)


def test_check_probability_refuses_strings_bools_and_bounds():
    for value in (0.0, 1.0, -0.2, 1.2, True, False, "0.5", None, np.nan):
        with pytest.raises(ValueError, match="confidence must be a number strictly between 0 and 1"):
            check_probability(value, "confidence")
    assert check_probability(np.float64(0.5), "confidence") == 0.5 and check_probability(1e-9, "c") == 1e-9


def test_as_1d_refuses_two_dimensional_input_with_its_shape():
    with pytest.raises(ValueError, match=r"y must be one-dimensional; got shape \(2, 2\)"):
        as_1d([[1, 2], [3, 4]], "y")
    with pytest.raises(ValueError, match=r"y must be one-dimensional; got shape \(\)"):
        as_1d(3, "y")
    assert as_1d(["a", "b"], "y").tolist() == ["a", "b"]


def test_check_binary_scores_returns_new_arrays_even_for_float64_input():
    scores = np.array([0.2, 0.8, 0.5])
    labels = np.array([0, 1, 1])
    is_positive, out = check_binary_scores(labels, scores)
    assert out is not scores and not np.shares_memory(out, scores) and out.dtype == np.float64
    assert is_positive is not labels and is_positive.dtype == bool and is_positive.tolist() == [False, True, True]
    out[0] = 9.0
    is_positive[0] = True
    assert scores[0] == 0.2 and labels[0] == 0


@pytest.mark.parametrize("y, s, message", [
    ([1, 1], [0.1, 0.2], r"y_true contains only one class \(1\)"),
    ([0, 1, 2], [0.1, 0.2, 0.3], r"y_true must hold two classes; got 3: \['0', '1', '2'\]"),
    ([0, 1], [0.1, 0.2, 0.3], "y_true and y_score have different lengths: 2 and 3"),
    ([0, 1], [0.1, np.nan], "y_score contains NaN"),
    ([0, np.nan], [0.1, 0.2], "y_true contains NaN"),
    ([0, 1], [0.1, -np.inf], "y_score contains infinite values"),
    ([0, 1], ["a", "b"], "y_score must hold numbers"),
])
def test_check_binary_scores_names_the_problem(y, s, message):
    with pytest.raises(ValueError, match=message):
        check_binary_scores(y, s)


def test_finite_floats_accepts_integers_and_booleans():
    assert finite_floats([1, 2], "s").tolist() == [1.0, 2.0]
    assert finite_floats(np.array([True, False]), "s").tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="s must hold numbers; got dtype <U1"):
        finite_floats(["a"], "s")


def test_check_X_y_validates_every_problem():
    with pytest.raises(ValueError, match=r"X is empty; got shape \(0, 2\)"):
        check_X_y(np.zeros((0, 2)), [])
    with pytest.raises(ValueError, match=r"X is empty; got shape \(3, 0\)"):
        check_X_y(np.zeros((3, 0)), [0, 1, 1])
    with pytest.raises(ValueError, match=r"X must be two-dimensional \(samples x features\); got shape \(3,\)"):
        check_X_y([1, 2, 3], [0, 1, 1])
    with pytest.raises(ValueError, match="X must hold numbers; got dtype <U1"):
        check_X_y([["a"], ["b"]], [0, 1])
    with pytest.raises(ValueError, match="X contains NaN or infinite values"):
        check_X_y([[1.0], [np.inf]], [0, 1])
    with pytest.raises(ValueError, match="y contains NaN"):
        check_X_y([[1.0], [2.0]], [0, np.nan])
    with pytest.raises(ValueError, match=r"y needs at least 3 classes; got only \['a', 'b'\]"):
        check_X_y([[1.0], [2.0], [3.0]], ["b", "a", "b"], min_classes=3)


def test_check_X_y_returns_a_float_copy_and_the_labels():
    X = np.array([[1, 2], [3, 4]], dtype=np.int32)
    y = np.array(["a", "a"])
    X_out, y_out = check_X_y(X, y)  # min_classes=0 by default: one class is fine
    assert X_out.dtype == np.float64 and X_out.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert y_out.tolist() == ["a", "a"]
    float_X = np.array([[0.5], [1.5]])
    copy, _ = check_X_y(float_X, [0, 1], min_classes=2)  # exactly two classes meet the minimum
    assert not np.shares_memory(copy, float_X)
    copy[0, 0] = 9
    assert float_X[0, 0] == 0.5


@pytest.mark.parametrize("counts, message", [
    ((True, 0, 0, 1), "tp must be a number; got True"),
    ((1, "2", 0, 1), "fp must be a number; got '2'"),
    ((1, 0, None, 1), "fn must be a number; got None"),
    ((1, 0, 0, 1.5), "tn must be a whole number; got 1.5"),
    ((np.nan, 0, 0, 1), "tp must be a whole number; got nan"),
    ((1, np.inf, 0, 1), "fp must be a whole number; got inf"),
    ((1, 0, -1, 1), "fn must not be negative; got -1"),
    ((0, 0, 0, 0), r"the confusion matrix is empty: tp \+ fp \+ fn \+ tn = 0"),
])
def test_check_counts_names_the_cell(counts, message):
    with pytest.raises(ValueError, match=message):
        check_counts(*counts)


def test_check_counts_returns_ints():
    out = check_counts(np.int64(3), 2.0, np.float32(1), 0)
    assert out == (3, 2, 1, 0) and all(type(v) is int for v in out)


def test_divide_broadcasts_and_keeps_signs():
    out = divide([[1.0], [-2.0]], [2.0, 0.0, -4.0])
    assert out.shape == (2, 3)
    assert np.array_equal(out, [[0.5, np.nan, -0.25], [-1.0, np.nan, 0.5]], equal_nan=True)
    assert ratio(-3, -4) == 0.75 and ratio(0, 5) == 0.0 and math.isnan(ratio(0, 0))


@pytest.mark.parametrize("X, message", [
    ([[1.0], [np.nan]], "^X contains NaN or infinite values$"),
    (np.zeros((0, 2)), r"^X is empty; got shape \(0, 2\)$"),
    ([["a"], ["b"]], "^X must hold numbers; got dtype <U1$"),
])
def test_check_X_y_messages_in_full(X, message):
    with pytest.raises(ValueError, match=message):
        check_X_y(X, [0, 1] if len(X) else [])


def test_full_messages_of_counts_and_binary_scores():
    with pytest.raises(ValueError, match=r"^the confusion matrix is empty: tp \+ fp \+ fn \+ tn = 0$"):
        check_counts(0, 0, 0, 0)
    with pytest.raises(ValueError, match=r"^y_true contains only one class \(1\); a ROC or PR curve needs both "
                                         r"positive and negative samples$"):
        check_binary_scores([1, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"^y_true must hold two classes; got 3: \['0', '1', '2'\] \(for more "
                                         r"classes, compute one curve per class: one-vs-rest\)$"):
        check_binary_scores([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"^pos_label='b' is not a valid label: it should be one of \[1, 'a'\]$"):
        check_binary_scores(np.array([1, "a"], dtype=object), [0.1, 0.2], pos_label="b")


def test_as_2d_floats_names_X_by_default_and_the_given_name_otherwise():
    with pytest.raises(ValueError, match=r"^X is empty; got shape \(0, 2\)$"):
        as_2d_floats(np.empty((0, 2)))
    with pytest.raises(ValueError, match=r"^X_minority must be two-dimensional \(samples x features\); "
                                         r"got shape \(2,\)$"):
        as_2d_floats([1.0, 2.0], "X_minority")


def test_divide_takes_python_integers_beyond_int64():
    # counts summed in Python can exceed int64; divide works in floats: 2**64 / 2**63 = 2 exactly
    assert np.array_equal(divide([2**64, 3], [2**63, 0]), [2.0, np.nan], equal_nan=True)
    assert divide([1], [2**64]).tolist() == [2.0**-64]
