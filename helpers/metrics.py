"""Evaluation metrics computed by hand, to check against scikit-learn.

Conventions:
- a binary confusion matrix is ``(tp, fp, fn, tn)``;
- a ratio whose denominator is zero is ``nan`` (no warning), where
  scikit-learn would warn and return its ``zero_division`` value;
- bad input raises ``ValueError`` naming the problem, and inputs are never
  modified.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import make_scorer

from helpers.datasets import HIGH_PRECISION, HIGH_RECALL
from helpers.validation import as_1d, check_counts, check_int, check_pair, check_probability, divide, ratio

PER_CLASS_COLUMNS = ["recall", "precision", "f1", "specificity", "npv", "g_mean", "support"]


# --------------------------------------------------------------------------- binary
def confusion_counts(y_true, y_pred, pos_label=1) -> tuple[int, int, int, int]:
    """Count ``(tp, fp, fn, tn)`` of binary labels, ``pos_label`` being the positive class."""
    y_true, y_pred = check_pair(y_true, y_pred)
    present = pd.unique(np.concatenate([y_true, y_pred]).astype(object))
    if len(present) > 2:
        raise ValueError(
            f"confusion_counts needs binary labels; got {len(present)} classes: {sorted(map(str, present))}"
        )
    if pos_label not in set(present.tolist()) and len(present) == 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not a valid label: it should be one of {sorted(present.tolist(), key=str)}"
        )
    actual = y_true == pos_label
    predicted = y_pred == pos_label
    tp = int(np.count_nonzero(actual & predicted))
    fp = int(np.count_nonzero(~actual & predicted))
    fn = int(np.count_nonzero(actual & ~predicted))
    return tp, fp, fn, y_true.shape[0] - tp - fp - fn


def binary_metrics(tp, fp, fn, tn, beta: float = 1.0) -> dict[str, float]:
    """Every binary metric of the course from the four counts.

    F1 and F-beta use the count form ``(1+b^2)TP / ((1+b^2)TP + b^2 FN + FP)``,
    as scikit-learn does. A ratio with a zero denominator is ``nan``;
    ``mcc`` and ``kappa`` too (scikit-learn returns 0 there).
    """
    tp, fp, fn, tn = check_counts(tp, fp, fn, tn)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.number)) or not beta > 0 or not math.isfinite(beta):
        raise ValueError(f"beta must be a positive finite number; got {beta!r}")
    n = tp + fp + fn + tn
    pos, neg, pred_pos, pred_neg = tp + fn, fp + tn, tp + fp, fn + tn
    recall, specificity = ratio(tp, pos), ratio(tn, neg)
    b2 = float(beta) ** 2
    p_o = (tp + tn) / n
    p_e = (pos * pred_pos + neg * pred_neg) / n**2
    lr_plus = ratio(recall, 1 - specificity)
    lr_minus = ratio(1 - recall, specificity)
    return {
        "accuracy": p_o,
        "error_rate": (fp + fn) / n,
        "prevalence": pos / n,
        "recall": recall,
        "specificity": specificity,
        "precision": ratio(tp, pred_pos),
        "npv": ratio(tn, pred_neg),
        "fpr": ratio(fp, neg),
        "fnr": ratio(fn, pos),
        "fdr": ratio(fp, pred_pos),
        "f1": ratio(2 * tp, 2 * tp + fn + fp),
        "fbeta": ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
        "balanced_accuracy": (recall + specificity) / 2,
        "g_mean": math.sqrt(recall * specificity),
        "mcc": ratio(tp * tn - fp * fn, math.sqrt(float(pos) * neg * pred_pos * pred_neg)),
        "kappa": ratio(p_o - p_e, 1 - p_e),
        "lr_plus": lr_plus,
        "lr_minus": lr_minus,
        "dor": ratio(lr_plus, lr_minus),
    }


# --------------------------------------------------------------------------- multiclass
def _encode(y_true: np.ndarray, y_pred: np.ndarray, labels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer codes of both label arrays and the class list, in one pass where possible."""
    if labels is not None:
        classes = as_1d(labels, "labels")
        if len(pd.unique(classes.astype(object))) != classes.size:
            raise ValueError(f"labels contains duplicates: {classes.tolist()}")
        order = np.argsort(classes, kind="stable")
        sorted_classes = classes[order]
        codes = []
        for name, y in (("y_true", y_true), ("y_pred", y_pred)):
            position = np.clip(np.searchsorted(sorted_classes, y), 0, classes.size - 1)
            known = sorted_classes[position] == y
            if not known.all():
                raise ValueError(f"{name} contains labels not in labels: {sorted(set(y[~known].tolist()), key=str)}")
            codes.append(order[position])
        return codes[0], codes[1], classes
    if y_true.dtype.kind in "iub" and y_pred.dtype.kind in "iub":
        low = int(min(y_true.min(), y_pred.min()))
        span = int(max(y_true.max(), y_pred.max())) - low + 1
        if span <= 10_000:  # offset codes: no sort needed
            t, p = y_true.astype(np.int64) - low, y_pred.astype(np.int64) - low
            seen = np.flatnonzero(np.bincount(t, minlength=span) + np.bincount(p, minlength=span))
            remap = np.zeros(span, dtype=np.int64)
            remap[seen] = np.arange(seen.size)
            return remap[t], remap[p], (seen + low).astype(np.result_type(y_true, y_pred))
    classes, codes = np.unique(np.concatenate([y_true, y_pred]), return_inverse=True)
    return codes[: y_true.size], codes[y_true.size :], classes


def _check_label_types(**arrays) -> None:
    """Refuse labels that mix strings with numbers: they cannot be sorted into one class list."""
    kinds = {}
    for name, values in arrays.items():
        if values.dtype.kind == "O":
            for value in values:
                kinds.setdefault("str" if isinstance(value, str) else "number", name)
        else:
            kinds.setdefault("str" if values.dtype.kind in "US" else "number", name)
    if len(kinds) > 1:
        raise ValueError(f"labels mix strings and numbers ({kinds['str']} holds strings, {kinds['number']} "
                         "numbers); use one type for every label")


def multiclass_confusion(y_true, y_pred, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Confusion matrix (rows actual, columns predicted) and its class labels, by one bincount."""
    y_true, y_pred = check_pair(y_true, y_pred)
    _check_label_types(y_true=y_true, y_pred=y_pred, **({} if labels is None else {"labels": np.asarray(labels)}))
    t, p, classes = _encode(y_true, y_pred, labels)
    k = classes.size
    matrix = np.bincount(t * k + p, minlength=k * k).reshape(k, k)
    return matrix, classes


def _rates(tp, fp, fn, tn) -> dict[str, np.ndarray]:
    recall, specificity = divide(tp, tp + fn), divide(tn, tn + fp)
    return {
        "recall": recall,
        "precision": divide(tp, tp + fp),
        "f1": divide(2 * tp, 2 * tp + fp + fn),
        "specificity": specificity,
        "npv": divide(tn, tn + fn),
        "g_mean": np.sqrt(recall * specificity),
    }


def _nan_average(values: np.ndarray, weights: np.ndarray) -> float:
    keep = ~np.isnan(values) & (weights > 0)
    return float(np.average(values[keep], weights=weights[keep])) if keep.any() else math.nan


def per_class_metrics(y_true, y_pred, labels=None) -> pd.DataFrame:
    """One row per class (one-vs-rest) plus ``micro``, ``macro`` and ``weighted`` rows.

    Columns: recall, precision, f1, specificity, npv, g_mean, support.
    ``macro`` is the plain mean of the per-class values, ``weighted`` their
    support-weighted mean (each metric weights its own values and divides by
    the number of samples), ``micro`` the metric of the pooled counts. A
    per-class value with a zero denominator is ``nan`` and left out of the
    averages, like scikit-learn's ``zero_division=np.nan``. One difference:
    when every class that has actual samples has an undefined value (say the
    only class in ``y_true`` is never predicted, so its precision is 0/0), the
    ``weighted`` average has nothing left to weight and is ``nan`` here, while
    scikit-learn's ``precision_score(..., average="weighted",
    zero_division=np.nan)`` returns 0.

    Labels may be numbers, strings or booleans, but not a mix of numbers and
    strings (``ValueError``).
    """
    matrix, classes = multiclass_confusion(y_true, y_pred, labels)
    if classes.size < 2:
        raise ValueError(f"per_class_metrics needs at least two classes; got only {classes.tolist()}")
    tp = np.diag(matrix)
    support = matrix.sum(axis=1)
    fp, fn = matrix.sum(axis=0) - tp, support - tp
    tn = matrix.sum() - tp - fp - fn
    per_class = _rates(tp, fp, fn, tn)
    pooled = _rates(tp.sum(), fp.sum(), fn.sum(), tn.sum())
    table = pd.DataFrame(per_class, index=pd.Index(classes.tolist(), dtype=object))
    ones = np.ones(classes.size)
    table.loc["micro"] = {name: float(value) for name, value in pooled.items()}
    table.loc["macro"] = {name: _nan_average(values, ones) for name, values in per_class.items()}
    table.loc["weighted"] = {name: _nan_average(values, support) for name, values in per_class.items()}
    table["support"] = np.append(support, [support.sum()] * 3).astype(int)
    return table[PER_CLASS_COLUMNS]


def kappa_by_hand(cm) -> dict:
    """Cohen's kappa from a confusion matrix, with its parts.

    ``p_o`` is the observed agreement (diagonal share), ``p_i`` the chance
    agreement per class (row share times column share), ``p_e`` their sum and
    ``kappa = (p_o - p_e) / (1 - p_e)`` (``nan`` when ``p_e = 1``).
    """
    matrix = np.asarray(cm, dtype=float)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"cm must be a square matrix; got shape {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ValueError("cm contains NaN or infinite values")
    if (matrix < 0).any():
        raise ValueError("cm contains negative counts")
    n = matrix.sum()
    if n == 0:
        raise ValueError("cm is empty: its counts add up to 0")
    p_i = matrix.sum(axis=1) * matrix.sum(axis=0) / n**2
    p_o, p_e = float(np.trace(matrix) / n), float(p_i.sum())
    return {"p_o": p_o, "p_i": p_i, "p_e": p_e, "kappa": ratio(p_o - p_e, 1 - p_e)}


# --------------------------------------------------------------------------- regression
def _check_regression(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    y_true, y_pred = check_pair(y_true, y_pred)
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        if y.dtype.kind not in "iuf":
            raise ValueError(f"{name} must be numeric; got dtype {y.dtype}")
        if not np.isfinite(y).all():
            raise ValueError(f"{name} contains NaN or infinite values")
    return y_true.astype(float), y_pred.astype(float)


def regression_metrics(y_true, y_pred) -> dict[str, float]:
    """MAE, MSE, RMSE, MAPE, R^2, RMSLE, RAE and RRSE by their formulas.

    ``mape`` is a fraction like scikit-learn's (x 100 for percent; a zero
    target is replaced by machine epsilon as scikit-learn does). ``r2``,
    ``rae`` and ``rrse`` compare with the mean predictor (``nan`` when
    ``y_true`` is constant); ``r2`` is negative when the model is worse than
    that. ``rmsle`` is ``nan`` when a value is <= -1.
    """
    y_true, y_pred = _check_regression(y_true, y_pred)
    error = y_true - y_pred
    # a constant target has SST = 0 exactly; its mean can be off by a rounding error
    deviation = y_true - y_true.mean() if np.ptp(y_true) > 0 else np.zeros_like(y_true)
    sse, sst = float(np.sum(error**2)), float(np.sum(deviation**2))
    mse = sse / y_true.size
    logs_defined = (y_true > -1).all() and (y_pred > -1).all()
    msle = float(np.mean((np.log1p(y_true) - np.log1p(y_pred)) ** 2)) if logs_defined else math.nan
    epsilon = np.finfo(np.float64).eps
    return {
        "mae": float(np.mean(np.abs(error))),
        "mse": mse,
        "rmse": math.sqrt(mse),
        "mape": float(np.mean(np.abs(error) / np.maximum(np.abs(y_true), epsilon))),
        "r2": 1 - ratio(sse, sst),
        "rmsle": math.sqrt(msle),
        "rae": ratio(float(np.sum(np.abs(error))), float(np.sum(np.abs(deviation)))),
        "rrse": math.sqrt(ratio(sse, sst)),
    }


def asymmetric_cost(y_true, y_pred, cost_over: float = 1.0, cost_under: float = 1.0) -> dict[str, float]:
    """Cost of regression errors when over- and under-predicting cost differently.

    Each unit of over-prediction (``y_pred > y_true``) costs ``cost_over``, each
    unit of under-prediction ``cost_under`` (a linear, "pinball"-like cost).
    Returns ``mean_cost`` per sample and the mean size of the over- and
    under-predictions (``over``, ``under``: both 0 when there are none), whose
    sum is the MAE.
    """
    y_true, y_pred = _check_regression(y_true, y_pred)
    for name, cost in (("cost_over", cost_over), ("cost_under", cost_under)):
        if isinstance(cost, bool) or not isinstance(cost, (int, float, np.number)) or not math.isfinite(cost) \
                or cost < 0:
            raise ValueError(f"{name} must be a finite number >= 0; got {cost!r}")
    over = np.clip(y_pred - y_true, 0, None)
    under = np.clip(y_true - y_pred, 0, None)
    return {"mean_cost": float(np.mean(cost_over * over + cost_under * under)),
            "over": float(over.mean()), "under": float(under.mean())}


# --------------------------------------------------------------------------- scorers
def specificity_score(y_true, y_pred, pos_label=1) -> float:
    """True-negative rate TN / (TN + FP); ``nan`` when there is no actual negative."""
    tp, fp, fn, tn = confusion_counts(y_true, y_pred, pos_label)
    return ratio(tn, tn + fp)


def npv_score(y_true, y_pred, pos_label=1) -> float:
    """Negative predictive value TN / (TN + FN); ``nan`` when nothing is predicted negative."""
    tp, fp, fn, tn = confusion_counts(y_true, y_pred, pos_label)
    return ratio(tn, tn + fn)


# Scorer objects for cross_validate(scoring=...) and GridSearchCV. For another
# positive class use make_scorer(specificity_score, pos_label=...).
specificity_scorer = make_scorer(specificity_score)
npv_scorer = make_scorer(npv_score)


# --------------------------------------------------------------------------- the F-beta slider (notebook 01)
FBETA_NAMES = ("A (high recall)", "B (high precision)")


def ranking_flip_beta(counts_a, counts_b) -> float:
    """The beta at which two classifiers' F-beta are equal (``nan`` if never).

    From (1+s)TP_a / ((1+s)TP_a + s FN_a + FP_a) = the same for b, with s = beta^2:
    s = (TP_b FP_a - TP_a FP_b) / (TP_a FN_b - TP_b FN_a).
    """
    tp_a, fp_a, fn_a, _ = counts_a
    tp_b, fp_b, fn_b, _ = counts_b
    numerator, denominator = tp_b * fp_a - tp_a * fp_b, tp_a * fn_b - tp_b * fn_a
    if denominator == 0 or numerator / denominator <= 0:
        return math.nan
    return math.sqrt(numerator / denominator)


def fbeta_state(beta: float, counts_a=HIGH_RECALL, counts_b=HIGH_PRECISION, names=FBETA_NAMES) -> dict:
    """Every number the F-beta slider shows for one beta."""
    rows = {name: binary_metrics(*counts, beta=beta) for name, counts in zip(names, (counts_a, counts_b))}
    scores = {name: m["fbeta"] for name, m in rows.items()}
    first, second = names
    tied = math.isclose(scores[first], scores[second], rel_tol=1e-9)
    leader = "tie" if tied else max(scores, key=scores.get)
    return {
        "beta": float(beta),
        "fbeta": scores,
        "recall": {name: m["recall"] for name, m in rows.items()},
        "precision": {name: m["precision"] for name, m in rows.items()},
        "leader": leader,
        "flip_beta": ranking_flip_beta(counts_a, counts_b),
    }


def describe_fbeta_state(state: dict) -> str:
    """One line of text for an ``fbeta_state``."""
    scores = ", ".join(f"{name}: {value:.3f}" for name, value in state["fbeta"].items())
    return (f"beta = {state['beta']:.2f} | F-beta {scores} | ranks first: {state['leader']} | "
            f"the ranking flips at beta = {state['flip_beta']:.3f}")


# --------------------------------------------------------------------------- uncertainty (notebook 01)
class ProportionInterval(NamedTuple):
    """A proportion ``successes / trials`` with a confidence interval for it."""

    estimate: float
    low: float
    high: float
    successes: int
    trials: int
    method: str
    confidence: float


PROPORTION_METHODS = ("wilson", "clopper-pearson")


def proportion_interval(successes, trials, confidence: float = 0.95, method: str = "wilson") -> ProportionInterval:
    """A confidence interval for a proportion such as recall ``TP / (TP + FN)``, by its formula.

    ``method="wilson"`` inverts the normal (score) test: with ``p = k / n`` and
    ``z`` the ``(1 + confidence) / 2`` normal quantile, the interval is
    ``(p + z^2 / 2n +/- z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)``.
    ``method="clopper-pearson"`` ("exact") inverts the binomial test: the
    ``(1 - confidence) / 2`` quantile of Beta(k, n - k + 1) and the
    ``(1 + confidence) / 2`` quantile of Beta(k + 1, n - k), with 0 when k = 0
    and 1 when k = n. Both equal ``scipy.stats.binomtest(k, n).proportion_ci``
    with ``method="wilson"`` / ``"exact"``; Clopper-Pearson is conservative (it
    covers at least ``confidence``), Wilson is close to ``confidence`` on average.
    """
    successes = check_int(successes, "successes", 0)
    trials = check_int(trials, "trials", 1)
    if successes > trials:
        raise ValueError(f"successes must be at most trials; got {successes} successes in {trials} trials")
    confidence = check_probability(confidence, "confidence")
    if method not in PROPORTION_METHODS:
        raise ValueError(f"method must be one of {PROPORTION_METHODS}; got {method!r}")
    k, n = successes, trials
    p = k / n
    alpha = 1 - confidence
    if method == "wilson":
        z = float(stats.norm.ppf(1 - alpha / 2))
        centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
        half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
        # exactly 0 at k = 0 and 1 at k = n (the formula gives them up to a rounding error)
        low = 0.0 if k == 0 else centre - half
        high = 1.0 if k == n else centre + half
    else:
        low = float(stats.beta.ppf(alpha / 2, k, n - k + 1)) if k > 0 else 0.0
        high = float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k)) if k < n else 1.0
    return ProportionInterval(p, low, high, k, n, method, confidence)


class McNemarTest(NamedTuple):
    """Result of :func:`mcnemar_test`: the discordant counts and the exact two-sided p-value."""

    only_a_right: int
    only_b_right: int
    both_right: int
    both_wrong: int
    accuracy_difference: float  # accuracy of a minus accuracy of b = (only_a_right - only_b_right) / n
    p_value: float


def mcnemar_test(y_true, y_pred_a, y_pred_b) -> McNemarTest:
    """McNemar's exact test: do two classifiers' labels on the same samples differ in accuracy?

    Only the discordant samples carry information: ``b`` = a right and b wrong,
    ``c`` = a wrong and b right. Under the null hypothesis (equal accuracy) each
    discordant sample is a fair coin, so ``b ~ Binomial(b + c, 1/2)`` and the
    two-sided p-value is ``min(1, 2 P(X <= min(b, c)))`` (1 when ``b + c = 0``),
    which equals ``scipy.stats.binomtest(b, b + c).pvalue``.
    """
    y_true, y_pred_a = check_pair(y_true, y_pred_a, ("y_true", "y_pred_a"))
    _, y_pred_b = check_pair(y_true, y_pred_b, ("y_true", "y_pred_b"))
    right_a, right_b = y_pred_a == y_true, y_pred_b == y_true
    b = int(np.count_nonzero(right_a & ~right_b))
    c = int(np.count_nonzero(~right_a & right_b))
    both_right = int(np.count_nonzero(right_a & right_b))
    both_wrong = y_true.size - b - c - both_right
    p_value = min(1.0, 2 * float(stats.binom.cdf(min(b, c), b + c, 0.5)))  # b + c = 0: 2 P(X <= 0) = 2, capped
    return McNemarTest(b, c, both_right, both_wrong, (b - c) / y_true.size, p_value)


def predictive_values_at_prevalence(recall, specificity, prevalence) -> dict[str, float]:
    """Precision (PPV) and NPV of a test with this recall and specificity at another prevalence.

    Recall and specificity are rates within a class, so they do not depend on
    how common the positives are; precision and NPV do. By Bayes' rule,
    post-test odds = pre-test odds x LR: ``precision = r pi / (r pi + (1 - s)(1 - pi))``
    and ``npv = s (1 - pi) / (s (1 - pi) + (1 - r) pi)`` (``nan`` for 0 / 0).
    """
    values = {}
    for name, value in (("recall", recall), ("specificity", specificity), ("prevalence", prevalence)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not 0 <= value <= 1:
            raise ValueError(f"{name} must be a number in [0, 1]; got {value!r}")
        values[name] = float(value)
    r, s, pi = values["recall"], values["specificity"], values["prevalence"]
    return {"precision": ratio(r * pi, r * pi + (1 - s) * (1 - pi)),
            "npv": ratio(s * (1 - pi), s * (1 - pi) + (1 - r) * pi)}
