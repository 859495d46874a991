"""Hyperparameter-search helpers (notebook 06).

- :func:`breast_cancer_split`: the notes' breast-cancer data, split once into
  a training part (for every search) and a test part (opened once);
- :class:`TreeObjective`: the notes' decision-tree Optuna study done right:
  ``criterion`` and ``max_depth``, the cross-validated accuracy reported after
  every fold so that a pruner has intermediate values to work with;
- :class:`LogisticObjective`: validation log loss of a logistic regression as a
  function of ``C`` (important) and ``tol`` (unimportant), cheap enough to run
  a search many times (grid vs random, samplers compared over seeds);
- :func:`pruning_summary`: trials, pruned trials and the fits pruning saved;
- :func:`sampler_comparison`: several Optuna samplers at the same budget over
  several seeds, trial by trial;
- :func:`optimism_simulation`: ``best_score_`` of a grid search vs a nested-CV
  estimate vs the truth (the score on rows no search saw), seed by seed;
- Bayesian optimisation by hand, on one hyperparameter: :func:`fit_surrogate`
  (a Gaussian-process surrogate), :func:`expected_improvement` (the closed
  formula) and :func:`expected_improvement_mc` (its Monte Carlo check),
  :func:`bayesian_optimisation` (the loop, step by step), and TPE's
  good/bad densities l(x) and g(x) (:func:`tpe_densities`);
- :func:`start_workers`, :func:`wait_workers` (or both: :func:`run_workers`),
  :func:`worker_census` and the command line
  ``python -m helpers.search worker ...``: several processes optimising one
  study through a shared storage (SQLite file, PostgreSQL server), and the
  check that no trial was lost or duplicated. Where Python cannot start
  processes (Pyodide, in JupyterLite: :data:`IN_BROWSER`), the workers run one
  after the other in the notebook's own process when waited for.

Bad input raises ``ValueError`` naming the problem; inputs are never modified.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import subprocess
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import optuna
import pandas as pd
from scipy.stats import norm
from sklearn.base import clone
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.model_selection import ParameterGrid, StratifiedKFold, train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from helpers.validation import check_int, check_pair, check_real, check_X_y, finite_floats

IN_BROWSER = sys.platform == "emscripten"
"""True in Pyodide (JupyterLite): no subprocesses, so :func:`start_workers` prepares in-process workers."""

FINISHED = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)


# --------------------------------------------------------------------------- data
def breast_cancer_split(test_size: float = 0.25, random_state: int = 0):
    """``X_train, X_test, y_train, y_test`` of scikit-learn's breast-cancer data (stratified).

    Class 0 is *malignant*, class 1 *benign*. The test part is for one final score.
    """
    if isinstance(test_size, bool) or not isinstance(test_size, float) or not 0 < test_size < 1:
        raise ValueError(f"test_size must be a float strictly between 0 and 1; got {test_size!r}")
    X, y = load_breast_cancer(return_X_y=True)
    return train_test_split(X, y, test_size=test_size, stratify=y, random_state=random_state)


# --------------------------------------------------------------------------- objectives
class TreeObjective:
    """Cross-validated accuracy of a decision tree, reported fold by fold to Optuna.

    Each call suggests ``criterion`` (gini or entropy) and ``max_depth``
    (``max_depth_low`` to ``max_depth_high``), fits one tree per fold of a fixed
    ``StratifiedKFold`` and, after every fold, reports the mean accuracy so far
    with ``trial.report(mean, step=fold)``; when ``trial.should_prune()`` says so
    it raises ``optuna.TrialPruned`` and the remaining folds are not fitted. It
    does not ask after the last fold: by then the trial is finished, and pruning
    it would throw away a complete score that cost as much as any other. The
    number of folds a trial used is ``len(trial.intermediate_values)``.

    The folds are the same for every trial, so the pruner compares like with like.
    Instances are picklable: worker processes rebuild the same one.
    """

    def __init__(self, X, y, n_splits: int = 5, max_depth_low: int = 2, max_depth_high: int = 21,
                 random_state: int = 0):
        self.X, self.y = check_X_y(X, y, min_classes=2)
        self.n_splits = check_int(n_splits, "n_splits", 2)
        self.max_depth_low = check_int(max_depth_low, "max_depth_low", 1)
        self.max_depth_high = check_int(max_depth_high, "max_depth_high", self.max_depth_low)
        self.random_state = check_int(random_state, "random_state", 0)
        cv = StratifiedKFold(n_splits=self.n_splits, shuffle=True, random_state=self.random_state)
        self.folds = list(cv.split(self.X, self.y))

    def model(self, criterion: str, max_depth: int) -> DecisionTreeClassifier:
        """The tree a trial with these parameters fits."""
        return DecisionTreeClassifier(criterion=criterion, max_depth=max_depth, random_state=self.random_state)

    def __call__(self, trial: optuna.Trial) -> float:
        criterion = trial.suggest_categorical("criterion", ["gini", "entropy"])
        max_depth = trial.suggest_int("max_depth", self.max_depth_low, self.max_depth_high)
        scores = []
        for step, (train, test) in enumerate(self.folds):
            tree = self.model(criterion, max_depth).fit(self.X[train], self.y[train])
            scores.append(float(np.mean(tree.predict(self.X[test]) == self.y[test])))
            trial.report(float(np.mean(scores)), step)
            # after the last fold the work is done: pruning would only throw away a finished trial
            if step < len(self.folds) - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        return float(np.mean(scores))


class LogisticObjective:
    """Validation log loss of a scaled logistic regression (Newton solver), for ``C`` and ``tol``.

    The data are split once (stratified) into a training and a validation part;
    the scaler is fitted on the training part. ``C`` matters a lot, ``tol``
    (between ``1e-6`` and ``1e-2``: the Newton solver converges in a few steps anyway) hardly at
    all: the setting of Bergstra and Bengio's argument for random search. One
    evaluation is one fit, so searches can be repeated over many seeds. The
    fit is deterministic, so each loss is kept per ``(C, tol)``: a grid
    sampler run with several seeds visits the same points, and fits each once.
    """

    C_RANGE = (1e-4, 1e2)
    TOL_RANGE = (1e-6, 1e-2)

    def __init__(self, X, y, validation_size: float = 0.5, random_state: int = 0):
        X, y = check_X_y(X, y, min_classes=2)
        if isinstance(validation_size, bool) or not isinstance(validation_size, float) \
                or not 0 < validation_size < 1:
            raise ValueError(f"validation_size must be a float strictly between 0 and 1; got {validation_size!r}")
        X_train, X_val, self.y_train, self.y_val = train_test_split(
            X, y, test_size=validation_size, stratify=y, random_state=random_state)
        scaler = StandardScaler().fit(X_train)
        self.X_train, self.X_val = scaler.transform(X_train), scaler.transform(X_val)
        self.losses: dict[tuple[float, float], float] = {}  # (C, tol) -> validation log loss

    def loss(self, C: float, tol: float) -> float:
        """Validation log loss of ``LogisticRegression(C=C, tol=tol)`` (fitted once per ``(C, tol)``)."""
        key = (float(C), float(tol))
        if key not in self.losses:
            model = LogisticRegression(C=C, tol=tol, solver="newton-cholesky", max_iter=1000)
            model.fit(self.X_train, self.y_train)
            # log loss written out: sklearn.metrics.log_loss gives the same value, at three times the cost
            p = np.clip(model.predict_proba(self.X_val)[:, 1], 1e-15, 1 - 1e-15)
            is_positive = self.y_val == model.classes_[1]
            self.losses[key] = float(-np.mean(np.where(is_positive, np.log(p), np.log1p(-p))))
        return self.losses[key]

    def __call__(self, trial: optuna.Trial) -> float:
        C = trial.suggest_float("C", *self.C_RANGE, log=True)
        tol = trial.suggest_float("tol", *self.TOL_RANGE, log=True)
        return self.loss(C, tol)


# --------------------------------------------------------------------------- pruning
def pruning_summary(study: optuna.Study, n_steps: int) -> dict:
    """Trials, pruned trials and fits of a study whose objective reports ``n_steps`` steps.

    ``fits`` counts the steps actually run (one intermediate value per fitted
    fold), ``fits_without_pruning`` what the same trials would have cost run to
    the end, ``saved`` the share not run.
    """
    n_steps = check_int(n_steps, "n_steps", 1)
    trials = [t for t in study.get_trials(deepcopy=False) if t.state in FINISHED]
    if not trials:
        raise ValueError("the study has no finished (complete or pruned) trial")
    fits = sum(len(t.intermediate_values) for t in trials)
    if fits > n_steps * len(trials):
        raise ValueError(f"some trials report more than n_steps={n_steps} intermediate values")
    full = n_steps * len(trials)
    return {
        "trials": len(trials),
        "pruned": sum(t.state == optuna.trial.TrialState.PRUNED for t in trials),
        "fits": fits,
        "fits_without_pruning": full,
        "saved": 1 - fits / full,
        "best_value": study.best_value,
        "best_params": study.best_params,
    }


# --------------------------------------------------------------------------- samplers
def sampler_comparison(objective: Callable, samplers: Mapping[str, Callable[[int], optuna.samplers.BaseSampler]],
                       seeds: Iterable[int], n_trials: int, direction: str = "minimize") -> pd.DataFrame:
    """Run one in-memory study per sampler and seed, all at the same budget of ``n_trials``.

    ``samplers`` maps a name to a function ``seed -> sampler``. Returns one row
    per trial: ``sampler``, ``seed``, ``trial`` (1-based), ``value`` and
    ``best_so_far`` (the best value of the trials up to this one).
    """
    if direction not in ("minimize", "maximize"):
        raise ValueError(f"direction must be 'minimize' or 'maximize'; got {direction!r}")
    if not samplers:
        raise ValueError("samplers is empty: give at least one name -> (seed -> sampler) function")
    seeds = [check_int(seed, "seed", 0) for seed in seeds]
    if not seeds:
        raise ValueError("seeds is empty: give at least one seed")
    n_trials = check_int(n_trials, "n_trials", 1)
    best = np.minimum.accumulate if direction == "minimize" else np.maximum.accumulate
    frames = []
    for name, make_sampler in samplers.items():
        for seed in seeds:
            study = optuna.create_study(direction=direction, sampler=make_sampler(seed))
            study.optimize(objective, n_trials=n_trials)
            values = np.array([t.value for t in study.trials], dtype=float)
            frames.append(pd.DataFrame({"sampler": name, "seed": seed, "trial": np.arange(1, values.size + 1),
                                        "value": values, "best_so_far": best(values)}))
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------- optimism of best_score_
def _accuracy(model, X, y) -> float:
    """The ``"accuracy"`` scorer's value: the share of rows ``model`` predicts right."""
    return float(np.mean(model.predict(X) == y))


def _grid_search(estimator, candidates: list[dict], X, y, cv, scorer):
    """``GridSearchCV(estimator, ..., cv=cv, scoring=scorer).fit(X, y)`` without its overhead.

    Returns ``(best_params, best_score, refitted)``: the first candidate of
    highest mean fold score, as ``GridSearchCV`` ranks them, refitted on all of
    ``X``. A search of a few tiny fits spends most of its time in
    ``GridSearchCV``'s bookkeeping; written out, a simulation of many searches
    runs several times faster, with the same numbers.
    """
    splits = list(cv.split(X, y))
    means = []
    for params in candidates:
        model = clone(estimator).set_params(**params)
        means.append(float(np.mean([scorer(model.fit(X[train], y[train]), X[test], y[test])
                                    for train, test in splits])))
    best = int(np.argmax(means))
    return candidates[best], means[best], clone(estimator).set_params(**candidates[best]).fit(X, y)


def optimism_simulation(estimator, param_grid, X, y, n_train: int, seeds: Iterable[int],
                        inner_splits: int = 3, outer_splits: int = 3, scoring: str = "accuracy") -> pd.DataFrame:
    """``best_score_`` vs nested cross-validation vs the truth, for several random samples.

    For each seed: draw ``n_train`` rows (stratified) as the data a practitioner
    would have; the other rows stand for the population. Then

    - ``best_score``: ``GridSearchCV(estimator, param_grid, cv=inner_splits)``'s ``best_score_``;
    - ``nested``: the mean outer score of the same search inside ``outer_splits``-fold CV;
    - ``truth``: the score of the refitted search on the rows it never saw.

    Returns one row per seed with those three and ``best_params``. The searches
    are written out (the same candidates, folds and tie-breaking as
    ``GridSearchCV``, which the tests check), so that many seeds stay cheap.
    """
    X, y = check_X_y(X, y, min_classes=2)
    n_train = check_int(n_train, "n_train", 2 * max(inner_splits, outer_splits), X.shape[0] - 2)
    inner_splits = check_int(inner_splits, "inner_splits", 2)
    outer_splits = check_int(outer_splits, "outer_splits", 2)
    seeds = [check_int(seed, "seed", 0) for seed in seeds]
    if not seeds:
        raise ValueError("seeds is empty: give at least one seed")
    # accuracy computed directly: the same number as the "accuracy" scorer, at a tenth of its overhead
    scorer = _accuracy if scoring == "accuracy" else get_scorer(scoring)
    candidates = list(ParameterGrid(param_grid))
    rows = []
    for seed in seeds:
        X_small, X_rest, y_small, y_rest = train_test_split(X, y, train_size=n_train, stratify=y, random_state=seed)
        inner = StratifiedKFold(n_splits=inner_splits, shuffle=True, random_state=seed)
        outer = StratifiedKFold(n_splits=outer_splits, shuffle=True, random_state=seed + 1)
        best_params, best_score, refitted = _grid_search(estimator, candidates, X_small, y_small, inner, scorer)
        nested = [scorer(_grid_search(estimator, candidates, X_small[train], y_small[train], inner, scorer)[2],
                         X_small[test], y_small[test]) for train, test in outer.split(X_small, y_small)]
        rows.append({"seed": seed, "best_score": best_score, "nested": float(np.mean(nested)),
                     "truth": float(scorer(refitted, X_rest, y_rest)), "best_params": best_params})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Bayesian optimisation by hand
def _mean_sd(mean, sd) -> tuple[np.ndarray, np.ndarray]:
    """The surrogate's means and standard deviations as float arrays of one length, sd >= 0."""
    mean, sd = check_pair(mean, sd, names=("mean", "sd"))
    mean, sd = finite_floats(mean, "mean"), finite_floats(sd, "sd")
    if sd.min() < 0:
        raise ValueError(f"sd must be >= 0 (a standard deviation); got {sd.min():g}")
    return mean, sd


def expected_improvement(mean, sd, best: float, xi: float = 0.0) -> np.ndarray:
    """Expected improvement over ``best`` when *minimising*, from its closed formula.

    At a point where the surrogate says f ~ N(mean, sd²), the improvement is
    max(best − xi − f, 0); its expectation is

        EI = (best − xi − mean) Φ(z) + sd φ(z),   z = (best − xi − mean) / sd,

    with Φ and φ the standard normal distribution and density; where sd = 0 it
    is max(best − xi − mean, 0). ``xi`` >= 0 asks for an improvement of at least
    that much (more exploration). For a score to *maximise*, pass −score.
    """
    mean, sd = _mean_sd(mean, sd)
    best = check_real(best, "best")
    xi = check_real(xi, "xi", 0.0)
    gain = best - xi - mean
    positive = sd > 0
    with np.errstate(over="ignore"):  # a denormal sd sends z to +-inf, where the formula's limit is right
        z = np.divide(gain, sd, out=np.zeros_like(gain), where=positive)
    return np.where(positive, gain * norm.cdf(z) + sd * norm.pdf(z), np.maximum(gain, 0.0))


def expected_improvement_mc(mean, sd, best: float, xi: float = 0.0, n_draws: int = 100_000,
                            random_state: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo estimate of :func:`expected_improvement` and its standard error.

    Draws ``n_draws`` values f ~ N(mean, sd²) at each point and averages the
    improvement max(best − xi − f, 0): the definition of EI, without the formula.
    """
    mean, sd = _mean_sd(mean, sd)
    best = check_real(best, "best")
    xi = check_real(xi, "xi", 0.0)
    n_draws = check_int(n_draws, "n_draws", 2)
    rng = np.random.default_rng(check_int(random_state, "random_state", 0))
    draws = mean + sd * rng.standard_normal((n_draws, mean.size))
    gain = np.maximum(best - xi - draws, 0.0)
    return gain.mean(axis=0), gain.std(axis=0, ddof=1) / np.sqrt(n_draws)


def fit_surrogate(x, y, length_scale: float = 1.0) -> GaussianProcessRegressor:
    """A Gaussian-process surrogate of a one-dimensional objective, fitted to the trials ``(x, y)``.

    The prior says: values of the objective at two points x and x' are
    correlated by a Matérn kernel (ν = 2.5: smooth, but less than the squared
    exponential) whose correlation fades over ``length_scale`` (in the units of
    x). ``normalize_y=True`` centres and scales the observed values, so the
    prior's amplitude is one standard deviation of them. The kernel is kept
    fixed (``optimizer=None``): with a handful of trials, fitting its
    hyperparameters by maximum likelihood is ill-posed; libraries do it once
    there are enough trials. The objective is deterministic, so the noise term
    ``alpha`` is tiny (it only keeps the algebra stable).
    """
    x, y = check_pair(x, y, names=("x", "y"))
    x, y = finite_floats(x, "x"), finite_floats(y, "y")
    if x.size < 2:
        raise ValueError("fit_surrogate needs at least 2 trials")
    length_scale = check_real(length_scale, "length_scale", 0.0, strict=True)
    kernel = ConstantKernel(1.0, "fixed") * Matern(length_scale=length_scale, length_scale_bounds="fixed", nu=2.5)
    gp = GaussianProcessRegressor(kernel=kernel, alpha=1e-6, normalize_y=True, optimizer=None)
    return gp.fit(x.reshape(-1, 1), y)


@dataclass(frozen=True)
class SurrogateStep:
    """One step of :func:`bayesian_optimisation`: what the surrogate knew, and where it looks next."""

    x_seen: np.ndarray      # trials so far (their hyperparameter values)
    y_seen: np.ndarray      # their objective values (to minimise)
    grid: np.ndarray        # candidate values of the hyperparameter
    mean: np.ndarray        # the surrogate's mean on the grid
    sd: np.ndarray          # its standard deviation on the grid
    ei: np.ndarray          # expected improvement over the best value so far
    x_next: float           # the grid value of highest EI: the next trial
    y_next: float           # the objective there

    @property
    def best(self) -> float:
        """The best (lowest) value observed before this step's trial."""
        return float(self.y_seen.min())


def bayesian_optimisation(objective: Callable[[float], float], x_start, bounds: tuple[float, float],
                          n_steps: int, n_grid: int = 301, xi: float = 0.0,
                          length_scale: float = 1.0) -> list[SurrogateStep]:
    """Minimise a one-dimensional ``objective`` by Bayesian optimisation, keeping every step.

    Starts from the trials at ``x_start``; then, ``n_steps`` times: fit the
    Gaussian-process surrogate (:func:`fit_surrogate`) to all trials so far,
    compute the expected improvement on ``n_grid`` points of ``bounds``, run
    the objective at the point of highest EI and add it to the trials.
    """
    low, high = (check_real(b, name) for b, name in zip(bounds, ("bounds[0]", "bounds[1]")))
    if not low < high:
        raise ValueError(f"bounds must be (low, high) with low < high; got {bounds!r}")
    x_seen = finite_floats(x_start, "x_start")
    if x_seen.min() < low or x_seen.max() > high:
        raise ValueError(f"x_start must lie within bounds {bounds!r}")
    n_steps = check_int(n_steps, "n_steps", 1)
    grid = np.linspace(low, high, check_int(n_grid, "n_grid", 2))
    y_seen = np.array([float(objective(float(x))) for x in x_seen])
    steps = []
    for _ in range(n_steps):
        gp = fit_surrogate(x_seen, y_seen, length_scale)
        mean, sd = gp.predict(grid.reshape(-1, 1), return_std=True)
        ei = expected_improvement(mean, sd, float(y_seen.min()), xi)
        x_next = float(grid[int(np.argmax(ei))])
        y_next = float(objective(x_next))
        steps.append(SurrogateStep(x_seen, y_seen, grid, mean, sd, ei, x_next, y_next))
        x_seen, y_seen = np.append(x_seen, x_next), np.append(y_seen, y_next)
    return steps


def parzen_density(points, grid, bandwidth: float) -> np.ndarray:
    """A Parzen (kernel density) estimate on ``grid``: the mean of normal densities centred on ``points``."""
    points, grid = finite_floats(points, "points"), finite_floats(grid, "grid")
    bandwidth = check_real(bandwidth, "bandwidth", 0.0, strict=True)
    return norm.pdf((grid[:, None] - points[None, :]) / bandwidth).mean(axis=1) / bandwidth


def tpe_densities(x, y, grid, n_good: int | None = None, bandwidth: float | None = None) -> dict:
    """TPE's view of one hyperparameter, simplified: l(x) of the good trials, g(x) of the others.

    The trials ``(x, y)`` (``y`` to minimise) are split into the ``n_good`` best
    (Optuna's default: ⌈0.1 n⌉, at most 25) and the rest; each group gets a
    Parzen density (normal kernels of width ``bandwidth``, by default a tenth of
    the grid's range). TPE proposes where l(x) / g(x) is highest, which is where
    the expected improvement is highest under its model (Bergstra et al. 2011).
    Optuna's own estimator adds a prior and per-point widths; the idea is this.
    """
    x, y = check_pair(x, y, names=("x", "y"))
    x, y = finite_floats(x, "x"), finite_floats(y, "y")
    grid = finite_floats(grid, "grid")
    if n_good is None:
        n_good = min(int(np.ceil(0.1 * x.size)), 25)
    n_good = check_int(n_good, "n_good", 1, x.size - 1)
    if bandwidth is None:
        bandwidth = (grid.max() - grid.min()) / 10 or 1.0
    order = np.argsort(y, kind="stable")
    good, bad = x[order[:n_good]], x[order[n_good:]]
    l_x, g_x = parzen_density(good, grid, bandwidth), parzen_density(bad, grid, bandwidth)
    ratio = l_x / np.maximum(g_x, np.finfo(float).tiny)
    return {"grid": grid, "good": good, "bad": bad, "l": l_x, "g": g_x, "ratio": ratio,
            "x_next": float(grid[int(np.argmax(ratio))]), "threshold": float(y[order[n_good - 1]])}


# --------------------------------------------------------------------------- several workers, one storage
def storage_for(url: str) -> optuna.storages.RDBStorage:
    """The RDB storage of ``url``; with SQLite, wait up to a minute for a lock held by another process."""
    engine_kwargs = {"connect_args": {"timeout": 60}} if url.startswith("sqlite") else {}
    return optuna.storages.RDBStorage(url, engine_kwargs=engine_kwargs)


def tagged(objective: Callable, worker: int) -> Callable:
    """``objective`` that first records ``worker`` and its own running trial count in the trial."""
    count = {"n": 0}

    def run(trial: optuna.Trial):
        trial.set_user_attr("worker", worker)
        trial.set_user_attr("worker_trial", count["n"])
        count["n"] += 1
        return objective(trial)

    return run


def worker(storage: str, study_name: str, n_trials: int, worker_id: int, random_state: int = 0) -> int:
    """Optimise the notebook's tree study (``TreeObjective`` on ``breast_cancer_split``) from this process.

    Loads an existing study from ``storage`` and runs ``n_trials`` trials with
    its own TPE seed (``random_state + worker_id``) and a Hyperband pruner.
    Returns the number of trials this worker ran.
    """
    n_trials = check_int(n_trials, "n_trials", 1)
    worker_id = check_int(worker_id, "worker_id", 0)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X_train, _, y_train, _ = breast_cancer_split(random_state=random_state)
    study = optuna.load_study(study_name=study_name, storage=storage_for(storage),
                              sampler=optuna.samplers.TPESampler(seed=random_state + worker_id),
                              pruner=optuna.pruners.HyperbandPruner())
    objective = tagged(TreeObjective(X_train, y_train, random_state=random_state), worker_id)
    study.optimize(objective, n_trials=n_trials)
    return n_trials


@dataclass
class InProcessWorker:
    """A worker of :func:`start_workers` that runs in this process, when :func:`wait_workers` reaches it.

    ``args`` is the command a worker process would run; :meth:`run` passes its
    arguments after ``-m helpers.search`` to the same command line, in this
    process, and returns what the process would have: exit code, output and
    error output.
    """

    args: list[str]

    def run(self) -> subprocess.CompletedProcess:
        stdout, stderr = io.StringIO(), io.StringIO()
        verbosity = optuna.logging.get_verbosity()  # the worker sets its own; the notebook keeps its
        try:
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                returncode = _main(self.args[self.args.index("helpers.search") + 1:])
        except Exception:  # as a process would: the traceback on the error stream, exit code 1
            stderr.write(traceback.format_exc())
            returncode = 1
        finally:
            optuna.logging.set_verbosity(verbosity)
        return subprocess.CompletedProcess(self.args, returncode, stdout.getvalue(), stderr.getvalue())


def start_workers(storage: str, study_name: str, n_workers: int, n_trials: int, first_worker: int = 0,
                  random_state: int = 0, niceness: int = 10,
                  in_process: bool | None = None) -> list[subprocess.Popen | InProcessWorker]:
    """Start ``n_workers`` processes ``python -m helpers.search worker ...`` at once; do not wait.

    Every worker runs ``n_trials`` trials of the study ``study_name`` in
    ``storage`` (which must exist); workers are numbered from ``first_worker``.
    Collect them with :func:`wait_workers`.

    Workers run in the background while the notebook goes on, so they start
    with a lower priority (``nice -n niceness`` where the ``nice`` command
    exists, as on Linux and macOS; ``niceness=0`` for none): they use the
    cores the notebook's kernel leaves free instead of slowing it down.

    ``in_process=True`` (the default where Python cannot start processes,
    :data:`IN_BROWSER`) starts nothing: it returns :class:`InProcessWorker`
    objects, which :func:`wait_workers` runs one after the other in this
    process. The storage hands out the trial numbers either way.
    """
    n_workers = check_int(n_workers, "n_workers", 1)
    n_trials = check_int(n_trials, "n_trials", 1)
    first_worker = check_int(first_worker, "first_worker", 0)
    niceness = check_int(niceness, "niceness", 0, 19)
    in_process = IN_BROWSER if in_process is None else in_process
    if not isinstance(in_process, bool):
        raise ValueError(f"in_process must be True, False or None; got {in_process!r}")
    nice = shutil.which("nice")
    prefix = [nice, "-n", str(niceness)] if nice and niceness and not in_process else []
    commands = [prefix + [sys.executable, "-m", "helpers.search", "worker", "--storage", storage,
                          "--study", study_name, "--n-trials", str(n_trials), "--worker-id", str(first_worker + i),
                          "--random-state", str(random_state)] for i in range(n_workers)]
    if in_process:
        return [InProcessWorker(command) for command in commands]
    return [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for command in commands]


def describe_workers(workers: list[subprocess.Popen | InProcessWorker], storage: str) -> str:
    """What :func:`start_workers` did, in words: processes started, or workers that run in this process."""
    name = storage.split("/")[-1]
    if workers and all(isinstance(w, InProcessWorker) for w in workers):
        return (f"{len(workers)} workers on {name}, to run one after the other in this process when waited "
                f"for (this Python cannot start processes)")
    return f"{len(workers)} worker processes started on {name}"


def wait_workers(processes: list[subprocess.Popen | InProcessWorker],
                 timeout: float = 300) -> list[subprocess.CompletedProcess]:
    """Wait for the workers of :func:`start_workers`; ``RuntimeError`` with its error output if one fails.

    In-process workers (:class:`InProcessWorker`) run here, one after the other; ``timeout`` applies to
    worker processes only.
    """
    results = []
    try:
        for process in processes:
            command = process.args
            name = f"worker {command[command.index('--worker-id') + 1]}"
            if isinstance(process, InProcessWorker):
                result = process.run()
                if result.returncode != 0:
                    raise RuntimeError(f"{name} failed with exit code {result.returncode}:\n{result.stderr}")
                results.append(result)
                continue
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                stdout, stderr = process.communicate()
                raise RuntimeError(f"{name} did not finish within {timeout} s:\n{stderr}") from None
            if process.returncode != 0:
                raise RuntimeError(f"{name} failed with exit code {process.returncode}:\n{stderr}")
            results.append(subprocess.CompletedProcess(command, process.returncode, stdout, stderr))
    except BaseException:
        for other in processes:  # leave no worker behind
            if isinstance(other, subprocess.Popen) and other.poll() is None:
                other.kill()
                other.communicate()
        raise
    return results


def run_workers(storage: str, study_name: str, n_workers: int, n_trials: int, first_worker: int = 0,
                random_state: int = 0, timeout: float = 300) -> list[subprocess.CompletedProcess]:
    """:func:`start_workers` then :func:`wait_workers`: the workers run at the same time, this waits for all."""
    return wait_workers(start_workers(storage, study_name, n_workers, n_trials, first_worker, random_state),
                        timeout)


def worker_census(study: optuna.Study, expected: Mapping[int, int]) -> dict:
    """Check a study run by tagged workers against what each worker ran.

    ``expected`` maps a worker id to the number of trials it ran. Returns the
    number of trials, the trials per worker, how many expected trials are
    ``lost`` (absent), how many are ``duplicated`` (present more than once),
    how many trials are not finished (neither complete nor pruned) and whether
    the trial numbers are exactly 0, 1, ..., n - 1.
    """
    if not expected:
        raise ValueError("expected is empty: map each worker id to the number of trials it ran")
    wanted = {(check_int(w, "worker id", 0), k) for w, n in expected.items()
              for k in range(check_int(n, f"expected[{w}]", 0))}
    trials = study.get_trials(deepcopy=False)
    tags = Counter((t.user_attrs.get("worker"), t.user_attrs.get("worker_trial")) for t in trials)
    numbers = sorted(t.number for t in trials)
    return {
        "trials": len(trials),
        "per_worker": dict(sorted(Counter(w for w, _ in tags.elements()).items(), key=lambda kv: str(kv[0]))),
        "lost": len(wanted - set(tags)),
        "duplicated": sum(count - 1 for count in tags.values() if count > 1),
        "unexpected": sum(count for tag, count in tags.items() if tag not in wanted),
        "unfinished": sum(t.state not in FINISHED for t in trials),
        "numbers_consecutive": numbers == list(range(len(trials))),
    }


def describe_census(census: dict) -> str:
    """The facts of a :func:`worker_census` as text (no timing-dependent number)."""
    per_worker = ", ".join(f"worker {w}: {n}" for w, n in census["per_worker"].items())
    return (f"{census['trials']} trials in the study ({per_worker}); lost {census['lost']}, "
            f"duplicated {census['duplicated']}, unexpected {census['unexpected']}, "
            f"unfinished {census['unfinished']}; trial numbers 0..{census['trials'] - 1} each used once: "
            f"{census['numbers_consecutive']}")


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.search",
                                     description="Hyperparameter-search helpers of notebook 06.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("worker", help="optimise the notebook's tree study from this process")
    run.add_argument("--storage", required=True, help="storage URL, e.g. sqlite:///study.db or postgresql://...")
    run.add_argument("--study", required=True, help="name of an existing study")
    run.add_argument("--n-trials", type=int, required=True)
    run.add_argument("--worker-id", type=int, required=True)
    run.add_argument("--random-state", type=int, default=0)
    args = parser.parse_args(argv)
    n = worker(args.storage, args.study, args.n_trials, args.worker_id, args.random_state)
    print(f"worker {args.worker_id}: {n} trials")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
