"""Calibration by hand (notebooks 02 and 04): are a model's scores probabilities?

- :func:`reliability_table`: the reliability diagram as a table (bins, counts, mean
  predicted probability, observed frequency of the positive class); its two
  columns equal ``sklearn.calibration.calibration_curve`` on the same bins;
- :func:`brier_decomposition`: Murphy's reliability - resolution + uncertainty,
  plus the within-bin term that makes it add up to the Brier score exactly;
- :func:`expected_calibration_error`: the count-weighted mean gap |observed - predicted|;
- :func:`corp_decomposition`: a decomposition without bins (Dimitriadis, Gneiting & Jordan, 2021):
  the Brier score = miscalibration - discrimination + uncertainty, from isotonic recalibration;
- :func:`undersampling_correction`: Dal Pozzolo et al.'s (2015) prior-shift
  correction of probabilities learnt after random under-sampling of the majority.

Bad input raises ``ValueError`` naming the problem (through ``helpers.validation``);
inputs are never modified.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.isotonic import IsotonicRegression

from helpers.validation import as_1d, check_int, check_real, finite_floats, unit_probabilities

STRATEGIES = ("uniform", "quantile")

__all__ = ["STRATEGIES", "check_probabilities", "bin_edges", "reliability_table", "brier_decomposition",
           "expected_calibration_error", "corp_decomposition", "undersampling_correction"]


# --------------------------------------------------------------------------- checks
def check_probabilities(y_true, y_prob, pos_label=1) -> tuple[np.ndarray, np.ndarray]:
    """Binary labels and predicted probabilities of the positive class; ``(is_positive, y_prob)`` as new arrays.

    Raises ``ValueError`` for different lengths, an empty input, NaN, infinite
    values or values outside [0, 1] in ``y_prob``, one class only, more than two
    classes, or a ``pos_label`` that is not one of the labels.
    """
    labels = as_1d(y_true, "y_true")
    prob = unit_probabilities(y_prob, "y_prob")
    if labels.shape[0] != prob.shape[0]:
        raise ValueError(f"y_true and y_prob have different lengths: {labels.shape[0]} and {prob.shape[0]}")
    classes = pd.unique(labels).tolist()
    if len(classes) != 2:
        raise ValueError(f"y_true must hold two classes; got {len(classes)}: {sorted(map(str, classes))}")
    if pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not a label of y_true; it holds {sorted(map(str, classes))}")
    return labels == pos_label, prob


def _check_strategy(strategy) -> str:
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be 'uniform' or 'quantile'; got {strategy!r}")
    return strategy


# --------------------------------------------------------------------------- the reliability table
def bin_edges(y_prob, n_bins: int = 10, strategy: str = "uniform") -> np.ndarray:
    """The ``n_bins + 1`` bin edges ``calibration_curve`` uses.

    ``"uniform"``: equal widths on [0, 1]; ``"quantile"``: the quantiles of
    ``y_prob``, so that the bins hold about equally many samples (ties can make
    two edges equal, and the bin between them empty).
    """
    n_bins = check_int(n_bins, "n_bins", 1)
    strategy = _check_strategy(strategy)
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    prob = finite_floats(y_prob, "y_prob")
    return np.percentile(prob, np.linspace(0, 1, n_bins + 1) * 100)


def reliability_table(y_true, y_prob, n_bins: int = 10, strategy: str = "uniform", pos_label=1) -> pd.DataFrame:
    """One row per non-empty bin: its edges, count, positives, mean predicted probability, observed frequency.

    A sample goes to bin ``i`` when ``edges[i] < p <= edges[i + 1]`` (the first bin
    also takes ``p = edges[0]``), as ``calibration_curve`` does; empty bins are
    left out, as there. ``gap`` is observed frequency - mean predicted
    probability: positive where the model under-predicts the positive class in
    that bin, negative where it over-predicts it. (Over- and under-confidence
    name the shape of the whole curve: over-confident is too low in the low
    bins and too high in the high ones.)
    """
    return _binned(*check_probabilities(y_true, y_prob, pos_label), n_bins, strategy)[0]


def _binned(is_positive: np.ndarray, prob: np.ndarray, n_bins, strategy) -> tuple[pd.DataFrame, np.ndarray]:
    """The reliability table of checked inputs and each sample's bin (the table's index)."""
    edges = bin_edges(prob, n_bins, strategy)
    # the index of the first inner edge >= p (searchsorted's default side, "left"): a value on an edge
    # goes to the bin below it
    bin_of = np.searchsorted(edges[1:-1], prob)
    count = np.bincount(bin_of)  # up to the last non-empty bin; the empty ones are dropped next
    positives = np.bincount(bin_of, weights=is_positive)
    prob_sum = np.bincount(bin_of, weights=prob)
    kept = np.flatnonzero(count)
    table = pd.DataFrame({
        "bin": kept,
        "lower": edges[kept],
        "upper": edges[kept + 1],
        "count": count[kept],
        "positives": positives[kept].astype(int),
        "mean_predicted": prob_sum[kept] / count[kept],
        "observed_frequency": positives[kept] / count[kept],
    })
    table["gap"] = table["observed_frequency"] - table["mean_predicted"]
    return table.set_index("bin"), bin_of


# --------------------------------------------------------------------------- summaries
def expected_calibration_error(y_true, y_prob, n_bins: int = 10, strategy: str = "uniform", pos_label=1) -> float:
    """ECE: the mean of |observed frequency - mean predicted probability| over the bins, weighted by their counts."""
    table = reliability_table(y_true, y_prob, n_bins, strategy, pos_label)
    return float(np.sum(table["count"] * table["gap"].abs()) / table["count"].sum())


def brier_decomposition(y_true, y_prob, n_bins: int = 10, strategy: str = "uniform", pos_label=1) -> dict:
    """Murphy's decomposition of the Brier score on the bins of :func:`reliability_table`.

    With ``n`` samples, ``n_k`` in bin ``k``, mean prediction ``p_k``, observed
    frequency ``o_k`` and overall frequency ``o``:

    - ``reliability`` = sum n_k (p_k - o_k)^2 / n (0 is perfectly calibrated; lower is better);
    - ``resolution`` = sum n_k (o_k - o)^2 / n (how far the bins' frequencies move from the base rate;
      higher is better);
    - ``uncertainty`` = o (1 - o) (the Brier score of always predicting the base rate; the data's, not the model's);
    - ``within_bin`` = ``within_bin_variance`` - ``within_bin_covariance``: Murphy's formula replaces each
      prediction by its bin's mean; what that replacement loses is the spread of the predictions inside
      each bin, sum (p_i - p_k)^2 / n, minus twice their covariance with the outcomes inside the bin,
      2 sum (p_i - p_k)(y_i - o_k) / n (Stephenson et al., 2008). It is 0 when every bin holds one value.

    ``brier`` = reliability - resolution + uncertainty + within_bin, exactly (up to rounding).
    """
    is_positive, prob = check_probabilities(y_true, y_prob, pos_label)
    outcome = np.where(is_positive, 1.0, 0.0)
    table, bin_of = _binned(is_positive, prob, n_bins, strategy)
    n = prob.shape[0]
    base_rate = outcome.mean()
    p_bin = table["mean_predicted"].reindex(bin_of).to_numpy()
    o_bin = table["observed_frequency"].reindex(bin_of).to_numpy()
    counts = table["count"].to_numpy()
    reliability = float(np.sum(counts * table["gap"].to_numpy() ** 2) / n)
    resolution = float(np.sum(counts * (table["observed_frequency"].to_numpy() - base_rate) ** 2) / n)
    uncertainty = float(base_rate * (1 - base_rate))
    variance = float(np.sum((prob - p_bin) ** 2) / n)
    covariance = float(2 * np.sum((prob - p_bin) * (outcome - o_bin)) / n)
    return {"brier": float(np.mean((prob - outcome) ** 2)), "reliability": reliability, "resolution": resolution,
            "uncertainty": uncertainty, "within_bin": variance - covariance,
            "within_bin_variance": variance, "within_bin_covariance": covariance}


def corp_decomposition(y_true, y_prob, pos_label=1) -> dict:
    """The CORP decomposition of the Brier score (Dimitriadis, Gneiting & Jordan, PNAS 2021), with no bins.

    The isotonic regression of the outcomes on the predictions (pool adjacent
    violators: the best non-decreasing recalibration of these very scores)
    stands in for the bins. With ``BS(q)`` the Brier score of predictions ``q``:

    - ``miscalibration`` (MCB) = BS(p) - BS(iso(p)): what recalibrating the scores would gain (0 = calibrated);
    - ``discrimination`` (DSC) = uncertainty - BS(iso(p)): what the recalibrated scores gain over the base rate;
    - ``uncertainty`` = o (1 - o), as in :func:`brier_decomposition`.

    ``brier`` = miscalibration - discrimination + uncertainty, exactly.
    """
    is_positive, prob = check_probabilities(y_true, y_prob, pos_label)
    outcome = np.where(is_positive, 1.0, 0.0)
    recalibrated = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True).fit_transform(prob, outcome)
    brier, brier_recalibrated = float(np.mean((prob - outcome) ** 2)), float(np.mean((recalibrated - outcome) ** 2))
    uncertainty = float(outcome.mean() * (1 - outcome.mean()))
    return {"brier": brier, "miscalibration": brier - brier_recalibrated,
            "discrimination": uncertainty - brier_recalibrated, "uncertainty": uncertainty}


# --------------------------------------------------------------------------- prior shift
def undersampling_correction(prob_sampled, beta) -> np.ndarray:
    """Dal Pozzolo et al. (2015): probabilities of a model trained after under-sampling, corrected to the true prior.

    ``beta`` is the fraction of the majority (negative) class kept by the
    under-sampler, P(kept | negative), in (0, 1]; every positive is kept. The
    model learnt ``p_s`` = P(positive | x, kept); the probability on the original
    data is ``p = beta p_s / (beta p_s - p_s + 1)``. It is monotone in ``p_s``:
    the ranking (and the ROC AUC) does not change, only the probabilities.
    Returns a new float array.
    """
    p_s = unit_probabilities(prob_sampled, "prob_sampled")
    beta = check_real(beta, "beta", 0.0, strict=True)
    if beta > 1:
        raise ValueError(f"beta is the fraction of the majority class kept: it must be in (0, 1]; got {beta!r}")
    return beta * p_s / (beta * p_s + (1 - p_s))  # the same denominator, exact at p_s = 1
