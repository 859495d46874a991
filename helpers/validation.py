"""Input checks and safe arithmetic shared by every helper module.

Each check raises ``ValueError`` naming the argument and the problem, as
scikit-learn does, and never modifies what it was given: arrays it returns
are either the caller's untouched array or a new one, never a modified one.
Modules import these public names; none imports another module's private ones.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

__all__ = [
    "as_1d", "check_pair", "check_counts", "check_int", "check_real", "check_probability",
    "finite_floats", "unit_probabilities", "check_binary_scores", "check_X_y", "ratio", "divide",
]


# --------------------------------------------------------------------------- scalars
def check_int(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an ``int``; bools, floats and strings are refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}; got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}; got {value}")
    return int(value)


def check_real(value, name: str, minimum: float | None = None, *, strict: bool = False) -> float:
    """``value`` as a finite ``float`` (>= ``minimum``, or > it when ``strict``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    if minimum is not None and (value <= minimum if strict else value < minimum):
        relation = ">" if strict else ">="
        raise ValueError(f"{name} must be {relation} {minimum:g}; got {value!r}")
    return float(value)


def check_probability(value, name: str) -> float:
    """A number strictly between 0 and 1 (a confidence level, a share)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < 1:
        raise ValueError(f"{name} must be a number strictly between 0 and 1; got {value!r}")
    return float(value)


# --------------------------------------------------------------------------- arrays
def as_1d(values, name: str) -> np.ndarray:
    """``values`` as a one-dimensional, non-empty array with no NaN or None."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed")
    if array.dtype.kind in "fc" and np.isnan(array).any():
        raise ValueError(f"{name} contains NaN")
    if array.dtype.kind == "O" and pd.isna(array).any():
        raise ValueError(f"{name} contains NaN or None")
    return array


def check_pair(y_true, y_pred, names=("y_true", "y_pred")) -> tuple[np.ndarray, np.ndarray]:
    """Two one-dimensional arrays of the same length."""
    first, second = names
    y_true = as_1d(y_true, first)
    y_pred = as_1d(y_pred, second)
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            f"{first} and {second} have different lengths: {y_true.shape[0]} and {y_pred.shape[0]}"
        )
    return y_true, y_pred


def finite_floats(values, name: str) -> np.ndarray:
    """``values`` as a new one-dimensional float array with no NaN and no infinity."""
    array = as_1d(values, name)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {array.dtype}")
    array = array.astype(np.float64, copy=True)
    if not np.isfinite(array).all():  # as_1d has refused NaN already: what is left is infinite
        raise ValueError(f"{name} contains infinite values; scores must be finite numbers")
    return array


def unit_probabilities(values, name: str) -> np.ndarray:
    """``values`` as a new float array of probabilities; ``ValueError`` naming ``name`` for NaN, infinite
    values or values outside [0, 1]."""
    prob = finite_floats(values, name)
    if prob.min() < 0 or prob.max() > 1:
        raise ValueError(f"{name} must hold probabilities in [0, 1]; got values from {prob.min():g} "
                         f"to {prob.max():g} (a decision_function is not a probability)")
    return prob


def check_X_y(X, y, *, min_classes: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A 2-D finite float feature matrix (a new array) and 1-D labels of the same length.

    ``min_classes`` > 0 also requires that many distinct labels in ``y``.
    """
    X_array = as_2d_floats(X, "X")
    y_array = as_1d(y, "y")
    if X_array.shape[0] != y_array.shape[0]:
        raise ValueError(f"X and y have different numbers of samples: {X_array.shape[0]} and {y_array.shape[0]}")
    if min_classes:
        classes = pd.unique(y_array.astype(object))
        if len(classes) < min_classes:
            raise ValueError(f"y needs at least {min_classes} classes; got only {sorted(map(str, classes))}")
    return X_array, y_array


def check_counts(tp, fp, fn, tn) -> tuple[int, int, int, int]:
    """The four cells of a binary confusion matrix: whole, non-negative, not all zero."""
    counts = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    for name, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer, float, np.floating)):
            raise ValueError(f"{name} must be a number; got {value!r}")
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{name} must be a whole number; got {value!r}")
        if value < 0:
            raise ValueError(f"{name} must not be negative; got {value!r}")
    if sum(counts.values()) == 0:
        raise ValueError("the confusion matrix is empty: tp + fp + fn + tn = 0")
    return tuple(int(v) for v in counts.values())


def check_binary_scores(y_true, y_score, pos_label=1) -> tuple[np.ndarray, np.ndarray]:
    """Validate binary labels and scores; return ``(is_positive, scores)`` as new arrays.

    Raises ``ValueError`` for different lengths, an empty input, NaN or
    infinite scores, labels with NaN, one class only, more than two classes or
    a ``pos_label`` that is not one of the two labels.
    """
    y_true = as_1d(y_true, "y_true")
    score = finite_floats(y_score, "y_score")
    if y_true.shape[0] != score.shape[0]:
        raise ValueError(
            f"y_true and y_score have different lengths: {y_true.shape[0]} and {score.shape[0]}"
        )
    classes = pd.unique(y_true).tolist()
    if len(classes) == 1:
        raise ValueError(
            f"y_true contains only one class ({classes[0]!r}); a ROC or PR curve needs "
            "both positive and negative samples"
        )
    if len(classes) > 2:
        raise ValueError(
            f"y_true must hold two classes; got {len(classes)}: {sorted(map(str, classes))} "
            "(for more classes, compute one curve per class: one-vs-rest)"
        )
    if pos_label not in classes:
        raise ValueError(
            f"pos_label={pos_label!r} is not a valid label: it should be one of "
            f"{sorted(classes, key=str)}"
        )
    return y_true == pos_label, score


# --------------------------------------------------------------------------- arithmetic
def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, or ``nan`` (no warning) when the denominator is 0."""
    return numerator / denominator if denominator else math.nan


def divide(numerator, denominator) -> np.ndarray:
    """Element-wise ``numerator / denominator`` as floats, ``nan`` where the denominator is 0."""
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    out = np.full(np.broadcast(numerator, denominator).shape, np.nan)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


# --------------------------------------------------------------------------- resampling (notebook 04)
def as_2d_floats(X, name: str = "X") -> np.ndarray:
    """``X`` as a new 2-D, non-empty, finite float array (samples x features)."""
    array = np.asarray(X)
    if array.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional (samples x features); got shape {array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name} is empty; got shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {array.dtype}")
    array = array.astype(np.float64, copy=True)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinite values")
    return array


def check_label(y, label, name: str = "minority_label") -> None:
    """Raise ``ValueError`` unless ``label`` is one of the labels in ``y``."""
    labels = pd.unique(np.asarray(y).astype(object))
    if not any(label == value for value in labels):
        raise ValueError(f"{name}={label!r} is not a label of y; y holds {sorted(map(str, labels))}")


__all__ += ["as_2d_floats", "check_label"]
