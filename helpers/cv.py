"""Cross-validation helpers (notebook 03).

- :func:`rank_scorer`: scikit-learn's scorer, with ROC AUC computed by ranks (the same
  number, faster for the hundreds of small fits below);
- :func:`bootstrap_oob_shares`: the out-of-bag share of bootstrap samples, by simulation;
- :func:`cv_spread_state`: how a repeated k-fold estimate spreads for one k (the
  k slider's pure function);
- :func:`estimates_over_datasets`: the k-fold estimate on several disjoint data sets,
  to measure its variance over data sets (not over reshuffles); :func:`fold_scores_over_datasets`
  keeps the fold scores and :func:`fold_t_intervals` builds the textbook mean +/- t SD / sqrt(k)
  interval from them, to check its coverage;
- :func:`efron_632` and :func:`bootstrap_632`: the out-of-bag estimate and Efron's
  .632 estimator; :func:`optimism_bootstrap`: Harrell's optimism-corrected bootstrap;
- :func:`pooled_and_averaged_auc`: one AUC of the pooled out-of-fold scores vs the
  mean of the per-fold AUCs;
- :func:`forecast_scores`: a forward (time-series) split scored against forecast
  baselines (last value, past mean) instead of the future block's mean;
- :func:`corrected_resampled_ttest`: Nadeau and Bengio's corrected resampled
  t-test of two models' paired fold scores, with its confidence interval;
- :func:`seeded_target_encoder`: scikit-learn's ``TargetEncoder`` with seeded,
  stratified cross-fitting folds, on scikit-learn 1.9 and on 1.8 (JupyterLite's).

Bad input raises ``ValueError`` naming the problem; inputs are never modified.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import clone
from sklearn.metrics import get_scorer, roc_auc_score
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, cross_validate
from sklearn.preprocessing import TargetEncoder

from helpers.roc import auc_rank
from helpers.validation import check_binary_scores, check_int, check_probability, check_real, finite_floats


# --------------------------------------------------------------------------- target encoding
def seeded_target_encoder(n_splits: int = 5, random_state: int = 0) -> TargetEncoder:
    """``TargetEncoder`` for a class target whose cross-fitting folds are ``n_splits`` shuffled, stratified
    folds drawn with ``random_state``: the same folds, hence the same encodings, on both versions.

    scikit-learn 1.9 takes the folds as a splitter (``cv=StratifiedKFold(...)``) and deprecates
    ``shuffle`` and ``random_state``; 1.8, which JupyterLite's Pyodide runs, takes only a number of
    folds in ``cv`` and draws stratified folds from ``shuffle`` and ``random_state``.
    """
    n_splits = check_int(n_splits, "n_splits", 2)
    random_state = check_int(random_state, "random_state", 0)
    if TargetEncoder().get_params()["shuffle"] == "deprecated":  # scikit-learn 1.9 and later
        return TargetEncoder(cv=StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state))
    return TargetEncoder(cv=n_splits, shuffle=True, random_state=random_state)


# --------------------------------------------------------------------------- scoring
def rank_scorer(scoring):
    """``get_scorer(scoring)``, with ``"roc_auc"`` of a two-class classifier computed by ranks.

    For ``"roc_auc"`` the returned scorer takes the response scikit-learn's
    scorer takes (``decision_function`` where the estimator has one, else the
    positive column of ``predict_proba``; the positive class is ``classes_[1]``)
    and computes the same AUC with :func:`helpers.roc.auc_rank`, about twenty
    times faster than ``roc_auc_score``, whose input checks cost more than the
    small fits these experiments repeat hundreds of times. Any other scoring,
    or more than two classes, is scikit-learn's own scorer.
    """
    scorer = get_scorer(scoring)
    if scoring != "roc_auc":
        return scorer

    def roc_auc_by_ranks(estimator, X, y):
        classes = getattr(estimator, "classes_", None)
        if classes is None or len(classes) != 2:
            return scorer(estimator, X, y)
        if hasattr(estimator, "decision_function"):
            score = estimator.decision_function(X)
        else:
            score = estimator.predict_proba(X)[:, 1]
        return auc_rank(y, score, pos_label=classes[1])

    return roc_auc_by_ranks


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


def efron_632(resubstitution: float, out_of_bag: float) -> float:
    """Efron's .632 estimate ``0.368 * resubstitution + 0.632 * out_of_bag``.

    The out-of-bag score is pessimistic (each model trains on about 63.2% of
    the distinct rows) and the resubstitution score optimistic; the weights are
    ``1 - 1/e`` and ``1/e`` rounded as Efron (1983) does. Works for a score
    (AUC, accuracy) as well as for an error rate.
    """
    resubstitution = check_real(resubstitution, "resubstitution")
    out_of_bag = check_real(out_of_bag, "out_of_bag")
    return 0.368 * resubstitution + 0.632 * out_of_bag


def _bootstrap_set_up(X, y, n_rounds, scoring, random_state):
    """The checked labels, number of rounds, scorer and random generator of a bootstrap estimate."""
    y_array = _check_X_y_lengths(X, y)
    n_rounds = check_int(n_rounds, "n_rounds", 1)
    if np.unique(y_array).size < 2:
        raise ValueError("y needs at least two classes")
    return y_array, n_rounds, rank_scorer(scoring), np.random.default_rng(random_state)


def bootstrap_632(estimator, X, y, n_rounds: int = 50, scoring="roc_auc", random_state=None) -> dict:
    """Out-of-bag, resubstitution and .632 estimates of ``estimator``'s score.

    Each of ``n_rounds`` rounds draws a bootstrap sample of the rows, fits a
    clone on it and scores it on its out-of-bag rows (``oob`` is the mean over
    rounds). ``resubstitution`` is the score of one fit on all rows, on those
    rows; ``estimate_632 = efron_632(resubstitution, oob)``. ``distinct_share``
    is the mean share of distinct rows in a bootstrap sample (about 0.632).
    A round whose out-of-bag rows hold a single class is redrawn.
    """
    y_array, n_rounds, scorer, rng = _bootstrap_set_up(X, y, n_rounds, scoring, random_state)
    n = y_array.size
    oob_scores, distinct = [], []
    while len(oob_scores) < n_rounds:
        drawn = rng.integers(0, n, n)
        oob = np.ones(n, dtype=bool)
        oob[drawn] = False
        if np.unique(y_array[oob]).size < 2 or np.unique(y_array[drawn]).size < 2:
            continue
        model = clone(estimator).fit(_rows(X, drawn), y_array[drawn])
        oob_scores.append(float(scorer(model, _rows(X, np.flatnonzero(oob)), y_array[oob])))
        distinct.append(1 - oob.mean())
    full = clone(estimator).fit(X, y_array)
    resubstitution = float(scorer(full, X, y_array))
    oob_mean = float(np.mean(oob_scores))
    return {"oob": oob_mean, "oob_scores": np.array(oob_scores), "resubstitution": resubstitution,
            "estimate_632": efron_632(resubstitution, oob_mean), "distinct_share": float(np.mean(distinct)),
            "n_rounds": n_rounds}


# --------------------------------------------------------------------------- spread against k
def cv_spread_state(estimator, X, y, k: int, n_repeats: int = 5, scoring="roc_auc",
                    random_state=0) -> dict:
    """Every number the k slider shows: repeated stratified k-fold scores for one ``k``.

    Runs ``RepeatedStratifiedKFold(n_splits=k, n_repeats=n_repeats)`` and returns
    the fold scores (one row per repeat), each repeat's estimate (the mean of its
    k folds), their mean and spread (standard deviation between repeats), the
    spread of single folds, the cost (number of fits; the training-set sizes, their
    mean and their smallest and largest value, which differ when n is not a
    multiple of k). Nothing measured (no fitting time): the same inputs give the same state.
    "Spread" is a standard deviation (``ddof=1``): between the repeats' estimates
    (``spread``) or between single folds (``fold_spread``).
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
    result = cross_validate(estimator, X, y, cv=cv, scoring=rank_scorer(scoring), return_indices=True)
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
        "scoring": scoring,
        "train_size": float(np.mean(train_sizes)),
        "train_size_min": int(min(train_sizes)),
        "train_size_max": int(max(train_sizes)),
    }


def describe_train_sizes(state: dict) -> str:
    """"2260 to 2261 training rows" when the folds differ, else "3616 training rows each"."""
    low = state.get("train_size_min", round(state["train_size"]))
    high = state.get("train_size_max", round(state["train_size"]))
    return f"{low} training rows each" if low == high else f"{low} to {high} training rows"


def describe_cv_spread_state(state: dict) -> str:
    """One line of text for a ``helpers.cv.cv_spread_state``: only reproducible numbers (the cost is the number
    of fits, not the measured seconds, so a notebook that prints it re-executes to the same output)."""
    return (f"k = {state['k']} | {state['n_repeats']} repeats x {state['k']} folds = {state['n_fits']} fits, "
            f"{describe_train_sizes(state)} | estimate {state['mean']:.3f}, "
            f"SD between repeats {state['spread']:.3f}, SD of single folds {state['fold_spread']:.3f}")


# --------------------------------------------------------------------------- variance over data sets
def _check_X_y_lengths(X, y) -> np.ndarray:
    y_array = np.asarray(y)
    if y_array.ndim != 1:
        raise ValueError(f"y must be one-dimensional; got shape {y_array.shape}")
    if len(X) != y_array.shape[0]:
        raise ValueError(f"X and y have different lengths: {len(X)} and {y_array.shape[0]}")
    return y_array


def _rows(X, index):
    return X.iloc[index] if hasattr(X, "iloc") else np.asarray(X)[index]


def fold_scores_over_datasets(estimator, X, y, ks=(2, 5, 10), n_datasets: int = 8, scoring="roc_auc",
                              random_state=0) -> dict[int, np.ndarray]:
    """The stratified k-fold *fold scores* of each ``k`` on ``n_datasets`` disjoint data sets.

    The rows are shuffled once (``random_state``) and cut into ``n_datasets``
    stratified, disjoint parts of (almost) equal size, each standing for an
    independent data set drawn from the same population. Returns, for each k,
    an array with one row per data set and its k fold scores (folds shuffled
    with ``random_state``): the rows' means are :func:`estimates_over_datasets`.
    """
    y_array = _check_X_y_lengths(X, y)
    n_datasets = check_int(n_datasets, "n_datasets", 2)
    ks = [check_int(k, "k", 2) for k in ks]
    if not ks:
        raise ValueError("ks is empty; give at least one number of folds")
    _, counts = np.unique(y_array, return_counts=True)
    if counts.size < 2:
        raise ValueError("y needs at least two classes")
    if n_datasets > counts.min():
        raise ValueError(f"n_datasets={n_datasets} is larger than the smallest class ({counts.min()} samples)")
    smallest_part = counts.min() // n_datasets
    if max(ks) > smallest_part:
        raise ValueError(f"k={max(ks)} is larger than the smallest class of a data set ({smallest_part} samples)")
    parts = StratifiedKFold(n_splits=n_datasets, shuffle=True, random_state=random_state)
    scorer = rank_scorer(scoring)
    scores = {k: np.empty((n_datasets, k)) for k in ks}
    for row, (_, part) in enumerate(parts.split(np.zeros(y_array.size), y_array)):
        X_part, y_part = _rows(X, part), y_array[part]
        for k in ks:  # a plain loop: cross_validate's set-up would cost more than these small fits
            folds = StratifiedKFold(k, shuffle=True, random_state=random_state).split(np.zeros(y_part.size), y_part)
            scores[k][row] = [scorer(clone(estimator).fit(_rows(X_part, train), y_part[train]),
                                     _rows(X_part, test), y_part[test]) for train, test in folds]
    return scores


def estimates_from_fold_scores(fold_scores: dict) -> pd.DataFrame:
    """The table of :func:`estimates_over_datasets` from :func:`fold_scores_over_datasets`' arrays."""
    if not fold_scores:
        raise ValueError("fold_scores is empty")
    n_datasets = {np.shape(scores)[0] for scores in fold_scores.values()}
    if len(n_datasets) != 1:
        raise ValueError(f"every k needs the same number of data sets; got {sorted(n_datasets)}")
    n = n_datasets.pop()
    return pd.DataFrame({k: np.asarray(scores, dtype=float).mean(axis=1) for k, scores in fold_scores.items()},
                        index=pd.RangeIndex(1, n + 1, name="data set"),
                        columns=pd.Index(list(fold_scores), name="k"))


def estimates_over_datasets(estimator, X, y, ks=(2, 5, 10), n_datasets: int = 8, scoring="roc_auc",
                            random_state=0) -> pd.DataFrame:
    """The stratified k-fold estimate of each ``k`` on ``n_datasets`` disjoint data sets.

    The rows are shuffled once (``random_state``) and cut into ``n_datasets``
    stratified, disjoint parts of (almost) equal size, each standing for an
    independent data set drawn from the same population. Each part gets one
    stratified k-fold estimate (the mean of its k fold scores, folds shuffled
    with ``random_state``) per k. Returns a table with one row per data set and
    one column per k: its standard deviation down a column is the variance over
    data sets that the usual "variance grows with k" claim is about.
    """
    return estimates_from_fold_scores(fold_scores_over_datasets(estimator, X, y, ks, n_datasets, scoring,
                                                                random_state))


def fold_t_intervals(fold_scores, confidence: float = 0.95) -> pd.DataFrame:
    """The textbook interval ``mean +/- t SD / sqrt(k)`` of each row of k fold scores.

    One row per data set (or per cross-validation run): ``estimate`` (the mean
    of the k fold scores), ``naive SE`` (their SD, ``ddof=1``, over sqrt(k)),
    ``low`` and ``high`` (with the ``(1 + confidence) / 2`` quantile of the t
    distribution with k - 1 degrees of freedom). The formula treats the k fold
    scores as independent; they are not (the training sets overlap and the test
    folds split one sample), and no unbiased estimator of the variance of a
    k-fold estimate exists (Bengio & Grandvalet 2004), so the interval's
    coverage is not guaranteed: compare it with a simulation.
    """
    scores = np.asarray(fold_scores)
    if scores.dtype.kind not in "biuf":
        raise ValueError(f"fold_scores must hold numbers; got dtype {scores.dtype}")
    scores = scores.astype(float)
    if scores.ndim == 1:
        scores = scores[None, :]
    if scores.ndim != 2 or scores.size == 0:
        raise ValueError(f"fold_scores must be one row of k scores or a table of rows; got shape {scores.shape}")
    if scores.shape[1] < 2:
        raise ValueError(f"at least two fold scores per row are needed; got {scores.shape[1]}")
    if not np.isfinite(scores).all():
        raise ValueError("fold_scores contains NaN or infinite values")
    confidence = check_probability(confidence, "confidence")
    k = scores.shape[1]
    estimate = scores.mean(axis=1)
    naive_se = scores.std(axis=1, ddof=1) / math.sqrt(k)
    margin = float(stats.t.ppf((1 + confidence) / 2, k - 1)) * naive_se
    return pd.DataFrame({"estimate": estimate, "naive SE": naive_se, "low": estimate - margin,
                         "high": estimate + margin}, index=pd.RangeIndex(1, scores.shape[0] + 1))


def optimism_bootstrap(estimator, X, y, n_rounds: int = 50, scoring="roc_auc", random_state=None) -> dict:
    """Harrell's optimism-corrected bootstrap estimate (Efron & Gong 1983) of ``estimator``'s score.

    ``apparent`` is the score of one fit on all rows, on those rows. Each round
    draws a bootstrap sample, fits a clone on it and scores it twice: on the
    bootstrap sample itself (its apparent score) and on the original rows; the
    difference is that round's optimism. ``corrected = apparent - optimism``,
    the mean optimism over ``n_rounds`` rounds. The models train on n rows (with
    repeats), so the estimate refers to a model fitted on all n rows; it is the
    usual internal validation of clinical prediction models (TRIPOD). A round
    whose bootstrap sample holds a single class is redrawn.
    """
    y_array, n_rounds, scorer, rng = _bootstrap_set_up(X, y, n_rounds, scoring, random_state)
    n = y_array.size
    optimism = []
    while len(optimism) < n_rounds:
        drawn = rng.integers(0, n, n)
        if np.unique(y_array[drawn]).size < 2:
            continue
        X_boot, y_boot = _rows(X, drawn), y_array[drawn]
        model = clone(estimator).fit(X_boot, y_boot)
        optimism.append(float(scorer(model, X_boot, y_boot)) - float(scorer(model, X, y_array)))
    apparent = float(scorer(clone(estimator).fit(X, y_array), X, y_array))
    mean_optimism = float(np.mean(optimism))
    return {"apparent": apparent, "optimism": mean_optimism, "corrected": apparent - mean_optimism,
            "optimism_per_round": np.array(optimism), "n_rounds": n_rounds}


# --------------------------------------------------------------------------- pooled vs averaged
def pooled_and_averaged_auc(y_true, y_score, fold) -> dict:
    """ROC AUC of out-of-fold scores, two ways: pooled over all rows, and averaged over folds.

    ``fold[i]`` names the test fold that scored row ``i`` (for example from
    ``cv.split``). ``pooled`` is one AUC of all the scores together; it mixes
    scores of different models, so it also penalises models whose scores are on
    different scales. ``averaged`` is the mean of the per-fold AUCs (what
    ``cross_val_score`` reports); ``per_fold`` holds them.
    """
    is_positive, score = check_binary_scores(y_true, y_score)
    fold = np.asarray(fold)
    if fold.shape != score.shape:
        raise ValueError(f"fold must give one fold per score: {fold.shape[0] if fold.ndim else 0} and {score.size}")
    per_fold = []
    for name in pd.unique(fold):
        rows = fold == name
        if is_positive[rows].all() or not is_positive[rows].any():
            raise ValueError(f"fold {name} holds a single class; its AUC is undefined")
        per_fold.append(float(roc_auc_score(is_positive[rows], score[rows])))
    return {"pooled": float(roc_auc_score(is_positive, score)), "averaged": float(np.mean(per_fold)),
            "per_fold": np.array(per_fold)}


# --------------------------------------------------------------------------- forecasting baselines
def forecast_scores(estimator, X, y, cv) -> pd.DataFrame:
    """Mean squared error per forward split of a model and of two forecast baselines.

    For each ``(train, test)`` split of ``cv`` (a forward splitter such as
    ``TimeSeriesSplit``: every test row comes after every training row), the
    model is fitted on the past; ``last value`` forecasts the last training
    target for the whole test block, ``past mean`` the mean of the training
    targets. Both baselines use only the past, unlike a per-fold R^2, which
    compares with the mean of the test block itself. ``skill vs last value`` is
    ``1 - MSE(model) / MSE(last value)``: positive when the model beats it.
    """
    y_array = finite_floats(y, "y")
    if len(X) != y_array.size:
        raise ValueError(f"X and y have different lengths: {len(X)} and {y_array.size}")
    rows = []
    for train, test in cv.split(X, y_array):
        if train.max() >= test.min():
            raise ValueError("cv must test on rows after its training rows (a forward split such as TimeSeriesSplit)")
        model = clone(estimator).fit(_rows(X, train), y_array[train])
        future = y_array[test]
        mse = {"model": float(np.mean((future - model.predict(_rows(X, test))) ** 2)),
               "last value": float(np.mean((future - y_array[train][-1]) ** 2)),
               "past mean": float(np.mean((future - y_array[train].mean()) ** 2))}
        mse["skill vs last value"] = 1 - mse["model"] / mse["last value"] if mse["last value"] else math.nan
        rows.append(mse)
    return pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="split"))


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
        if not np.isfinite(values).all():
            raise ValueError(f"{name} contains NaN or an infinite score; every fold score must be a finite number")
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


def cv_split_roles(cv, X, y=None, groups=None) -> np.ndarray:
    """The role of every sample in every split of ``cv``, one row per split.

    0 = unused, 1 = training set, 2 = test set.
    """
    if not hasattr(cv, "split"):
        raise ValueError(f"cv must be a scikit-learn splitter with a split method; got {cv!r}")
    n_samples = len(X)
    if n_samples == 0:
        raise ValueError("X is empty; at least one sample is needed")
    for name, values in (("y", y), ("groups", groups)):
        if values is not None and len(values) != n_samples:
            raise ValueError(f"X and {name} have different lengths: {n_samples} and {len(values)}")
    # Splitters that ignore groups warn when given some: pass them only to those that use them.
    routing = cv.get_metadata_routing() if hasattr(cv, "get_metadata_routing") else None
    if routing is not None and not routing.consumes("split", ["groups"]):
        groups = None
    rows = []
    for i, (train, test) in enumerate(cv.split(X, y, groups)):
        row = np.zeros(n_samples, dtype=int)
        row[train] = 1
        if row[test].any():
            raise ValueError(f"split {i + 1} puts a sample in both its training and its test set")
        row[test] = 2
        rows.append(row)
    if not rows:
        raise ValueError(f"{type(cv).__name__} produced no split")
    return np.array(rows)
