"""helpers.validation: the shared input checks and nan-safe arithmetic."""

import math

import numpy as np
import pytest

from helpers import style
from helpers.validation import (as_1d, check_binary_scores, check_int, check_pair, check_probability, check_real,
                                check_X_y, divide, finite_floats, ratio)


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
