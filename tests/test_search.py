"""helpers.search (notebook 06) and the hyperparameter-search figures of helpers.plotting."""

from __future__ import annotations

import math
import os
import pickle
import sys
import time
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib as mpl  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import optuna  # noqa: E402
import pandas as pd  # noqa: E402
import psutil  # noqa: E402
import pytest  # noqa: E402
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution  # noqa: E402
from optuna.trial import TrialState, create_trial  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import accuracy_score, log_loss  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score, train_test_split  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from helpers import search_plots  # noqa: E402
import helpers.search as search_module  # noqa: E402
from helpers.search import (LogisticObjective, TreeObjective, bayesian_optimisation,  # noqa: E402
                            breast_cancer_split, describe_census, expected_improvement, expected_improvement_mc,
                            fit_surrogate, optimism_simulation, parzen_density, tpe_densities, pruning_summary, run_workers, sampler_comparison,
                            start_workers, storage_for, tagged, wait_workers, worker_census, _main, describe_workers, InProcessWorker)

optuna.logging.set_verbosity(optuna.logging.WARNING)


@pytest.fixture(scope="module")
def data():
    return breast_cancer_split(random_state=0)


# --------------------------------------------------------------------------- data
def test_breast_cancer_split_is_stratified_and_reproducible(data):
    X_train, X_test, y_train, y_test = data
    assert X_train.shape == (426, 30) and X_test.shape == (143, 30)
    assert abs(np.mean(y_train == 0) - np.mean(y_test == 0)) < 0.01
    again = breast_cancer_split(random_state=0)
    assert np.array_equal(again[0], X_train) and np.array_equal(again[3], y_test)
    assert not np.array_equal(breast_cancer_split(random_state=1)[3], y_test)


@pytest.mark.parametrize("bad", [0.0, 1.0, 1, True, "0.2", -0.1])
def test_breast_cancer_split_rejects_bad_test_size(bad):
    with pytest.raises(ValueError, match="test_size"):
        breast_cancer_split(test_size=bad)


# --------------------------------------------------------------------------- TreeObjective
def test_tree_objective_equals_cross_val_score(data):
    X, _, y, _ = data
    objective = TreeObjective(X, y, n_splits=4, random_state=3)
    for params in ({"criterion": "gini", "max_depth": 3}, {"criterion": "entropy", "max_depth": 12}):
        expected = cross_val_score(DecisionTreeClassifier(random_state=3, **params), X, y,
                                   cv=StratifiedKFold(n_splits=4, shuffle=True, random_state=3)).mean()
        assert objective(optuna.trial.FixedTrial(params)) == pytest.approx(expected, abs=1e-12)


def test_tree_objective_reports_the_running_mean_per_fold(data):
    X, _, y, _ = data
    objective = TreeObjective(X, y, n_splits=5, random_state=0)
    study = optuna.create_study(direction="maximize", pruner=optuna.pruners.NopPruner(),
                                sampler=optuna.samplers.RandomSampler(seed=0))
    study.optimize(objective, n_trials=2)
    for trial in study.trials:
        tree = DecisionTreeClassifier(random_state=0, **trial.params)
        folds = [accuracy_score(y[test], tree.fit(X[train], y[train]).predict(X[test])) for train, test in
                 StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(X, y)]
        running = np.cumsum(folds) / np.arange(1, 6)
        assert sorted(trial.intermediate_values) == [0, 1, 2, 3, 4]
        assert np.allclose([trial.intermediate_values[i] for i in range(5)], running)
        assert trial.value == pytest.approx(running[-1])


def test_tree_objective_stops_fitting_when_pruned(data):
    X, _, y, _ = data
    study = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.999))
    study.optimize(TreeObjective(X, y, random_state=0), n_trials=3)
    assert [t.state for t in study.trials] == [TrialState.PRUNED] * 3
    assert all(list(t.intermediate_values) == [0] for t in study.trials), "a pruned trial fits no further fold"


def test_tree_objective_never_prunes_a_finished_trial(data):
    X, _, y, _ = data
    # a pruner that always says "prune" from the last fold on: the trial must still complete
    study = optuna.create_study(direction="maximize",
                                pruner=optuna.pruners.MedianPruner(n_startup_trials=0, n_warmup_steps=4))
    study.add_trial(create_trial(params={"criterion": "gini", "max_depth": 3},
                                 distributions={"criterion": CategoricalDistribution(["gini", "entropy"]),
                                                "max_depth": IntDistribution(2, 21)},
                                 value=1.0, intermediate_values={i: 1.0 for i in range(5)}))
    study.optimize(TreeObjective(X, y, random_state=0), n_trials=2)
    new = study.trials[1:]
    assert all(t.state == TrialState.COMPLETE for t in new), "the last fold is run: no pruning after it"
    assert all(sorted(t.intermediate_values) == [0, 1, 2, 3, 4] for t in new)
    assert all(t.value < 1.0 for t in new)  # below the median at step 4, yet kept


def test_tree_objective_search_space_and_pickling(data):
    X, _, y, _ = data
    objective = TreeObjective(X, y, max_depth_low=2, max_depth_high=21)
    study = optuna.create_study(direction="maximize")
    study.optimize(objective, n_trials=1)
    assert study.trials[0].distributions == {"criterion": CategoricalDistribution(["gini", "entropy"]),
                                             "max_depth": IntDistribution(2, 21)}
    copy = pickle.loads(pickle.dumps(objective))
    params = {"criterion": "gini", "max_depth": 4}
    assert copy(optuna.trial.FixedTrial(params)) == objective(optuna.trial.FixedTrial(params))


def test_tree_objective_validates_and_does_not_modify_its_input(data):
    X, _, y, _ = data
    X_copy, y_copy = X.copy(), y.copy()
    TreeObjective(X, y)(optuna.trial.FixedTrial({"criterion": "gini", "max_depth": 2}))
    assert np.array_equal(X, X_copy) and np.array_equal(y, y_copy)
    with pytest.raises(ValueError, match="n_splits"):
        TreeObjective(X, y, n_splits=1)
    with pytest.raises(ValueError, match="max_depth_high"):
        TreeObjective(X, y, max_depth_low=5, max_depth_high=4)
    with pytest.raises(ValueError, match="two-dimensional"):
        TreeObjective(X[:, 0], y)
    with pytest.raises(ValueError, match="different numbers of samples"):
        TreeObjective(X, y[:-1])
    with pytest.raises(ValueError, match="at least 2 classes"):
        TreeObjective(X, np.zeros_like(y))


# --------------------------------------------------------------------------- LogisticObjective
def test_logistic_objective_loss_equals_sklearn(data):
    X, _, y, _ = data
    objective = LogisticObjective(X, y, validation_size=0.5, random_state=0)
    X_tr, X_val, y_tr, y_val = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    scaler = StandardScaler().fit(X_tr)
    for C in (1e-3, 0.5, 30.0):
        model = LogisticRegression(C=C, tol=1e-4, solver="newton-cholesky").fit(scaler.transform(X_tr), y_tr)
        expected = log_loss(y_val, model.predict_proba(scaler.transform(X_val)))
        assert objective.loss(C, 1e-4) == pytest.approx(expected, rel=1e-9)


def test_logistic_objective_fits_each_point_once(data, monkeypatch):
    fits = []

    class CountingLogisticRegression(LogisticRegression):
        def fit(self, X, y):
            fits.append((self.C, self.tol))
            return super().fit(X, y)

    monkeypatch.setattr(search_module, "LogisticRegression", CountingLogisticRegression)
    X, _, y, _ = data
    objective = LogisticObjective(X, y)
    first = objective.loss(0.5, 1e-4)
    assert len(fits) == 1
    assert objective.loss(0.5, 1e-4) == first and len(fits) == 1  # kept, not refitted
    assert objective.loss(np.float64(0.5), 1e-4) == first and len(fits) == 1
    other = objective.loss(0.5 * (1 + 1e-9), 1e-4)  # another point: a new fit
    assert len(fits) == 2 and other == pytest.approx(first, rel=1e-6)
    assert objective.loss(2.0, 1e-4) != first and len(fits) == 3
    fresh = LogisticObjective(X, y)
    assert fresh.loss(2.0, 1e-4) == objective.loss(2.0, 1e-4)  # the kept value is the fitted one
    before = len(fits)
    for seed in range(3):  # the grid visits the same two points for every seed
        optuna.create_study(sampler=optuna.samplers.GridSampler({"C": [0.1, 1.0], "tol": [1e-4]}, seed=seed)
                            ).optimize(objective, n_trials=2)
    assert len(fits) == before + 2  # six trials, two points: each fitted once


def test_logistic_objective_c_matters_and_tol_does_not(data):
    X, _, y, _ = data
    objective = LogisticObjective(X, y)
    by_c = [objective.loss(C, 1e-4) for C in np.geomspace(*LogisticObjective.C_RANGE, 7)]
    by_tol = [objective.loss(1.0, tol) for tol in np.geomspace(*LogisticObjective.TOL_RANGE, 5)]
    assert np.ptp(by_c) > 0.3
    assert np.ptp(by_tol) < 0.01
    study = optuna.create_study()
    study.optimize(objective, n_trials=1)
    assert study.trials[0].distributions == {"C": FloatDistribution(1e-4, 1e2, log=True),
                                             "tol": FloatDistribution(1e-6, 1e-2, log=True)}


@pytest.mark.parametrize("bad", [0.0, 1.0, 1, None])
def test_logistic_objective_rejects_bad_validation_size(data, bad):
    X, _, y, _ = data
    with pytest.raises(ValueError, match="validation_size"):
        LogisticObjective(X, y, validation_size=bad)


# --------------------------------------------------------------------------- pruning_summary
def _study_with(trials, direction="maximize"):
    study = optuna.create_study(direction=direction)
    for trial in trials:
        study.add_trial(trial)
    return study


def _trial(state, steps, value=None, params=None, user_attrs=None):
    params = params or {"x": 1}
    return create_trial(state=state, value=value, params=params,
                        distributions={"x": IntDistribution(0, 10)} if "x" in params else {},
                        intermediate_values={i: 0.5 for i in range(steps)}, user_attrs=user_attrs or {})


def test_pruning_summary_counts_fits_by_hand():
    study = _study_with([_trial(TrialState.COMPLETE, 5, 0.9), _trial(TrialState.PRUNED, 1),
                         _trial(TrialState.PRUNED, 2), _trial(TrialState.COMPLETE, 5, 0.95, {"x": 7})])
    summary = pruning_summary(study, n_steps=5)
    assert (summary["trials"], summary["pruned"], summary["fits"], summary["fits_without_pruning"]) == (4, 2, 13, 20)
    assert summary["saved"] == pytest.approx(7 / 20)
    assert summary["best_value"] == 0.95 and summary["best_params"] == {"x": 7}


def test_pruning_summary_rejects_bad_input():
    with pytest.raises(ValueError, match="no finished"):
        pruning_summary(optuna.create_study(), n_steps=5)
    with pytest.raises(ValueError, match="n_steps"):
        pruning_summary(_study_with([_trial(TrialState.COMPLETE, 5, 0.9)]), n_steps=3)
    with pytest.raises(ValueError, match="n_steps"):
        pruning_summary(_study_with([_trial(TrialState.COMPLETE, 5, 0.9)]), n_steps=0)


# --------------------------------------------------------------------------- sampler_comparison
def _quadratic(trial):
    return (trial.suggest_float("x", -3, 3) - 1) ** 2


def test_sampler_comparison_runs_every_sampler_and_seed_at_the_same_budget():
    samplers = {"random": lambda s: optuna.samplers.RandomSampler(seed=s),
                "grid": lambda s: optuna.samplers.GridSampler({"x": [-2.0, 0.0, 2.0]}, seed=s)}
    table = sampler_comparison(_quadratic, samplers, seeds=[0, 1], n_trials=3)
    assert len(table) == 2 * 2 * 3
    assert table.groupby(["sampler", "seed"]).size().tolist() == [3, 3, 3, 3]
    for _, run in table.groupby(["sampler", "seed"]):
        assert np.array_equal(run["best_so_far"], np.minimum.accumulate(run["value"]))
    grid = table[table["sampler"] == "grid"]
    assert sorted(grid[grid["seed"] == 0]["value"]) == [1.0, 1.0, 9.0]
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    study.optimize(_quadratic, n_trials=3)
    random_1 = table[(table["sampler"] == "random") & (table["seed"] == 1)]
    assert np.allclose(random_1["value"], [t.value for t in study.trials]), "the seed is passed to the sampler"


def test_sampler_comparison_maximize_and_bad_input():
    table = sampler_comparison(_quadratic, {"r": lambda s: optuna.samplers.RandomSampler(seed=s)}, [0], 5,
                               direction="maximize")
    assert np.array_equal(table["best_so_far"], np.maximum.accumulate(table["value"]))
    with pytest.raises(ValueError, match="direction"):
        sampler_comparison(_quadratic, {"r": optuna.samplers.RandomSampler}, [0], 3, direction="max")
    with pytest.raises(ValueError, match="samplers is empty"):
        sampler_comparison(_quadratic, {}, [0], 3)
    with pytest.raises(ValueError, match="seeds is empty"):
        sampler_comparison(_quadratic, {"r": optuna.samplers.RandomSampler}, [], 3)
    with pytest.raises(ValueError, match="n_trials"):
        sampler_comparison(_quadratic, {"r": optuna.samplers.RandomSampler}, [0], 0)


# --------------------------------------------------------------------------- optimism_simulation
def test_optimism_simulation_matches_a_search_by_hand():
    X, y = breast_cancer_split(random_state=0)[0::2]
    grid = {"max_depth": [1, 2, 3, 5, 8, None]}  # ties between depths are common on 60 rows: first one wins
    seeds = [4, 5, 6]
    table = optimism_simulation(DecisionTreeClassifier(random_state=0), grid, X, y, n_train=60, seeds=seeds)
    assert list(table["seed"]) == seeds
    for seed, row in zip(seeds, table.itertuples()):
        X_small, X_rest, y_small, y_rest = train_test_split(X, y, train_size=60, stratify=y, random_state=seed)
        inner = StratifiedKFold(n_splits=3, shuffle=True, random_state=seed)
        search = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=inner).fit(X_small, y_small)
        nested = cross_val_score(GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=inner), X_small,
                                 y_small, cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=seed + 1))
        assert row.best_score == pytest.approx(search.best_score_)
        assert row.nested == pytest.approx(nested.mean())
        assert row.truth == pytest.approx(accuracy_score(y_rest, search.predict(X_rest)))
        assert row.best_params == search.best_params_


def test_optimism_simulation_rejects_bad_input():
    X, y = breast_cancer_split(random_state=0)[0::2]
    tree = DecisionTreeClassifier()
    with pytest.raises(ValueError, match="n_train"):
        optimism_simulation(tree, {"max_depth": [1]}, X, y, n_train=4, seeds=[0])
    with pytest.raises(ValueError, match="n_train"):
        optimism_simulation(tree, {"max_depth": [1]}, X, y, n_train=len(y), seeds=[0])
    with pytest.raises(ValueError, match="seeds is empty"):
        optimism_simulation(tree, {"max_depth": [1]}, X, y, n_train=60, seeds=[])


# --------------------------------------------------------------------------- workers and census
def _tagged_trial(worker, k, state=TrialState.COMPLETE):
    return _trial(state, 0, 0.5 if state == TrialState.COMPLETE else None,
                  user_attrs={"worker": worker, "worker_trial": k})


def test_worker_census_finds_lost_duplicated_unexpected_and_unfinished():
    clean = _study_with([_tagged_trial(w, k) for w in (0, 1) for k in range(3)])
    census = worker_census(clean, {0: 3, 1: 3})
    assert census == {"trials": 6, "per_worker": {0: 3, 1: 3}, "lost": 0, "duplicated": 0, "unexpected": 0,
                      "unfinished": 0, "numbers_consecutive": True}
    broken = _study_with([_tagged_trial(0, 0), _tagged_trial(0, 0), _tagged_trial(1, 0),
                          _tagged_trial(1, 1, TrialState.FAIL), _tagged_trial(2, 0)])
    census = worker_census(broken, {0: 2, 1: 2})
    assert census["lost"] == 1  # (0, 1) never ran; (1, 1) ran but failed: unfinished
    assert census["duplicated"] == 1 and census["unexpected"] == 1 and census["unfinished"] == 1
    assert census["per_worker"] == {0: 2, 1: 2, 2: 1}
    text = describe_census(census)
    assert "5 trials" in text and "lost 1" in text and "duplicated 1" in text and "unfinished 1" in text
    with pytest.raises(ValueError, match="expected is empty"):
        worker_census(clean, {})


def test_tagged_records_worker_and_count():
    study = optuna.create_study()
    study.optimize(tagged(_quadratic, 7), n_trials=3)
    assert [(t.user_attrs["worker"], t.user_attrs["worker_trial"]) for t in study.trials] == [(7, 0), (7, 1), (7, 2)]


@pytest.mark.slow
def test_two_worker_processes_share_one_sqlite_study(tmp_path):
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    optuna.create_study(study_name="trees", storage=storage, direction="maximize")
    processes = run_workers(storage, "trees", n_workers=2, n_trials=3)
    assert [p.stderr for p in processes] == ["", ""]
    assert [p.stdout for p in processes] == ["worker 0: 3 trials\n", "worker 1: 3 trials\n"]
    census = worker_census(optuna.load_study(study_name="trees", storage=storage), {0: 3, 1: 3})
    assert census == {"trials": 6, "per_worker": {0: 3, 1: 3}, "lost": 0, "duplicated": 0, "unexpected": 0,
                      "unfinished": 0, "numbers_consecutive": True}


@pytest.mark.slow
def test_in_process_workers_run_one_after_the_other_when_waited_for(tmp_path):
    # what JupyterLite's Python (Pyodide, no subprocesses) does in 06: nothing runs until wait_workers
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    optuna.create_study(study_name="trees", storage=storage, direction="maximize")
    optuna.logging.set_verbosity(optuna.logging.INFO)
    workers = start_workers(storage, "trees", n_workers=2, n_trials=2, random_state=3, in_process=True)
    assert [type(w) for w in workers] == [InProcessWorker, InProcessWorker]
    assert describe_workers(workers, storage).startswith("2 workers on study.db, to run one after the other")
    assert optuna.load_study(study_name="trees", storage=storage).trials == []
    try:
        results = wait_workers(workers)
        assert optuna.logging.get_verbosity() == optuna.logging.INFO, "the notebook's verbosity is kept"
    finally:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
    assert [(r.returncode, r.stdout, r.stderr) for r in results] == [(0, "worker 0: 2 trials\n", ""),
                                                                     (0, "worker 1: 2 trials\n", "")]
    study = optuna.load_study(study_name="trees", storage=storage)
    assert [t.user_attrs["worker"] for t in study.trials] == [0, 0, 1, 1], "one after the other"
    assert worker_census(study, {0: 2, 1: 2})["numbers_consecutive"]
    failing = start_workers(storage, "missing-study", n_workers=1, n_trials=1, in_process=True)
    with pytest.raises(RuntimeError, match="worker 0 failed"):
        wait_workers(failing)
    with pytest.raises(ValueError, match="in_process"):
        start_workers(storage, "trees", n_workers=1, n_trials=1, in_process="yes")


def test_describe_workers_says_processes_outside_the_browser():
    assert describe_workers([], "sqlite:///x/trees.db") == "0 worker processes started on trees.db"


@pytest.mark.slow
def test_run_workers_reports_a_failing_worker(tmp_path):
    storage = f"sqlite:///{tmp_path / 'empty.db'}"
    optuna.create_study(study_name="other", storage=storage)
    with pytest.raises(RuntimeError, match="worker 0 failed"):
        run_workers(storage, "missing-study", n_workers=1, n_trials=1)


@pytest.mark.slow
def test_wait_workers_stops_the_others_when_one_fails(tmp_path):
    storage = f"sqlite:///{tmp_path / 'two.db'}"
    optuna.create_study(study_name="long", storage=storage_for(storage), direction="maximize")
    failing = start_workers(storage, "missing-study", n_workers=1, n_trials=1)
    long_running = start_workers(storage, "long", n_workers=1, n_trials=100_000, first_worker=1)
    with pytest.raises(RuntimeError, match="worker 0 failed"):
        wait_workers(failing + long_running, timeout=120)
    assert long_running[0].poll() is not None, "the other worker must not be left running"


@pytest.mark.slow
@pytest.mark.parametrize("niceness", [0, 7])
def test_start_workers_run_at_a_lower_priority(tmp_path, niceness):
    storage = f"sqlite:///{tmp_path / 'nice.db'}"
    optuna.create_study(study_name="long", storage=storage_for(storage), direction="maximize")
    own = os.nice(0)
    [worker] = start_workers(storage, "long", n_workers=1, n_trials=100_000, niceness=niceness)
    try:
        deadline = time.monotonic() + 60  # `nice` replaces itself with Python: wait for that
        while psutil.Process(worker.pid).cmdline()[:1] != [sys.executable] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert psutil.Process(worker.pid).cmdline()[1:3] == ["-m", "helpers.search"]
        assert psutil.Process(worker.pid).nice() == min(own + niceness, 19)
    finally:
        worker.kill()
        worker.communicate()


def test_start_workers_rejects_a_bad_niceness():
    for bad in (-1, 20, 2.5, True):
        with pytest.raises(ValueError, match="niceness"):
            start_workers("sqlite://", "x", n_workers=1, n_trials=1, niceness=bad)


def test_storage_for_waits_for_sqlite_locks(tmp_path):
    storage = storage_for(f"sqlite:///{tmp_path / 's.db'}")
    with storage.engine.connect() as connection:
        assert connection.exec_driver_sql("pragma busy_timeout").scalar() == 60_000


def test_run_workers_and_cli_validate_arguments():
    with pytest.raises(ValueError, match="n_workers"):
        run_workers("sqlite://", "x", n_workers=0, n_trials=1)
    with pytest.raises(ValueError, match="n_trials"):
        run_workers("sqlite://", "x", n_workers=1, n_trials=0)
    with pytest.raises(SystemExit):
        _main(["worker", "--storage", "sqlite://"])  # --study, --n-trials and --worker-id are required


# --------------------------------------------------------------------------- figures
def _optuna_study():
    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=0))
    study.optimize(lambda t: t.suggest_float("x", 0, 1) + t.suggest_float("y", 0, 1), n_trials=6)
    return study


def test_optuna_plot_keeps_the_style_and_emits_no_warning():
    study = _optuna_study()
    before = dict(mpl.rcParams)
    filters = list(warnings.filters)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ax = search_plots.optuna_plot(optuna.visualization.matplotlib.plot_optimization_history, study)
    assert caught == []
    assert warnings.filters == filters, "the ExperimentalWarning filter must not outlive the call"
    assert dict(mpl.rcParams) == before, "Optuna's ggplot style must not leak into later figures"
    assert ax.figure.get_layout_engine().__class__.__name__ == "ConstrainedLayoutEngine"
    plt.close("all")


def test_optuna_plot_still_shows_experimental_warnings_outside():
    with mpl.rc_context(), pytest.warns(optuna.exceptions.ExperimentalWarning):  # ggplot stays inside
        optuna.visualization.matplotlib.plot_optimization_history(_optuna_study())
    plt.close("all")


def test_plot_search_heatmap_annotates_every_cell():
    results = {"param_a": [1, 1, 2, 2], "param_b": [0, 1, 0, 1], "mean_test_score": [0.1, 0.2, 0.3, 0.4]}
    ax = search_plots.plot_search_heatmap(results, "a", "b")
    assert sorted(t.get_text() for t in ax.texts) == ["0.100", "0.200", "0.300", "0.400"]
    assert ax.images[0].get_array().tolist() == [[0.1, 0.2], [0.3, 0.4]]
    with pytest.raises(ValueError, match="param_c"):
        search_plots.plot_search_heatmap(results, "c", "b")
    plt.close("all")


def test_plot_best_so_far_and_optimism_draw_their_data():
    table = pd.DataFrame({"sampler": ["a"] * 4 + ["b"] * 4, "seed": [0, 0, 1, 1] * 2, "trial": [1, 2] * 4,
                          "value": [3.0, 1, 2, 2, 5, 4, 3, 3], "best_so_far": [3.0, 1, 2, 2, 5, 4, 3, 3]})
    ax = search_plots.plot_best_so_far(table)
    medians = [line.get_ydata().tolist() for line in ax.lines]
    assert medians == [[2.5, 1.5], [4.0, 3.5]]
    simulation = pd.DataFrame({"seed": [0, 1], "best_score": [0.9, 0.95], "nested": [0.85, 0.9],
                               "truth": [0.86, 0.88]})
    ax = search_plots.plot_optimism(simulation)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1"]
    assert ax.lines[0].get_ydata().tolist() == [0.9, 0.95]
    plt.close("all")


# --------------------------------------------------------------------------- Bayesian optimisation by hand
def test_expected_improvement_against_a_value_worked_by_hand():
    # best 1.0, mean 0.5, sd 1: z = 0.5, EI = 0.5 * Phi(0.5) + phi(0.5)
    phi = np.exp(-0.125) / np.sqrt(2 * np.pi)              # 0.352065...
    Phi = 0.5 * (1 + math.erf(0.5 / np.sqrt(2)))            # 0.691462...
    assert expected_improvement([0.5], [1.0], best=1.0)[0] == pytest.approx(0.5 * Phi + phi, abs=1e-12)
    assert expected_improvement([0.5], [1.0], best=1.0)[0] == pytest.approx(0.697797, abs=1e-6)
    # sd = 0: the improvement is certain, max(best - mean, 0)
    assert np.allclose(expected_improvement([0.2, 1.5], [0.0, 0.0], best=1.0), [0.8, 0.0])
    # a point far worse than the best with small sd has almost no EI; xi asks for more
    assert expected_improvement([3.0], [0.1], best=1.0)[0] < 1e-80
    assert expected_improvement([0.5], [1.0], best=1.0, xi=0.1)[0] < expected_improvement([0.5], [1.0], best=1.0)[0]


def test_expected_improvement_equals_its_monte_carlo_estimate():
    mean = np.array([-1.0, 0.0, 0.3, 0.9, 2.0])
    sd = np.array([0.5, 1.0, 0.2, 0.4, 1.5])
    exact = expected_improvement(mean, sd, best=0.5)
    estimate, se = expected_improvement_mc(mean, sd, best=0.5, n_draws=200_000, random_state=1)
    assert np.all(np.abs(estimate - exact) < 4 * se + 1e-12)
    assert np.all(se < 0.005)
    # a wrong formula (sign of the density term flipped) is far outside the Monte Carlo error
    z = (0.5 - mean) / sd
    wrong = (0.5 - mean) * stats.norm.cdf(z) - sd * stats.norm.pdf(z)
    assert np.any(np.abs(estimate - wrong) > 10 * se)


def test_expected_improvement_validates_and_does_not_modify_its_input():
    mean, sd = np.array([0.1, 0.2]), np.array([0.3, 0.4])
    expected_improvement(mean, sd, 0.5)
    assert np.array_equal(mean, [0.1, 0.2]) and np.array_equal(sd, [0.3, 0.4])
    with pytest.raises(ValueError, match="sd must be >= 0"):
        expected_improvement([0.1], [-1.0], 0.5)
    with pytest.raises(ValueError, match="different lengths"):
        expected_improvement([0.1, 0.2], [1.0], 0.5)
    with pytest.raises(ValueError, match="best"):
        expected_improvement([0.1], [1.0], float("nan"))
    with pytest.raises(ValueError, match="xi"):
        expected_improvement([0.1], [1.0], 0.5, xi=-0.1)
    with pytest.raises(ValueError, match="n_draws"):
        expected_improvement_mc([0.1], [1.0], 0.5, n_draws=1)


def test_surrogate_interpolates_its_trials_and_is_uncertain_between_them():
    x = np.array([-3.0, -1.0, 0.5, 2.0])
    y = (x - 0.2) ** 2
    gp = fit_surrogate(x, y)
    mean, sd = gp.predict(x.reshape(-1, 1), return_std=True)
    assert np.allclose(mean, y, atol=1e-3) and np.all(sd < 1e-2)
    _, sd_between = gp.predict(np.array([[-2.0], [4.0]]), return_std=True)
    assert np.all(sd_between > 10 * sd.max())
    assert sd_between[1] > sd_between[0], "further from every trial, more uncertain"
    with pytest.raises(ValueError, match="at least 2"):
        fit_surrogate([1.0], [2.0])


def test_bayesian_optimisation_finds_the_minimum_of_a_parabola_and_keeps_its_steps():
    calls = []

    def objective(x):
        calls.append(x)
        return (x - 1.3) ** 2

    steps = bayesian_optimisation(objective, [-4.0, 0.0, 4.0], bounds=(-4.0, 4.0), n_steps=6, n_grid=161)
    assert len(steps) == 6 and len(calls) == 3 + 6
    first = steps[0]
    assert first.best == pytest.approx(min((x - 1.3) ** 2 for x in (-4.0, 0.0, 4.0)))
    assert first.x_next == pytest.approx(first.grid[np.argmax(first.ei)])
    assert np.allclose(first.ei, expected_improvement(first.mean, first.sd, first.best))
    for before, after in zip(steps, steps[1:]):
        assert np.array_equal(after.x_seen[:-1], before.x_seen) and after.x_seen[-1] == before.x_next
    best_x = min(calls, key=lambda x: (x - 1.3) ** 2)
    assert abs(best_x - 1.3) < 0.1
    with pytest.raises(ValueError, match="bounds"):
        bayesian_optimisation(objective, [0.0, 1.0], bounds=(2.0, 1.0), n_steps=1)
    with pytest.raises(ValueError, match="within bounds"):
        bayesian_optimisation(objective, [0.0, 5.0], bounds=(-4.0, 4.0), n_steps=1)


def test_tpe_densities_split_the_trials_and_favour_the_good_region():
    x = np.array([0.0, 0.2, 0.4, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0])
    y = np.array([0.1, 0.05, 0.2, 1.0, 1.2, 1.1, 1.4, 1.5, 1.3, 1.6])
    grid = np.linspace(0, 5, 51)
    result = tpe_densities(x, y, grid, n_good=3, bandwidth=0.5)
    assert sorted(result["good"]) == [0.0, 0.2, 0.4] and len(result["bad"]) == 7
    assert result["threshold"] == pytest.approx(0.2)
    assert result["x_next"] < 1.0
    assert tpe_densities(x, y, grid)["good"].size == 1  # Optuna's default: ceil(0.1 * 10)
    # a density integrates to 1 over a wide enough grid
    wide = np.linspace(-10, 15, 2501)
    assert np.trapezoid(parzen_density([0.0, 2.0], wide, 0.5), wide) == pytest.approx(1.0, abs=1e-6)
    assert parzen_density([0.0], [0.0], 2.0)[0] == pytest.approx(1 / (2 * np.sqrt(2 * np.pi)))
    with pytest.raises(ValueError, match="n_good"):
        tpe_densities(x, y, grid, n_good=10)
    with pytest.raises(ValueError, match="bandwidth"):
        parzen_density([0.0], [0.0], 0.0)


def test_bayesian_optimisation_figures_draw_their_step_and_describe_it():
    from helpers.figures import descriptions, number

    steps = bayesian_optimisation(lambda x: (x - 0.5) ** 2, [-2.0, 2.0], bounds=(-2.0, 2.0), n_steps=1, n_grid=41)
    step = steps[0]
    ax = search_plots.plot_surrogate(step, truth=(step.grid, (step.grid - 0.5) ** 2), x_label="x")
    assert np.allclose(ax.lines[1].get_ydata(), step.mean)        # after the truth line: the surrogate mean
    assert ax.lines[2].get_xdata().tolist() == [-2.0, 2.0]        # the trials
    text = descriptions(ax)[0]
    assert f"the next trial (star) at x = {number(step.x_next, 2)}" in text
    assert "after 2 trials" in text and f"best value so far {number(step.best, 4)}" in text
    ax = search_plots.plot_expected_improvement(step)
    assert np.allclose(ax.lines[0].get_ydata(), step.ei)
    assert ax.lines[1].get_xdata()[0] == pytest.approx(step.x_next)
    assert "highest" in descriptions(ax)[0]
    densities = tpe_densities([0.0, 0.1, 1.0, 1.5, 2.0], [0.0, 0.1, 1.0, 1.2, 1.4], np.linspace(0, 2, 21),
                              n_good=2, bandwidth=0.3)
    ax = search_plots.plot_tpe_densities(densities)
    assert np.allclose(ax.lines[0].get_ydata(), densities["l"]) and np.allclose(ax.lines[1].get_ydata(), densities["g"])
    assert "2 best trials" in descriptions(ax)[0] and "other 3" in descriptions(ax)[0]
    plt.close("all")


def test_bayesian_optimisation_steps_figure_puts_one_step_a_column_on_one_scale_with_one_legend():
    from helpers.figures import descriptions

    steps = bayesian_optimisation(lambda x: (x - 0.5) ** 2, [-2.0, 2.0], bounds=(-2.0, 2.0), n_steps=3, n_grid=41)
    fig, axes = plt.subplots(2, 2, sharex=True, sharey="row")
    drawn = search_plots.plot_bo_steps(steps[1:], axes, x_label="x", first=2, ylim=(0.0, 5.0), ei_top=0.5)
    assert drawn.shape == (2, 2) and all(a is b for a, b in zip(drawn.ravel(), axes.ravel()))
    assert [ax.get_title() for ax in axes[0]] == ["step 2: 3 trials", "step 3: 4 trials"]
    assert np.allclose(axes[0, 1].lines[0].get_ydata(), steps[2].mean)  # no truth: the surrogate mean comes first
    assert np.allclose(axes[1, 0].lines[0].get_ydata(), steps[1].ei)
    assert [ax.get_ylim() for ax in axes[1]] == [(0.0, 0.5)] * 2 and axes[0, 1].get_ylim() == (0.0, 5.0)
    assert [ax.get_ylabel() for ax in axes[1]] == ["EI", ""]
    assert all(ax.get_legend() is None for ax in axes.ravel()) and len(fig.legends) == 1
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert "trials so far" in labels and "expected improvement" in labels and len(labels) == 6
    assert "after 4 trials" in descriptions(axes[0, 1])[0]
    with pytest.raises(ValueError, match="one column per step: 2 columns for 3 steps"):
        search_plots.plot_bo_steps(steps, plt.subplots(2, 2)[1])
    plt.close("all")


def test_expected_improvement_with_a_denormal_sd_is_the_limit_without_a_numpy_warning():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ei = expected_improvement([0.0, 2.0, 1.0], [1e-310, 1e-310, 1e-310], best=1.0)
    assert ei[0] == pytest.approx(1.0) and ei[1] == 0.0 and 0 < ei[2] < 1e-300
