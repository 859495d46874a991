"""ROC and precision-recall curves computed by hand, to check against scikit-learn.

Conventions (those of scikit-learn):
- a sample is predicted positive when its score is ``>= threshold``;
- the sweep runs over the distinct scores in decreasing order, so tied scores
  enter together and form one row;
- bad input raises ``ValueError`` naming the problem, and inputs are never
  modified.

All tables come from one sort of the scores and one cumulative sum of the
labels (TP at every cut; FP is the cut's size minus TP), so they take
``O(n log n)`` time however many thresholds there are.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.metrics import _as_1d, _divide

ROC_COLUMNS = ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr", "precision"]
PR_COLUMNS = ["threshold", "tp", "fp", "precision", "recall"]


# --------------------------------------------------------------------------- validation
def _finite_floats(values, name: str) -> np.ndarray:
    """``values`` as a one-dimensional float array with no NaN and no infinity."""
    array = _as_1d(values, name)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {array.dtype}")
    array = array.astype(np.float64, copy=False)
    finite = np.isfinite(array)
    if not finite.all():
        problem = "NaN" if np.isnan(array).any() else "infinite values"
        raise ValueError(f"{name} contains {problem}; scores must be finite numbers")
    return array


def check_binary_scores(y_true, y_score, pos_label=1) -> tuple[np.ndarray, np.ndarray]:
    """Validate binary labels and scores; return ``(is_positive, scores)`` as new arrays.

    Raises ``ValueError`` for different lengths, an empty input, NaN or
    infinite scores, labels with NaN, one class only, more than two classes or
    a ``pos_label`` that is not one of the two labels.
    """
    y_true = _as_1d(y_true, "y_true")
    score = _finite_floats(y_score, "y_score")
    if y_true.shape[0] != score.shape[0]:
        raise ValueError(
            f"y_true and y_score have different lengths: {y_true.shape[0]} and {score.shape[0]}"
        )
    if (y_true.dtype.kind == "f" and np.isnan(y_true).any()) or (
        y_true.dtype.kind == "O" and pd.isna(y_true).any()
    ):
        raise ValueError("y_true contains NaN or None")
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


# --------------------------------------------------------------------------- the sweep
def _sweep(is_positive: np.ndarray, score: np.ndarray):
    """Distinct thresholds (decreasing) and the TP, FP counts at each: ``score >= threshold``."""
    order = np.argsort(score)[::-1]  # one sort; the order inside a tie does not matter
    sorted_score = score[order]
    last_of_tie = np.append(np.flatnonzero(np.diff(sorted_score)), score.size - 1)
    tp = np.cumsum(is_positive[order])[last_of_tie]
    fp = last_of_tie + 1 - tp
    return sorted_score[last_of_tie], tp, fp


def roc_counts(y_true, y_score, pos_label=1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(thresholds, tp, fp)`` of the ROC sweep as arrays, starting at threshold ``inf``
    with no positive predictions: the rows of :func:`roc_table` without the table."""
    is_positive, score = check_binary_scores(y_true, y_score, pos_label)
    thresholds, tp, fp = _sweep(is_positive, score)
    return np.concatenate([[np.inf], thresholds]), np.concatenate([[0], tp]), np.concatenate([[0], fp])


def roc_table(y_true, y_score, pos_label=1) -> pd.DataFrame:
    """The ROC sweep as a table, one row per threshold.

    The first row has threshold ``inf`` (nothing predicted positive); then one
    row per distinct score, in decreasing order. Columns: threshold, tp, fp,
    tn, fn, tpr = tp / P, fpr = fp / N and precision = tp / (tp + fp), which is
    ``nan`` in the first row (0 / 0). ``fpr``, ``tpr`` and ``threshold`` equal
    ``roc_curve(y_true, y_score, drop_intermediate=False)``.
    """
    thresholds, tp, fp = roc_counts(y_true, y_score, pos_label)
    positives, negatives = tp[-1], fp[-1]
    return pd.DataFrame({
        "threshold": thresholds,
        "tp": tp,
        "fp": fp,
        "tn": negatives - fp,
        "fn": positives - tp,
        "tpr": tp / positives,
        "fpr": fp / negatives,
        "precision": _divide(tp, tp + fp),
    })


def pr_table(y_true, y_score, pos_label=1) -> pd.DataFrame:
    """The precision-recall sweep as a table, one row per threshold.

    Rows are ordered like :func:`roc_table`: a first row at threshold ``inf``
    with recall 0 and precision 1 (scikit-learn's convention, so the curve
    starts on the y-axis; the true value is 0 / 0), then one row per distinct
    score in decreasing order. Read from the bottom up, ``precision`` and
    ``recall`` equal ``precision_recall_curve``'s arrays, and ``threshold``
    (without ``inf``) its thresholds.
    """
    is_positive, score = check_binary_scores(y_true, y_score, pos_label)
    thresholds, tp, fp = _sweep(is_positive, score)
    return pd.DataFrame({
        "threshold": np.concatenate([[np.inf], thresholds]),
        "tp": np.concatenate([[0], tp]),
        "fp": np.concatenate([[0], fp]),
        "precision": np.concatenate([[1.0], tp / (tp + fp)]),
        "recall": np.concatenate([[0.0], tp / tp[-1]]),
    })


# --------------------------------------------------------------------------- areas
def auc_trapezoid(fpr, tpr) -> float:
    """Area under a curve through the points ``(fpr, tpr)`` by the trapezoid rule.

    ``fpr`` must be monotonic (increasing or decreasing), as ``sklearn.metrics.auc``
    requires; with ``roc_table``'s columns this equals ``roc_auc_score``.
    """
    x = _finite_floats(fpr, "fpr")
    y = _finite_floats(tpr, "tpr")
    if x.shape != y.shape:
        raise ValueError(f"fpr and tpr have different lengths: {x.size} and {y.size}")
    if x.size < 2:
        raise ValueError(f"at least 2 points are needed to compute an area; got {x.size}")
    steps = np.diff(x)
    if not ((steps >= 0).all() or (steps <= 0).all()):
        raise ValueError("fpr is neither increasing nor decreasing; sort the points first")
    area = float(np.sum(steps * (y[1:] + y[:-1]) / 2))
    return -area if steps.sum() < 0 else area


def auc_rank(y_true, y_score, pos_label=1) -> float:
    """ROC AUC from ranks (Mann-Whitney U): the share of (positive, negative) pairs
    that the scores order correctly, a tie counting one half.

    Tied scores share the average of their ranks; then
    ``U = (sum of the positives' ranks) - P (P + 1) / 2`` and ``AUC = U / (P N)``.
    """
    is_positive, score = check_binary_scores(y_true, y_score, pos_label)
    order = np.argsort(score)
    sorted_score = score[order]
    starts = np.flatnonzero(np.diff(sorted_score, prepend=-np.inf))
    ends = np.append(starts[1:], score.size)
    average_rank = (starts + 1 + ends) / 2  # ranks start + 1, ..., end
    ranks = np.repeat(average_rank, ends - starts)
    positives = int(is_positive.sum())
    negatives = score.size - positives
    u = ranks[is_positive[order]].sum() - positives * (positives + 1) / 2
    return float(u / (positives * negatives))


def average_precision_by_hand(y_true, y_score, pos_label=1) -> float:
    """Average precision: the sum over thresholds of precision times the gain in recall,
    ``AP = sum_k P_k (R_k - R_{k-1})``, as ``average_precision_score`` computes it."""
    table = pr_table(y_true, y_score, pos_label)
    recall = table["recall"].to_numpy()
    precision = table["precision"].to_numpy()
    return float(np.sum(np.diff(recall) * precision[1:]))
