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

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from helpers.metrics import binary_metrics
from helpers.validation import check_binary_scores, check_int, check_probability, divide, finite_floats, ratio

ROC_COLUMNS = ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr", "precision"]
PR_COLUMNS = ["threshold", "tp", "fp", "precision", "recall"]


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
        "precision": divide(tp, tp + fp),
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
    x = finite_floats(fpr, "fpr")
    y = finite_floats(tpr, "tpr")
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


def interpolated_average_precision(y_true, y_score, pos_label=1, n_points: int | None = None) -> float:
    """Average precision with *interpolated* precision ``max_{R' >= R} P(R')``.

    The interpolated precision at a recall is the best precision reached at that
    recall or beyond, which removes the PR curve's zigzag; the maximum runs over
    precisions that a threshold actually reaches (not the table's artificial
    precision 1 at recall 0). ``n_points=None`` sums it over the recall steps
    (all-point interpolation, as in PASCAL VOC since 2010), which is never below
    the plain ``average_precision_by_hand``. ``n_points=11`` averages it at
    recall 0, 0.1, ..., 1 (the older 11-point form of PASCAL VOC 2007): an
    average of 11 samples, not an area, so it can be above *or below* the plain AP.
    """
    table = pr_table(y_true, y_score, pos_label).iloc[1:]  # real thresholds only
    recall = table["recall"].to_numpy()
    interpolated = np.maximum.accumulate(table["precision"].to_numpy()[::-1])[::-1]
    if n_points is None:
        return float(np.sum(np.diff(recall, prepend=0.0) * interpolated))
    n_points = check_int(n_points, "n_points", 2)
    levels = np.linspace(0, 1, n_points)
    # the first row whose recall reaches each level (recall increases down the table)
    first = np.searchsorted(recall, levels - 1e-12, side="left")
    return float(np.mean(interpolated[first]))


def lift_at(y_true, y_score, fraction: float, pos_label=1) -> float:
    """Lift of the top ``fraction`` of the samples ranked by score.

    ``lift@K = precision@K / prevalence = recall@K / K``: how many times more
    positives the top K% holds than a random K% would. The top K% is the
    ``round(fraction * n)`` highest scores (at least 1); a tie at the cut is
    broken in the order of ``y_score``, as a stable sort would do.
    """
    is_positive, score = check_binary_scores(y_true, y_score, pos_label)
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float, np.number)) or not 0 < fraction <= 1:
        raise ValueError(f"fraction must be a number in (0, 1]; got {fraction!r}")
    top = max(1, round(fraction * score.size))
    order = np.argsort(-score, kind="stable")[:top]
    return float(is_positive[order].mean() / is_positive.mean())


def bootstrap_auc_interval(y_true, y_score, pos_label=1, n_rounds: int = 1000, confidence: float = 0.95,
                           random_state=None) -> dict:
    """A percentile bootstrap confidence interval for one ROC AUC.

    Each round resamples the positives and the negatives separately with
    replacement (a stratified bootstrap: every resample keeps both classes and
    the class sizes) and computes the AUC by ranks. Returns ``auc`` (of the data
    as given), ``low`` and ``high`` (the ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` quantiles of the ``n_rounds`` resampled AUCs) and
    ``standard_error`` (their standard deviation).
    """
    is_positive, score = check_binary_scores(y_true, y_score, pos_label)
    n_rounds = check_int(n_rounds, "n_rounds", 2)
    confidence = check_probability(confidence, "confidence")
    _check_class_sizes(is_positive, "a stratified bootstrap cannot vary a class this small, so the interval "
                                    "would claim a certainty the data do not have")
    rng = np.random.default_rng(random_state)
    positives, negatives = score[is_positive], score[~is_positive]
    labels = np.repeat([True, False], [positives.size, negatives.size])
    aucs = np.empty(n_rounds)
    for i in range(n_rounds):
        resampled = np.concatenate([rng.choice(positives, positives.size), rng.choice(negatives, negatives.size)])
        aucs[i] = auc_rank(labels, resampled, pos_label=True)
    low, high = np.quantile(aucs, [(1 - confidence) / 2, (1 + confidence) / 2])
    return {"auc": auc_rank(is_positive, score, pos_label=True), "low": float(low), "high": float(high),
            "standard_error": float(aucs.std(ddof=1)), "n_rounds": n_rounds}


def _placements(is_positive: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placement values: for each positive, the share of negatives it outranks (a tie
    counting one half); for each negative, the share of positives that outrank it. Their means are
    the AUC. Computed from mid-ranks (Sun & Xu 2014): O(n log n), no P x N matrix."""
    all_ranks = stats.rankdata(score)
    positives, negatives = score[is_positive], score[~is_positive]
    n_pos, n_neg = positives.size, negatives.size
    pos_ranks, neg_ranks = all_ranks[is_positive], all_ranks[~is_positive]
    v10 = (pos_ranks - stats.rankdata(positives)) / n_neg  # negatives below each positive
    v01 = 1 - (neg_ranks - stats.rankdata(negatives)) / n_pos  # positives above each negative
    return v10, v01


class DeLongTest(NamedTuple):
    """Result of :func:`delong_test` (the difference is a - b)."""

    auc_a: float
    auc_b: float
    difference: float
    standard_error: float
    z: float
    p_value: float
    ci_low: float
    ci_high: float


MIN_CLASS_SIZE = 2  # a class of one has no sample variance and a bootstrap cannot vary it


def _check_class_sizes(is_positive: np.ndarray, why: str) -> None:
    """Raise ``ValueError`` when a class has fewer than ``MIN_CLASS_SIZE`` samples, saying ``why`` it matters."""
    for name, size in (("positive", int(is_positive.sum())), ("negative", int((~is_positive).sum()))):
        if size < MIN_CLASS_SIZE:
            raise ValueError(f"only {size} {name} sample; at least {MIN_CLASS_SIZE} of each class are needed: {why}")


def _check_paired_scores(y_true, score_a, score_b, pos_label):
    is_positive, a = check_binary_scores(y_true, score_a, pos_label)
    _, b = check_binary_scores(y_true, score_b, pos_label)
    return is_positive, a, b


def delong_test(y_true, score_a, score_b, pos_label=1, confidence: float = 0.95) -> DeLongTest:
    """DeLong, DeLong and Clarke-Pearson's (1988) test of two correlated ROC AUCs on the same samples.

    Each AUC is the mean of its placement values (:func:`_placements`): V10 over
    the P positives and V01 over the N negatives. With S10 and S01 their 2 x 2
    sample covariance matrices (one row and column per model), the variance of
    ``AUC_a - AUC_b`` is ``(S10_aa + S10_bb - 2 S10_ab) / P + (S01_aa + S01_bb - 2 S01_ab) / N``:
    the covariance terms are what pairing gains. ``z = difference / SE`` is
    compared with the standard normal (two-sided ``p_value``); the interval is
    ``difference +/- z_crit SE``. A class of one sample, or placement values
    without variance (identical scores, for instance), raise ``ValueError``.
    """
    is_positive, a, b = _check_paired_scores(y_true, score_a, score_b, pos_label)
    confidence = check_probability(confidence, "confidence")
    _check_class_sizes(is_positive, "DeLong's variance is a sample covariance over each class, undefined for one "
                                    "sample")
    v10 = np.array([_placements(is_positive, s)[0] for s in (a, b)])
    v01 = np.array([_placements(is_positive, s)[1] for s in (a, b)])
    contrast = np.array([1.0, -1.0])
    variance = contrast @ np.cov(v10) @ contrast / v10.shape[1] + contrast @ np.cov(v01) @ contrast / v01.shape[1]
    auc_a, auc_b = float(v10[0].mean()), float(v10[1].mean())
    difference = auc_a - auc_b
    if not variance > 1e-15:
        raise ValueError(f"the placement values give the AUC difference ({difference:+.4g}) no variance (the two "
                         "scores order every (positive, negative) pair alike, or each model's placements are "
                         "constant within a class): DeLong's test is undefined")
    standard_error = math.sqrt(variance)
    z = difference / standard_error
    margin = float(stats.norm.ppf((1 + confidence) / 2)) * standard_error
    return DeLongTest(auc_a, auc_b, difference, standard_error, z, float(2 * stats.norm.sf(abs(z))),
                      difference - margin, difference + margin)


def paired_bootstrap_auc_difference(y_true, score_a, score_b, pos_label=1, n_rounds: int = 1000,
                                    confidence: float = 0.95, random_state=None, metric=None) -> dict:
    """A paired, stratified percentile bootstrap of ``metric(a) - metric(b)`` on the same samples.

    Each round resamples the positives and the negatives separately with
    replacement, *the same rows for both models*, and computes both metrics.
    ``metric`` is ``None`` (the ROC AUC by ranks) or a function
    ``metric(is_positive, scores) -> float`` of a boolean label array and one
    model's scores, for instance ``lambda y, s: roc_auc_score(y, s, max_fpr=0.1)``
    (partial AUC), :func:`recall_at_fpr` with ``functools.partial`` or
    ``sklearn.metrics.average_precision_score``. Returns ``difference`` (on the data as given), ``low`` and ``high``
    (percentile interval), ``standard_error`` (SD of the resampled differences),
    ``p_value`` (twice the smaller share of resampled differences on either side
    of 0, at most 1: a rough two-sided bootstrap p-value) and ``differences``.
    """
    is_positive, a, b = _check_paired_scores(y_true, score_a, score_b, pos_label)
    n_rounds = check_int(n_rounds, "n_rounds", 2)
    confidence = check_probability(confidence, "confidence")
    _check_class_sizes(is_positive, "a stratified bootstrap cannot vary a class this small")
    if metric is None:
        def metric(labels, scores):
            return auc_rank(labels, scores, pos_label=True)
    elif not callable(metric):
        raise ValueError(f"metric must be None or a function metric(is_positive, scores) -> float; got {metric!r}")
    difference = _metric_value(metric, is_positive, a) - _metric_value(metric, is_positive, b)
    rng = np.random.default_rng(random_state)
    positives, negatives = np.flatnonzero(is_positive), np.flatnonzero(~is_positive)
    labels = np.repeat([True, False], [positives.size, negatives.size])
    differences = np.empty(n_rounds)
    for i in range(n_rounds):
        rows = np.concatenate([rng.choice(positives, positives.size), rng.choice(negatives, negatives.size)])
        differences[i] = _metric_value(metric, labels, a[rows]) - _metric_value(metric, labels, b[rows])
    low, high = np.quantile(differences, [(1 - confidence) / 2, (1 + confidence) / 2])
    p_value = min(1.0, 2 * min(np.mean(differences <= 0), np.mean(differences >= 0)))
    return {"difference": difference,
            "low": float(low), "high": float(high), "standard_error": float(differences.std(ddof=1)),
            "p_value": float(p_value), "differences": differences, "n_rounds": n_rounds}


def _metric_value(metric, labels: np.ndarray, scores: np.ndarray) -> float:
    value = metric(labels, scores)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not np.isfinite(value):
        raise ValueError(f"metric must return a finite number; got {value!r}")
    return float(value)


def recall_at_fpr(y_true, y_score, max_fpr: float, pos_label=1) -> float:
    """The highest recall (TPR) of any threshold whose false-positive rate is at most ``max_fpr``."""
    max_fpr = check_probability(max_fpr, "max_fpr")
    _, tp, fp = roc_counts(y_true, y_score, pos_label)
    return float(tp[fp / fp[-1] <= max_fpr].max() / tp[-1])


# --------------------------------------------------------------------------- the threshold slider (notebook 02)
class ThresholdSweep(NamedTuple):
    """The counts of a ``roc_table`` as arrays (``helpers.roc.roc_counts``), computed once per data set."""

    thresholds: np.ndarray  # decreasing, thresholds[0] = inf
    tp: np.ndarray
    fp: np.ndarray
    positives: int
    negatives: int

    @classmethod
    def from_scores(cls, y_true, y_score, pos_label=1) -> "ThresholdSweep":
        thresholds, tp, fp = roc_counts(y_true, y_score, pos_label)
        return cls(thresholds, tp, fp, int(tp[-1]), int(fp[-1]))


def check_threshold_inputs(threshold, cost_fp, cost_fn) -> tuple[float, float, float]:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.number)) or np.isnan(threshold):
        raise ValueError(f"threshold must be a number; got {threshold!r}")
    for name, cost in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if isinstance(cost, bool) or not isinstance(cost, (int, float, np.number)) \
                or not np.isfinite(cost) or cost < 0:
            raise ValueError(f"{name} must be a finite number >= 0; got {cost!r}")
    if cost_fp == 0 and cost_fn == 0:
        raise ValueError("cost_fp and cost_fn are both 0: every threshold would cost nothing")
    return float(threshold), float(cost_fp), float(cost_fn)


def _sweep_point(sweep: ThresholdSweep, k: int) -> dict:
    """Threshold and ROC / PR coordinates of row ``k`` of the sweep."""
    tp, fp = int(sweep.tp[k]), int(sweep.fp[k])
    return {"threshold": float(sweep.thresholds[k]), "tpr": tp / sweep.positives,
            "fpr": fp / sweep.negatives, "precision": ratio(tp, tp + fp)}


def sweep_state(sweep: ThresholdSweep, threshold, cost_fp=1.0, cost_fn=1.0) -> dict:
    """``threshold_state`` on a precomputed sweep (what the slider calls)."""
    threshold, cost_fp, cost_fn = check_threshold_inputs(threshold, cost_fp, cost_fn)
    # The last row whose threshold is >= the chosen one: its counts are those of score >= threshold.
    k = int(np.searchsorted(-sweep.thresholds, -threshold, side="right")) - 1
    tp, fp = int(sweep.tp[k]), int(sweep.fp[k])
    fn, tn = sweep.positives - tp, sweep.negatives - fp
    n = sweep.positives + sweep.negatives
    metrics = binary_metrics(tp, fp, fn, tn)
    costs = cost_fp * sweep.fp + cost_fn * (sweep.positives - sweep.tp)
    youden = sweep.tp / sweep.positives - sweep.fp / sweep.negatives
    best_cost, best_j = int(np.argmin(costs)), int(np.argmax(youden))  # first = highest threshold
    total_cost = cost_fp * fp + cost_fn * fn
    return {
        "threshold": threshold, "cost_fp": cost_fp, "cost_fn": cost_fn,
        "tp": tp, "fp": fp, "tn": tn, "fn": fn,
        **{name: metrics[name] for name in ("precision", "recall", "specificity", "f1", "accuracy")},
        "tpr": metrics["recall"], "fpr": metrics["fpr"],
        "youden_j": metrics["recall"] - metrics["fpr"],
        "total_cost": total_cost, "expected_cost": total_cost / n,
        "cost_optimal": {**_sweep_point(sweep, best_cost), "total_cost": float(costs[best_cost]),
                         "expected_cost": float(costs[best_cost]) / n},
        "youden": {**_sweep_point(sweep, best_j), "youden_j": float(youden[best_j])},
    }


def threshold_state(y_true, y_score, threshold, cost_fp=1.0, cost_fn=1.0, pos_label=1) -> dict:
    """Every number the threshold slider shows, for one threshold and two unit costs.

    A sample is predicted positive when ``score >= threshold``. Returns the
    counts ``tp, fp, tn, fn``; ``precision`` (``nan`` when nothing is predicted
    positive), ``recall`` (= ``tpr``), ``specificity``, ``f1``, ``accuracy``,
    ``fpr`` and ``youden_j = tpr - fpr``; ``total_cost = cost_fp * FP + cost_fn * FN``
    on the whole set and ``expected_cost`` = total_cost / n, the average cost per
    sample. ``cost_optimal`` and ``youden`` describe the thresholds (among
    ``inf`` and the distinct scores) of least total cost and of largest
    ``tpr - fpr``, the highest one on ties: ``threshold, tpr, fpr, precision``
    plus their ``total_cost, expected_cost`` or ``youden_j``.
    """
    return sweep_state(ThresholdSweep.from_scores(y_true, y_score, pos_label), threshold, cost_fp, cost_fn)


def describe_threshold_state(state: dict) -> str:
    """The slider's metrics as text, one quantity per line."""
    best, youden = state["cost_optimal"], state["youden"]
    return "\n".join([
        f"threshold     {state['threshold']:.3f}",
        f"TP {state['tp']}  FP {state['fp']}  FN {state['fn']}  TN {state['tn']}",
        f"precision     {state['precision']:.3f}",
        f"recall (TPR)  {state['recall']:.3f}",
        f"specificity   {state['specificity']:.3f}",
        f"F1            {state['f1']:.3f}",
        f"accuracy      {state['accuracy']:.3f}",
        f"cost          {state['cost_fp']:g} x FP + {state['cost_fn']:g} x FN",
        f"total cost    {state['total_cost']:.1f}",
        f"expected cost {state['expected_cost']:.3f} per sample",
        f"cost-optimal  t = {best['threshold']:.3f} (total {best['total_cost']:.1f})",
        f"Youden J max  t = {youden['threshold']:.3f} (J = {youden['youden_j']:.3f})",
    ])
