"""Cross-validation helpers (notebook 03).

- :func:`bootstrap_oob_shares`: the out-of-bag share of bootstrap samples, by simulation;
- :func:`cv_spread_state`: how a repeated k-fold estimate spreads for one k (the
  k slider's pure function);
- :func:`corrected_resampled_ttest`: Nadeau and Bengio's corrected resampled
  t-test of two models' paired fold scores, with its confidence interval.

Bad input raises ``ValueError`` naming the problem; inputs are never modified.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

from helpers.validation import check_int, check_probability


# --------------------------------------------------------------------------- bootstrap
def bootstrap_oob_shares(n_samples: int, n_rounds: int = 1000, random_state=None) -> np.ndarray:
    """Share of the ``n_samples`` samples left out of each of ``n_rounds`` bootstrap samples.

    A bootstrap sample draws ``n_samples`` indices with replacement; the
    out-of-bag samples are those never drawn. Their expected share is
    ``(1 - 1/n) ** n``, which tends to ``1/e = 0.368``.
    """
    n_samples = check_int(n_samples, "n_samples", 1)
    n_rounds = check_int(n_rounds, "n_rounds", 1)
    rng = np.random.default_rng(random_state)
    shares = np.empty(n_rounds)
    for i in range(n_rounds):
        counts = np.bincount(rng.integers(0, n_samples, n_samples), minlength=n_samples)
        shares[i] = np.count_nonzero(counts == 0) / n_samples
    return shares


# --------------------------------------------------------------------------- spread against k
def cv_spread_state(estimator, X, y, k: int, n_repeats: int = 5, scoring="roc_auc",
                    random_state=0) -> dict:
    """Every number the k slider shows: repeated stratified k-fold scores for one ``k``.

    Runs ``RepeatedStratifiedKFold(n_splits=k, n_repeats=n_repeats)`` and returns
    the fold scores (one row per repeat), each repeat's estimate (the mean of its
    k folds), their mean and spread (standard deviation between repeats), the
    spread of single folds, the cost (number of fits, training-set size) and the
    measured fitting time in seconds (the only number that is not reproducible).
    """
    k = check_int(k, "k", 2)
    n_repeats = check_int(n_repeats, "n_repeats", 2)
    y_array = np.asarray(y)
    if y_array.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y_array.shape}")
    if len(X) != y_array.shape[0]:
        raise ValueError(f"X and y have different lengths: {len(X)} and {y_array.shape[0]}")
    classes, counts = np.unique(y_array, return_counts=True)
    if classes.size < 2:
        raise ValueError(f"y needs at least two classes; got only {classes.tolist()}")
    if k > counts.min():
        raise ValueError(f"k={k} is larger than the smallest class ({counts.min()} samples): "
                         f"every stratified fold needs a sample of each class")
    cv = RepeatedStratifiedKFold(n_splits=k, n_repeats=n_repeats, random_state=random_state)
    result = cross_validate(estimator, X, y, cv=cv, scoring=scoring, return_indices=True)
    scores = result["test_score"].reshape(n_repeats, k)
    estimates = scores.mean(axis=1)
    train_sizes = [len(train) for train in result["indices"]["train"]]
    return {
        "k": k,
        "n_repeats": n_repeats,
        "scores": scores,
        "estimates": estimates,
        "mean": float(estimates.mean()),
        "spread": float(estimates.std(ddof=1)),
        "fold_spread": float(scores.std(ddof=1)),
        "n_fits": k * n_repeats,
        "train_size": float(np.mean(train_sizes)),
        "fit_seconds": float(result["fit_time"].sum()),
    }


def describe_cv_spread_state(state: dict) -> str:
    """One line of text for a ``helpers.cv.cv_spread_state``."""
    return (f"k = {state['k']} | {state['n_repeats']} repeats x {state['k']} folds = {state['n_fits']} fits, "
            f"{state['train_size']:.0f} training rows each | estimate {state['mean']:.3f}, "
            f"spread between repeats {state['spread']:.3f}, spread of single folds {state['fold_spread']:.3f} | "
            f"fitting took {state['fit_seconds']:.2f} s")


# --------------------------------------------------------------------------- comparing two models
class CorrectedTTest(NamedTuple):
    """Result of :func:`corrected_resampled_ttest` (differences are a - b)."""

    mean_difference: float
    std_difference: float
    t: float
    df: int
    p_value: float
    ci_low: float
    ci_high: float


def corrected_resampled_ttest(scores_a, scores_b, n_train: int, n_test: int,
                              confidence: float = 0.95) -> CorrectedTTest:
    """Nadeau and Bengio's corrected resampled t-test on paired fold scores.

    With J paired differences d (same splits for both models) of mean m and
    sample variance s^2, the variance of m is inflated to account for the
    overlap of the training sets: ``t = m / sqrt((1/J + n_test/n_train) s^2)``,
    with J - 1 degrees of freedom. The interval is ``m +/- t_crit * sqrt(...)``.
    As ``n_test / n_train`` tends to 0 it becomes the ordinary paired t-test.
    """
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    for name, values in (("scores_a", a), ("scores_b", b)):
        if values.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional; got shape {values.shape}")
        if np.isnan(values).any():
            raise ValueError(f"{name} contains NaN")
    if a.size != b.size:
        raise ValueError(f"scores_a and scores_b have different lengths: {a.size} and {b.size}; "
                         f"they must be paired scores on the same splits")
    if a.size < 2:
        raise ValueError(f"at least two paired scores are needed; got {a.size}")
    n_train = check_int(n_train, "n_train", 1)
    n_test = check_int(n_test, "n_test", 1)
    confidence = check_probability(confidence, "confidence")
    differences = a - b
    j = differences.size
    mean = float(differences.mean())
    std = float(differences.std(ddof=1))
    if std == 0:
        raise ValueError("the paired differences are all equal (zero variance): the t statistic is undefined")
    standard_error = math.sqrt((1 / j + n_test / n_train)) * std
    t = mean / standard_error
    df = j - 1
    p_value = float(2 * stats.t.sf(abs(t), df))
    margin = float(stats.t.ppf((1 + confidence) / 2, df)) * standard_error
    return CorrectedTTest(mean, std, float(t), df, p_value, mean - margin, mean + margin)
