# %% [markdown]
# # 06 · Hyperparameter search
#
# Every term is defined in the course [glossary](glossary.md).
#
# In [`05_learning_curves`](05_learning_curves.ipynb) we moved one complexity
# knob at a time and watched training and validation scores react. Real models
# have several knobs, and this last notebook is about turning them
# systematically: trying candidates on a grid, at random, with successive
# halving, or with Optuna, which learns from the trials it has already run. It
# uses the cross-validation of [`03_cross_validation`](03_cross_validation.ipynb)
# throughout and ends where notebook 03 left off: the best score of a search is
# an optimistic estimate, and only nested cross-validation or an untouched test
# set tells the truth.
#
# **Time**: about 72 minutes of teaching (alone: reading and running), and 45 minutes
# for the exercises. Sections marked "(optional)" are deep-dives you can skip on a first
# pass.
#
# **You will learn**
# - the difference between parameters (learned by `fit`) and hyperparameters (set before it);
# - `GridSearchCV` with today's API on the notes' iris example, several scorers at once
#   (accuracy, recall of class 0, a custom NPV) with `refit`, `cv_results_` as a table
#   and a heat map, and what the `best_*` attributes mean;
# - why a grid costs O(n^m) and why random search wins at the same budget when few
#   hyperparameters matter;
# - successive halving (`HalvingGridSearchCV`, `HalvingRandomSearchCV`) and what it saves;
# - Bayesian optimisation by hand: a Gaussian-process surrogate, expected improvement
#   (its formula checked by Monte Carlo) and the next trial it picks; how TPE differs;
# - Optuna: objectives, `trial.suggest_*`, studies, samplers compared at equal budget,
#   pruning with intermediate values (median, Hyperband, threshold and the others),
#   the visualisations;
# - storing a study in SQLite, resuming it, and letting several processes (or machines,
#   through a database server) work on one study;
# - the optimism of `best_score_`, and the refit and single test score that end a search.
#
# **Prerequisites**: notebooks 01 (scorers, `make_scorer`, NPV) and 03
# (cross-validation, nested cross-validation), scikit-learn pipelines.
#
# Where the lecture notes this course is built from contain a mistake, or code
# that no longer runs with scikit-learn 1.9 and Optuna 5, the notebook says so
# where it uses the example.

# %%
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import optuna
import pandas as pd
from scipy.stats import loguniform, randint
from sklearn import datasets
from sklearn.experimental import enable_halving_search_cv  # noqa: F401  (makes the Halving*SearchCV importable)
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer, recall_score
from sklearn.model_selection import (GridSearchCV, HalvingGridSearchCV, HalvingRandomSearchCV, ParameterGrid,
                                     ParameterSampler, RandomizedSearchCV, StratifiedKFold)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from helpers import style
from helpers.figures import describe, show
from helpers.metrics import npv_score, npv_scorer
from helpers.search_plots import (optuna_plot, plot_best_so_far, plot_bo_steps, plot_optimism, plot_search_heatmap,
                                  plot_tpe_densities)
from helpers.search import (LogisticObjective, TreeObjective, bayesian_optimisation, breast_cancer_split,
                            describe_census, describe_workers, expected_improvement_mc, optimism_simulation,
                            pruning_summary, sampler_comparison, start_workers, storage_for, tpe_densities,
                            wait_workers, worker_census)

style.use()
RANDOM_STATE = 0
# Small data: one BLAS thread per fit is faster than several competing for the cores.
_ = threadpool_limits(limits=1)
# Optuna logs every finished trial at level INFO (to stderr); keep warnings and errors only.
optuna.logging.set_verbosity(optuna.logging.WARNING)

X_train, X_test, y_train, y_test = breast_cancer_split(random_state=RANDOM_STATE)
cv5 = StratifiedKFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
print(f"breast cancer: {len(y_train)} training and {len(y_test)} test tumours, 30 features; "
      f"share malignant (class 0): {np.mean(y_train == 0):.3f}")

# %% [markdown]
# The notes' practice data: scikit-learn's breast-cancer set, where class **0 is
# malignant** and class 1 benign. A quarter of it is put aside now as the test
# set and opened once, at the very end (section 12). Every search below sees
# the training part only, through the same five stratified folds `cv5`.

# %% [markdown]
# Section 11 has two **worker processes** optimise one Optuna study stored in a
# SQLite file (in `notebooks/optuna_studies/`, a folder git ignores; emptied each
# time the notebook runs top to bottom). A new Python process takes a few seconds
# to start, so they start here and work in the background while the notebook
# runs; section 11 explains the code and checks their trials. (In your browser,
# in JupyterLite, Python cannot start processes: there the two workers wait and
# run one after the other in the notebook's own process in section 11.)

# %%
study_dir = Path("optuna_studies")
study_dir.mkdir(exist_ok=True)
for old in study_dir.glob("trees*.db"):
    old.unlink()
storage = f"sqlite:///{study_dir / 'trees.db'}"
shared_storage = storage_for(storage)
optuna.create_study(study_name="trees-workers", storage=shared_storage, direction="maximize")
workers = start_workers(storage, "trees-workers", n_workers=2, n_trials=4, random_state=RANDOM_STATE)
print(describe_workers(workers, storage))

# %% [markdown]
# ## 1. Parameters vs hyperparameters
#
# A model's **parameters** are learned from the data by `fit`: the coefficients of
# a logistic regression, the split thresholds of a tree. Its **hyperparameters**
# are chosen before `fit` and shape how it learns: the regularisation strength
# `C`, the maximum depth of a tree. scikit-learn shows the difference in its
# names: hyperparameters are constructor arguments (`get_params()`), learned
# parameters end with an underscore.

# %%
model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, random_state=RANDOM_STATE)).fit(X_train, y_train)
regression = model[-1]
print("a few hyperparameters:", {k: regression.get_params()[k] for k in ("C", "l1_ratio", "solver", "max_iter")})
print(f"learned parameters: coef_ {regression.coef_.shape}, intercept_ {regression.intercept_.shape}, "
      f"{regression.coef_.size + regression.intercept_.size} numbers in all")

# %% [markdown]
# Thirty-one numbers were learned (one weight per feature and an intercept); `C`
# was given. No `fit` can choose `C` for us on the training data alone, because
# a weaker penalty always fits the training data better. Choosing it is the job
# of a search that scores each candidate on data the candidate was not fitted on.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
from helpers.widgets import concept_check  # ungraded concept checks with instant feedback

concept_check("06.parameter")


# %% [markdown]
# ## 2. Grid search: the notes' iris example, today's API
#
# `GridSearchCV` fits every combination of a grid of values (`param_grid`) with
# cross-validation (5 stratified folds by default) and keeps the best. The notes'
# example searches a logistic regression on the iris data over `C` and `penalty`.

# %%
iris = datasets.load_iris()
lr = LogisticRegression(solver="saga", tol=1e-2, max_iter=200, random_state=0)
iris_search = GridSearchCV(lr, {"C": [1, 2, 3, 4], "l1_ratio": [0, 1]}).fit(iris.data, iris.target)
print("best_params_:", iris_search.best_params_)
print(f"best_score_:  {iris_search.best_score_:.4f}")

# %% [markdown]
# The same answer as the notes: `C = 1` with the L2 penalty (`l1_ratio = 0`) and a
# mean accuracy of 0.98 over the five folds.
#
# **Erratum.** The notes' grid cannot be run as printed with scikit-learn 1.9:
#
# - `penalty=` of `LogisticRegression` is deprecated since 1.8. Use `l1_ratio`:
#   `0` is the L2 penalty, `1` the L1 penalty (values in between are the elastic
#   net, with `solver="saga"`);
# - the notes' grid starts with `C = 0`, which is not a valid value: `C` is the
#   *inverse* of the regularisation strength and must be positive. By default the
#   search turns each failed fit into a `FitFailedWarning` and a score of `nan`;
#   with `error_score="raise"` we see the reason at once:

# %%
try:
    GridSearchCV(lr, {"C": [0, 1], "l1_ratio": [0, 1]}, error_score="raise").fit(iris.data, iris.target)
except ValueError as error:
    print(f"{type(error).__name__}: {error}")

# %% [markdown]
# The grid without `C = 0` reproduces the notes' result, which was right. Look at
# all candidates, though:

# %%
iris_table = pd.DataFrame(iris_search.cv_results_)[["param_C", "param_l1_ratio", "mean_test_score",
                                                    "std_test_score", "rank_test_score"]]
print(iris_table.to_string(index=False, float_format="{:.4f}".format))
print(f"candidates tied at rank 1: {np.sum(iris_search.cv_results_['rank_test_score'] == 1)} "
      f"of {len(iris_table)}; best_index_ = {iris_search.best_index_}")

# %% [markdown]
# Most candidates tie at 0.98: on 150 flowers, one fold's score moves in steps of
# 1/30, and the search cannot tell these models apart. `GridSearchCV` breaks ties
# by taking the first candidate of rank 1 in the grid's order, so "the best
# parameters" here are partly an accident of how the grid was written. The
# standard deviations over the folds are the more useful reading.

# %% [markdown]
# ## 3. Several scorers and `refit`: recall of the malignant class, NPV
#
# For the breast-cancer data the notes raise two problems of scikit-learn's
# scorers: the positive label of binary metrics is 1, while here the class we care
# about, malignant, is 0; and there is no NPV scorer. `make_scorer(recall_score,
# pos_label=0)` answers the first; `helpers.metrics.npv_scorer` (notebook 01) the
# second. With the default `pos_label=1` (benign), the negatives are the malignant
# tumours, so NPV = TN / (TN + FN) is the share of tumours *predicted* malignant
# that are malignant.
#
# With several scorers, `refit` names the one that picks the best candidate and
# refits it on all the training data. The notes' `needs_proba` and
# `needs_threshold` arguments of `make_scorer` no longer exist (notebook 03,
# section 6): recall and NPV need hard labels, `make_scorer`'s default.
#
# The model scales the features and fits a logistic regression with the
# `liblinear` solver, fast on small data, which accepts `l1_ratio` 0 or 1 only.

# %%
scoring = {"accuracy": "accuracy", "recall_malignant": make_scorer(recall_score, pos_label=0), "npv": npv_scorer}
pipeline = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear", random_state=RANDOM_STATE))
grid = {"logisticregression__C": [0.01, 0.03, 0.1, 0.3, 1, 3], "logisticregression__l1_ratio": [0, 1]}
search = GridSearchCV(pipeline, grid, scoring=scoring, refit="recall_malignant", cv=cv5).fit(X_train, y_train)
print("best_params_:", search.best_params_)
print(f"best_score_ (mean recall of the malignant class): {search.best_score_:.4f}")

# %% [markdown]
# `cv_results_` is a dictionary of arrays, one entry per candidate. As a tidy
# table, with short parameter names and the three scores:

# %%
results = pd.DataFrame(search.cv_results_)
tidy = pd.DataFrame({
    "C": results["param_logisticregression__C"],
    "l1_ratio": results["param_logisticregression__l1_ratio"],
    **{f"{name} mean": results[f"mean_test_{name}"] for name in scoring},
    "recall std": results["std_test_recall_malignant"],
    "rank (recall)": results["rank_test_recall_malignant"],
}).sort_values("rank (recall)", kind="stable")
print(tidy.to_string(index=False, float_format="{:.4f}".format))
print(f"{len(tidy)} candidates, {len(tidy) * cv5.get_n_splits()} fits, then one refit")

# %% [markdown]
# The candidate with the highest mean recall of the malignant class wins, and the
# other two scores come for free from the same fits. The differences between the
# top candidates are smaller than their standard deviation over the folds: the
# ranking of the first few is not reliable. A heat map shows the whole grid:

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
plot_search_heatmap(search.cv_results_, "logisticregression__C", "logisticregression__l1_ratio",
                    score="mean_test_recall_malignant", ax=axes[0])
plot_search_heatmap(search.cv_results_, "logisticregression__C", "logisticregression__l1_ratio",
                    score="mean_test_npv", ax=axes[1])
for ax in axes:
    _ = ax.set(xlabel="l1_ratio (0 = L2, 1 = L1)", ylabel="C")
grid_results = pd.DataFrame(search.cv_results_)
show(fig, f"Two heat maps of the {len(grid_results)} grid candidates, C in rows and l1_ratio in columns: mean recall "
          f"of the malignant class from {grid_results['mean_test_recall_malignant'].min():.3f} to "
          f"{grid_results['mean_test_recall_malignant'].max():.3f}, mean NPV from "
          f"{grid_results['mean_test_npv'].min():.3f} to {grid_results['mean_test_npv'].max():.3f}")

# %% [markdown]
# The two maps pull in different directions. The two most strongly regularised L1
# models (the smallest `C`, right column) have by far the lowest NPV: they call
# more benign tumours malignant. One of them also has the best recall of the
# malignant class and wins the search for that reason, although its accuracy and
# NPV are among the worst. The choice of the `refit` metric is a decision about
# what matters (notebook 01's costs), not a technicality. Now what the `best_*`
# attributes are, checked against `cv_results_`:

# %%
refit_means = search.cv_results_["mean_test_recall_malignant"]
print("best_index_ :", search.best_index_)
print("the first candidate of rank 1:", int(np.flatnonzero(search.cv_results_["rank_test_recall_malignant"] == 1)[0]))
print("best_params_ == cv_results_['params'][best_index_]:",
      search.best_params_ == search.cv_results_["params"][search.best_index_])
print("best_score_ == max of mean_test_recall_malignant:", search.best_score_ == refit_means.max())
print("best_estimator_ refitted on all", len(y_train), "training rows:",
      search.best_estimator_[-1].coef_.shape)

# %% [markdown]
# - `best_index_` points into `cv_results_`: the first candidate ranked 1 for the
#   `refit` metric (the notes' `np.argmax` gives the same index, because `argmax`
#   also returns the first maximum);
# - `best_params_` is that candidate's parameters, `best_score_` its mean
#   cross-validated score for the `refit` metric only;
# - `best_estimator_` is a fresh model with those parameters fitted on all the
#   training data (that is what `refit` does), used by `search.predict`.
#
# With several scorers and no `refit` string, none of these exist: the search
# cannot know which metric decides.
#
# ### The cost of a grid: O(n^m)
#
# With m hyperparameters of n values each, the grid has n^m candidates, each
# fitted k times:

# %%
n_values, k = 5, 5
costs = pd.DataFrame({"candidates": [n_values**m for m in range(1, 7)]}, index=pd.RangeIndex(1, 7, name="m"))
costs["fits (5-fold)"] = costs["candidates"] * k
costs["hours at 1 s per fit"] = costs["fits (5-fold)"] / 3600
print(costs.to_string(float_format="{:.2f}".format))

# %% [markdown]
# Five values for each of six hyperparameters already take close to a day of fits
# at one second each (last row), and every added hyperparameter multiplies that by five. Grids are fine for two or three hyperparameters; beyond that we
# need to choose the candidates more cleverly.

# %% [markdown]
# ## 4. Random search
#
# `RandomizedSearchCV` draws `n_iter` candidates from distributions: a list is
# sampled uniformly, `scipy.stats.randint(a, b)` gives integers from a to b - 1,
# `loguniform(a, b)` spreads values evenly over the orders of magnitude between a
# and b, the right choice for scale-like hyperparameters such as `C`, a learning
# rate or a regularisation strength (the notes' `uniform(0, 4)` for `C` can even
# draw values near 0). Here a decision tree with four hyperparameters and ten
# candidates:

# %%
distributions = {"criterion": ["gini", "entropy"], "max_depth": randint(2, 21),
                 "min_samples_leaf": randint(1, 41), "ccp_alpha": loguniform(1e-4, 1e-1)}
random_search = RandomizedSearchCV(DecisionTreeClassifier(random_state=RANDOM_STATE), distributions, n_iter=10,
                                   cv=cv5, random_state=RANDOM_STATE).fit(X_train, y_train)
drawn = pd.DataFrame(random_search.cv_results_["params"]).assign(
    accuracy=random_search.cv_results_["mean_test_score"])
print(drawn.to_string(float_format="{:.4f}".format))
best_tree = {k: (round(float(v), 5) if k == "ccp_alpha" else v) for k, v in random_search.best_params_.items()}
print("best:", best_tree, f"accuracy {random_search.best_score_:.4f}")

# %% [markdown]
# Every candidate is a fresh draw, so the ten trees differ in all four
# hyperparameters at once. `random_state` makes the draws reproducible. The
# budget is set by `n_iter`, whatever the number of hyperparameters.
#
# ### Random vs grid at the same budget (Bergstra and Bengio)
#
# The notes cite Bergstra and Bengio (2012): when only a few hyperparameters
# matter, random search finds better values than a grid of the same size. The
# reason is geometric. A 3 x 3 grid tries only **3** values of each
# hyperparameter; 9 random points try **9** different values of each. If one of
# the two does not matter, the grid wastes two thirds of its budget repeating the
# same three values of the one that does.
#
# `LogisticObjective` (in `helpers.search`) scores a scaled logistic regression on
# a fixed validation half of the training data by its log loss (lower is better),
# for `C` between 1e-4 and 1e2 (it matters a lot) and the solver's tolerance `tol`
# between 1e-6 and 1e-2 (the Newton solver converges in a few steps whatever it
# is: it hardly matters). One evaluation is one fit, so we can repeat the random
# search with many seeds. `ParameterGrid` and `ParameterSampler` are the engines
# of `GridSearchCV` and `RandomizedSearchCV`.

# %%
objective_lr = LogisticObjective(X_train, y_train, random_state=RANDOM_STATE)
(c_low, c_high), (tol_low, tol_high) = LogisticObjective.C_RANGE, LogisticObjective.TOL_RANGE
grid_points = list(ParameterGrid({"C": np.geomspace(c_low, c_high, 3), "tol": np.geomspace(tol_low, tol_high, 3)}))
grid_losses = [objective_lr.loss(**p) for p in grid_points]
random_space = {"C": loguniform(c_low, c_high), "tol": loguniform(tol_low, tol_high)}
seeds = range(10)
random_runs = {seed: list(ParameterSampler(random_space, n_iter=9, random_state=seed)) for seed in seeds}
random_best = np.array([min(objective_lr.loss(**p) for p in points) for points in random_runs.values()])
c_scan = np.geomspace(c_low, c_high, 25)
scan = np.array([objective_lr.loss(C, 1e-4) for C in c_scan])
tol_effect = max(abs(objective_lr.loss(1.0, tol) - objective_lr.loss(1.0, 1e-4)) for tol in (tol_low, tol_high))
print(f"tol from {tol_low:g} to {tol_high:g} changes the loss at C = 1 by at most {tol_effect:.5f}")
print(f"C from {c_low:g} to {c_high:g} moves it from {scan.max():.3f} to {scan.min():.3f}")
print(f"distinct values of C tried: grid {len({p['C'] for p in grid_points})}, random "
      f"{len({p['C'] for p in random_runs[0]})}")
print(f"best loss of the 3 x 3 grid:             {min(grid_losses):.4f}")
print(f"best loss of 9 random points, {len(random_best)} seeds: median {np.median(random_best):.4f}, "
      f"from {random_best.min():.4f} to {random_best.max():.4f}")
print(f"random beats the grid in {np.sum(random_best < min(grid_losses))} of {len(random_best)} seeds; "
      f"best loss on a fine scan of C: {scan.min():.4f}")

# %%
fig, (ax_plane, ax_c) = plt.subplots(1, 2, figsize=(11, 4))
ax_plane.plot([p["C"] for p in grid_points], [p["tol"] for p in grid_points], "s", ms=10, label="3 x 3 grid")
ax_plane.plot([p["C"] for p in random_runs[0]], [p["tol"] for p in random_runs[0]], "o", ms=8,
              label="9 random points (seed 0)")
ax_plane.set(xscale="log", yscale="log", xlabel="C (important)", ylabel="tol (unimportant)",
             title="The same budget of 9 fits")
ax_plane.legend(fontsize=10, loc="upper left", bbox_to_anchor=(0, -0.2), ncol=2, frameon=False)
ax_c.plot(c_scan, scan, color=style.NEUTRAL, label="validation log loss")
for points, marker, name in ((grid_points, "s", "grid"), (random_runs[0], "o", "random")):
    cs = sorted({p["C"] for p in points})
    ax_c.plot(cs, [objective_lr.loss(C, 1e-4) for C in cs], marker, ms=9, alpha=0.8, label=f"values of C: {name}")
_ = ax_c.set(xscale="log", xlabel="C", ylabel="log loss", title="What each search learns about C")
ax_c.legend(fontsize=10)
for ax in (ax_plane, ax_c):
    ax.minorticks_off()  # one tick a decade: easier to read, and far quicker to draw on log axes
describe(ax_plane, f"Left: the (C, tol) plane, both log scales: the 3 x 3 grid (squares) tries "
                   f"{len({p['C'] for p in grid_points})} distinct values of C, the 9 random points (circles) "
                   f"{len({p['C'] for p in random_runs[0]})}")
describe(ax_c, f"Right: the validation log loss against C (grey line, from {scan.max():.3f} down to {scan.min():.3f}) "
               f"with the values of C each search tried marked on it: best of the grid {min(grid_losses):.4f}, best "
               f"of the random points (seed 0) {random_best[0]:.4f}")
show(fig, f"Two panels on grid against random search with the same budget of 9 fits: tol hardly matters (at most "
          f"{tol_effect:.5f} in loss), C does; random search beats the grid in {np.sum(random_best < min(grid_losses))} "
          f"of {len(random_best)} seeds")

# %% [markdown]
# Projected on the axis that matters (right), the grid has three points and misses
# the valley of the loss; the random points cover it far better, and the
# unimportant `tol` costs them nothing. Over the ten seeds, random search beats
# the grid in the proportion printed above and lands close to the best loss of a
# fine scan of `C`. Random search is not magic: with 9 points it can also be
# unlucky (the worst seed), and with only important hyperparameters a grid is as
# good. But one rarely knows in advance which hyperparameters matter.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("06.random-vs-grid")


# %% [markdown]
# ## 5. Successive halving
#
# Most candidates of a search are clearly bad after a cheap look. **Successive
# halving** evaluates all candidates with a small budget (here: few training
# rows), keeps the best 1/`factor` of them, multiplies the budget by `factor`, and
# goes on for a number of rounds fixed in advance (`n_iterations_`), as many as
# fit between the smallest budget (`min_resources`) and the largest
# (`max_resources`, by default all the training rows). The last round's budget is
# the smallest budget times `factor` to the power of the number of rounds minus
# one, so it can stay a little below all the rows, and the last round can hold
# more than one candidate: the search keeps the best of them. Each budget counts
# the rows given to the cross-validation, and each fit of the 3-fold
# cross-validation trains on about two thirds of them. An SVM with a 4 x 4 grid
# over `C` and `gamma`, first as a full grid, then halved with `factor=3`, both
# with 3-fold cross-validation to keep this section quick:

# %%
svm = make_pipeline(StandardScaler(), SVC())
svm_grid = {"svc__C": [0.1, 1.0, 10.0, 100.0], "svc__gamma": [0.001, 0.01, 0.1, 1.0]}
cv3 = StratifiedKFold(n_splits=3, shuffle=True, random_state=RANDOM_STATE)
full = GridSearchCV(svm, svm_grid, cv=cv3).fit(X_train, y_train)
halving = HalvingGridSearchCV(svm, svm_grid, cv=cv3, factor=3, random_state=RANDOM_STATE).fit(X_train, y_train)
rounds = pd.DataFrame({"candidates": halving.n_candidates_, "rows given to the 3-fold CV": halving.n_resources_,
                       "rows each fit trains on (about 2/3)": [r - r // 3 for r in halving.n_resources_]},
                      index=pd.RangeIndex(1, halving.n_iterations_ + 1, name="round"))
print(rounds.to_string())
print(f"{halving.n_iterations_} rounds, fixed in advance; the last one uses {halving.n_resources_[-1]} of the "
      f"{len(y_train)} training rows and keeps the best of its {halving.n_candidates_[-1]} candidates")
full_rows = len(full.cv_results_["params"]) * len(y_train)
halving_rows = sum(c * r for c, r in zip(halving.n_candidates_, halving.n_resources_))
print(f"fits: full grid {len(full.cv_results_['params']) * 3}, halving {sum(halving.n_candidates_) * 3}; "
      f"rows used for fitting, relative to the full grid: {halving_rows / full_rows:.2f}")
print(f"full grid:  {full.best_params_}, accuracy {full.best_score_:.4f}")
print(f"halving:    {halving.best_params_}, accuracy {halving.best_score_:.4f} "
      f"(last round, {halving.n_resources_[-1]} rows)")
print(f"the halving winner's score in the full grid: "
      f"{full.cv_results_['mean_test_score'][full.cv_results_['params'].index(halving.best_params_)]:.4f}")

# %% [markdown]
# The first round fits all 16 candidates on a few dozen rows, the last round
# only the survivors on nearly all of them. Halving runs *more* fits than the grid (every
# round refits its survivors), but on fewer rows: it uses a fraction of the rows
# the grid fits on. On data this small the fixed cost per fit dominates and the
# time barely changes; the saving is real when fitting time grows with the rows
# (large data, slow models). The price is
# that a candidate must look good early to survive, and a model that needs many
# rows to shine can be dropped. Here the halving's winner differs from the full
# grid's, but in the full grid's own scores the two tie.
#
# ### `HalvingRandomSearchCV` (optional)
#
# The same with random candidates. By default (`n_candidates="exhaust"`) it draws
# as many candidates as the rounds can afford, given the smallest budget
# `min_resources` (here 40 rows) and `factor`; its last round uses 360 rows, the
# largest 40 x 3^k that fits in the 426:

# %%
svm_space = {"svc__C": loguniform(0.1, 1000), "svc__gamma": loguniform(1e-4, 1)}
halving_random = HalvingRandomSearchCV(svm, svm_space, cv=cv3, factor=3, random_state=RANDOM_STATE,
                                       min_resources=40).fit(X_train, y_train)
print("candidates per round:", halving_random.n_candidates_, "rows per round:", halving_random.n_resources_)
print({k: round(float(v), 4) for k, v in halving_random.best_params_.items()},
      f"accuracy {halving_random.best_score_:.4f}")

# %% [markdown]
# Successive halving is a search strategy on top of any sampler of candidates;
# Optuna's pruners (section 8) apply the same idea to trials that report how they
# are doing while they run.

# %% [markdown]
# ## 6. Optuna: objective, trials, study
#
# Optuna turns the search around: instead of a list of candidates, we write an
# **objective** function that receives a `trial`, asks it for values
# (`trial.suggest_float`, `suggest_int`, `suggest_categorical`), trains and
# returns a score. A **study** calls the objective again and again; its **sampler**
# picks each trial's values. The default, TPE (section 7), draws its first 10
# trials at random and only then starts to use the results so far. The notes'
# steps, on the logistic regression of section 4:

# %%
def objective(trial):
    """Validation log loss for a C and a tol chosen by the trial."""
    C = trial.suggest_float("C", 1e-4, 1e2, log=True)  # log=True: like loguniform
    tol = trial.suggest_float("tol", 1e-6, 1e-2, log=True)
    return objective_lr.loss(C, tol)


def print_improvements(study, trial):
    """Callback: print a line whenever a trial beats the best value so far."""
    if trial.state == optuna.trial.TrialState.COMPLETE and study.best_trial.number == trial.number:
        print(f"trial {trial.number:2d}: new best log loss {trial.value:.4f} at C = {trial.params['C']:.4g}")


study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=RANDOM_STATE))
study.optimize(objective, n_trials=20, callbacks=[print_improvements])
print(f"{len(study.trials)} trials; best value {study.best_value:.4f}, best parameters "
      f"{ {k: float(f'{v:.4g}') for k, v in study.best_params.items()} }")

# %% [markdown]
# The callback shows the search at work. The improvements up to trial 9 come from
# TPE's random start-up (`n_startup_trials=10`): those ten trials are exactly the
# draws a `RandomSampler` with the same seed makes (section 7 checks it). From
# trial 10 on, TPE samples where its model of the good trials puts them, and
# trial 15 lands near the best `C`. (Optuna's own
# progress bar, `show_progress_bar=True`, draws on the error stream, which we keep
# out of the committed notebook; a callback is the quiet alternative.) The best
# log loss is close to the fine scan of section 4 after 20 fits.
#
# `study.trials_dataframe()` gives every trial as a table:

# %%
print(study.trials_dataframe(attrs=("number", "value", "params", "state")).head(5)
      .to_string(index=False, float_format="{:.4g}".format))

# %% [markdown]
# ## 7. Samplers compared at the same budget
#
# A sampler decides which values the next trial tries. Random search ignores the
# results so far; **Bayesian optimisation** learns from them. It keeps a cheap
# statistical model of the objective, the **surrogate**, fitted to the trials run
# so far, and asks it where the next trial is most worth running (the
# **acquisition function**). First by hand, on one hyperparameter; then how
# Optuna's TPE does the same differently; then four samplers compared.
#
# ### Bayesian optimisation by hand: a Gaussian process and expected improvement
#
# The objective: the validation log loss of section 4 as a function of one number,
# x = log10(C), from −4 to 2 (`tol` fixed at 1e-4, where it hardly matters). Three
# trials have been run. A **Gaussian process** (`GaussianProcessRegressor`, wrapped
# in `fit_surrogate` of `helpers.search`) is a prior over functions: the values at
# two points x and x' are jointly normal, correlated by a kernel that fades with
# the distance |x − x'| (here a Matérn kernel over about one unit of x, one decade
# of `C`). Conditioned on the trials, it gives at every x a normal distribution
# for the unknown loss, f(x) ~ N(m(x), s(x)²): the mean m passes through the
# trials, and the standard deviation s is 0 there and grows between and beyond
# them.
#
# Where should the next trial go? With f* the best (lowest) loss so far, a trial
# at x **improves** by I(x) = max(f* − f(x), 0). Its expectation under the
# surrogate, the **expected improvement**, has a closed form: with
# z = (f* − m(x)) / s(x), Φ and φ the standard normal distribution and density,
#
# EI(x) = (f* − m(x)) Φ(z) + s(x) φ(z).
#
# The first term rewards a low mean (**exploitation**), the second a large
# uncertainty (**exploration**). `expected_improvement` computes the formula,
# `expected_improvement_mc` the definition itself by drawing 200,000 values of
# f(x) from the surrogate and averaging the improvement; the two must agree
# within the Monte Carlo error.

# %%
def loss_at(log_c):
    """The validation log loss at C = 10 ** log_c (tol fixed): one hyperparameter, to draw."""
    return objective_lr.loss(10.0**log_c, 1e-4)


log_c_bounds = (float(np.log10(c_low)), float(np.log10(c_high)))
bo_steps = bayesian_optimisation(loss_at, [-3.5, -1.5, 1.5], bounds=log_c_bounds, n_steps=4)
first = bo_steps[0]
print("three trials: " + ", ".join(f"log10 C = {x:+.1f} -> loss {v:.4f}" for x, v in zip(first.x_seen, first.y_seen)))
print(f"best so far f* = {first.best:.4f}")
probe = [int(np.argmax(first.ei)), int(np.argmin(np.abs(first.grid - 1.0))), int(np.argmax(first.sd))]
mc_ei, mc_se = expected_improvement_mc(first.mean[probe], first.sd[probe], first.best, n_draws=200_000,
                                       random_state=RANDOM_STATE)
print(pd.DataFrame({"log10 C": first.grid[probe], "mean m": first.mean[probe], "sd s": first.sd[probe],
                    "EI (formula)": first.ei[probe], "EI (Monte Carlo)": mc_ei, "MC std. error": mc_se,
                    "gap in std. errors": (mc_ei - first.ei[probe]) / mc_se},
                   index=["highest EI", "log10 C = 1", "largest sd"]).to_string(float_format="{:.5f}".format))
print(f"next trial: log10 C = {first.x_next:+.2f} (C = {10**first.x_next:.3g}), loss {first.y_next:.4f}")

# %% [markdown]
# The formula and the Monte Carlo estimate agree to within about one standard
# error at every point: the closed form is just the expectation written out. All
# three points have a mean *above* f*: here the expected improvement comes from the
# uncertainty, the wide gap between the trials at −1.5 and +1.5. The highest EI is
# not where the uncertainty is largest (the last row) but a little towards the best
# trial, trading some uncertainty for a lower mean. Each step then adds the new
# trial, refits the surrogate and recomputes EI. Four steps, one per column, two
# to a figure (the grey line is the true loss, which the search never sees; it
# costs one fit per point to draw):

# %%
truth_x = np.linspace(*log_c_bounds, 61)
truth = (truth_x, [loss_at(x) for x in truth_x])
ei_top = 1.05 * max(step.ei.max() for step in bo_steps)  # every step's EI on one scale


def bo_steps_figure(first, last):
    """Steps ``first + 1`` to ``last``, one per column, and the figure's summary."""
    steps = bo_steps[first:last]
    fig, axes = plt.subplots(2, len(steps), figsize=(13, 5.5), sharex=True, sharey="row",
                             height_ratios=[3, 2], squeeze=False)
    plot_bo_steps(steps, axes, truth=truth, x_label="log10 C", first=first + 1,
                  ylim=(0.0, 0.7), ei_top=ei_top)
    axes[0, 0].set_ylabel("log loss")
    trials = ", ".join(f"{step.x_next:+.2f}" for step in steps)
    return fig, (f"Bayesian optimisation of the log loss over log10 C, steps {first + 1} to {last} "
                 f"of {len(bo_steps)}: a Gaussian-process surrogate (top) and its expected "
                 f"improvement (EI, bottom, one scale for all steps). The next trials, at log10 C "
                 f"= {trials}, reach a loss of {min(step.y_next for step in steps):.4f}; a fine "
                 f"scan's best is {min(truth[1]):.4f}")


fig, alt = bo_steps_figure(0, 2)
show(fig, alt)
fig, alt = bo_steps_figure(2, 4)
show(fig, alt)
print("trials chosen by EI: " + ", ".join(f"{step.x_next:+.2f} -> {step.y_next:.4f}" for step in bo_steps))
print(f"best loss after {len(bo_steps)} steps: {min(bo_steps[-1].best, bo_steps[-1].y_next):.4f}; "
      f"best of a fine scan of C (section 4): {scan.min():.4f}")

# %% [markdown]
# The first step, sent into the gap by the uncertainty, lands in the valley. With a
# trial there, the band narrows around it and EI shrinks everywhere; the next steps
# probe on either side of the new best point and then between them, where the
# band is still widest. Seven fits in all (three to start, four chosen) come within
# a few ten-thousandths of the best loss of a 25-point scan. On one cheap
# hyperparameter a scan is simpler; the point of the surrogate is that it makes
# each expensive trial count.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("06.expected-improvement")


# %% [markdown]
# Libraries differ in the surrogate and the acquisition. scikit-optimize and
# Optuna's `GPSampler` use a Gaussian process as here (Optuna's needs PyTorch,
# which this course does not install, and maximises the logarithm of the expected
# improvement, logEI, which stays accurate where EI is a tiny number, rather than
# EI itself); they also fit the kernel's length scale,
# which `fit_surrogate` fixes because three trials cannot tell it.
#
# ### How TPE differs: l(x) and g(x), after a random start-up
#
# Optuna's default, the **Tree-structured Parzen Estimator** (Bergstra et al.,
# 2011), turns the question around. Instead of modelling the loss at each x, it
# splits the trials so far into the **good** ones (Optuna: the best ⌈0.1 n⌉, at
# most 25) and the others, and estimates two densities over the hyperparameter:
# l(x) of the good trials and g(x) of the others (Parzen estimators, a sum of
# small bumps, one per trial). Bergstra et al. show that, under this model,
# maximising expected improvement is maximising l(x) / g(x). Optuna draws 24
# candidates from l (`n_ei_candidates`) and runs the one of highest l(x) / g(x).
# In Optuna 5, `TPESampler(multivariate=None)`, the default, means the
# **multivariate** TPE for a study with one objective (and the independent one
# for several objectives): after the start-up, l and g are joint densities over
# all the hyperparameters, here (C, tol) together, so TPE can follow a ridge
# where a good C needs a particular tol. The original TPE of Bergstra et al.
# modelled each hyperparameter alone; the figure below shows l and g over C
# alone, as that version did, which is why it says "simplified". Every TPE study
# of this notebook runs the joint model (the cell below asks the sampler which
# parameters it models together).
#
# Before it has trials to split, TPE draws at random: its first
# `n_startup_trials=10` trials are plain random search. With the same seed they
# are exactly `RandomSampler`'s:

# %%
random_10 = optuna.create_study(direction="minimize", sampler=optuna.samplers.RandomSampler(seed=RANDOM_STATE))
random_10.optimize(objective, n_trials=10)
print("TPE's first 10 trials (section 6) = RandomSampler(seed=0)'s 10:",
      all(a.params == b.params for a, b in zip(study.trials[:10], random_10.trials)))
joint = study.sampler.infer_relative_search_space(study, study.trials[-1])
print("parameters the default TPESampler models jointly:", sorted(joint))
log_c_trials = np.log10([t.params["C"] for t in study.trials])
tpe_view = tpe_densities(log_c_trials, [t.value for t in study.trials], grid=np.linspace(*log_c_bounds, 301),
                         bandwidth=0.5)
print(f"after {len(study.trials)} trials: {tpe_view['good'].size} good (loss <= {tpe_view['threshold']:.4f}), "
      f"{tpe_view['bad'].size} others; l/g highest at log10 C = {tpe_view['x_next']:+.2f}")

# %%
fig, ax = plt.subplots(figsize=(8, 3.8))
plot_tpe_densities(tpe_view, ax=ax, x_label="log10 C")
_ = ax.set(title=f"TPE's view of C after the {len(study.trials)} trials of section 6 (simplified)")
show(fig, f"TPE's two densities over log10 C after {len(study.trials)} trials: l(x) of the {tpe_view['good'].size} "
          f"best trials and g(x) of the other {tpe_view['bad'].size}; the ratio l/g is highest at log10 C = "
          f"{tpe_view['x_next']:+.2f}")

# %% [markdown]
# With 20 trials only the best two are "good", so l(x) is two bumps near the
# valley and g(x) spreads over everything else: the ratio points at the valley.
# (`tpe_densities` uses one fixed bump width; Optuna's estimator adapts the widths
# and adds a broad prior, so its numbers differ, not its logic.) TPE needs no
# matrix algebra, handles categorical and conditional hyperparameters, and costs
# little per trial, which is why it is Optuna's default; a Gaussian process models
# the loss itself and often needs fewer trials on a few continuous ones.
#
# ### Four samplers, at a budget where TPE can act
#
# Four of Optuna's samplers, each given 40 trials, four times with different seeds
# (`sampler_comparison` in `helpers.search` runs one study per sampler and seed):
#
# - `RandomSampler`: independent draws, as `RandomizedSearchCV`;
# - `TPESampler`: random for its first 10 trials, then as above;
# - `QMCSampler`: quasi-Monte Carlo (a scrambled Sobol sequence), random-looking
#   points that fill the space more evenly than random ones;
# - `GridSampler`: a grid, here 4 x 4; it must be given the `search_space`, and the
#   study stops once the 16 points are done.
#
# `QMCSampler` is marked experimental in Optuna 5: creating one emits an
# `ExperimentalWarning`, a notice that its interface may change. We ignore that
# category only while creating it.

# %%
def qmc_sampler(seed):
    """A scrambled Sobol QMC sampler (its experimental-API notice silenced here only)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)  # Optuna's experimental notice
        return optuna.samplers.QMCSampler(qmc_type="sobol", scramble=True, seed=seed)


grid_space = {"C": np.geomspace(c_low, c_high, 4).tolist(), "tol": np.geomspace(tol_low, tol_high, 4).tolist()}
samplers = {
    "random": lambda seed: optuna.samplers.RandomSampler(seed=seed),
    "TPE": lambda seed: optuna.samplers.TPESampler(seed=seed),
    "QMC": qmc_sampler,
    "grid 4 x 4": lambda seed: optuna.samplers.GridSampler(grid_space, seed=seed),
}
comparison = sampler_comparison(objective, samplers, seeds=range(4), n_trials=40)
checkpoints = {}
for n in (10, 16, 40):
    at_n = comparison[comparison["trial"] == n].groupby("sampler", sort=False)["best_so_far"]
    checkpoints[(f"after {n} trials", "median")] = at_n.median()
    checkpoints[(f"after {n} trials", "worst seed")] = at_n.max()
print("best validation log loss so far, over 4 seeds (the grid has only 16 points):")
print(pd.DataFrame(checkpoints).reindex(list(samplers)).to_string(float_format="{:.4f}".format, na_rep="-"))
same_start = all(np.array_equal(comparison.query("sampler == 'random' and seed == @s and trial <= 10")["value"],
                                comparison.query("sampler == 'TPE' and seed == @s and trial <= 10")["value"])
                 for s in range(4))
print(f"TPE's first 10 trials equal random search's, seed by seed: {same_start}; best of a fine scan of C: "
      f"{scan.min():.4f}")

# %%
fig, ax = plt.subplots(figsize=(8, 4))
plot_best_so_far(comparison, ax=ax)
ax.axvline(10.5, color=style.NEUTRAL, lw=1, ls=":")
_ = ax.set(ylabel="best validation log loss so far", ylim=(0.075, 0.17))
final = comparison.groupby(["sampler", "seed"], sort=False)["best_so_far"].last().groupby("sampler", sort=False)
show(fig, f"Best validation log loss so far over up to 40 trials for {comparison['sampler'].nunique()} samplers, "
          f"median over 4 seeds, a dotted line after TPE's 10 random trials: "
          + ", ".join(f"{name} ends at {value:.4f}" for name, value in final.median().items()))

# %% [markdown]
# Read the table by columns:
#
# - **after 10 trials** random search and TPE are the same runs, value for value:
#   any comparison of TPE with random search at 10 trials or fewer compares
#   random search with itself (the 16-trial comparison this notebook used to make
#   was mostly that);
# - **from trial 11 on** TPE uses the results: by trial 16 its median and its
#   worst seed are already below random search's, and by trial 40 every seed is
#   within about a ten-thousandth of the best loss of the fine scan, while random
#   search's worst seed is still clearly above it;
# - QMC's evenly spread points start well and stay close to TPE;
# - the grid gives the same result for every seed (only the order of its 16 points
#   changes). It does well here only because one of its four values of `C`, 1,
#   happens to lie in the valley of the loss; shift the range and it misses, as the
#   3 x 3 grid of section 4 did.
#
# On a problem this small the best losses differ by a few thousandths, and they
# differ little at the end of a long enough search. What grows with the cost of a
# trial is the value of needing **fewer** trials to get there: 30 trials saved are
# a fraction of a second here, 30 days for a network trained for a day each.
# Compare samplers over several seeds, at a budget beyond their random start-up,
# never one run each.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("06.tpe-startup")


# %% [markdown]
# **Erratum.** The notes' list of samplers does not run with Optuna 5 as written:
#
# - `GridSampler(seed=42)` raises a `TypeError`: a grid sampler needs its
#   `search_space` (a dict of lists), as above;
# - `MOTPESampler` no longer exists (multi-objective TPE is `TPESampler` with
#   several directions); `NSGAIIISampler` is NSGA-III, not NSGA-II (that is
#   `NSGAIISampler`);
# - `intersection_search_space` and `IntersectionSearchSpace` are not samplers but
#   tools that samplers use internally;
# - `CmaEsSampler` needs the separate `cmaes` package, which this course does not install.

# %%
try:
    optuna.samplers.GridSampler(seed=42)
except TypeError as error:
    print(f"TypeError: {error}")
print("optuna.samplers has MOTPESampler:", hasattr(optuna.samplers, "MOTPESampler"))
print("NSGAIIISampler's docstring begins:", optuna.samplers.NSGAIIISampler.__doc__.strip().splitlines()[0])

# %% [markdown]
# ## 8. Pruning: stopping bad trials early
#
# A **pruner** stops a trial that is doing worse than earlier trials at the same
# stage. For that, the objective must report intermediate values while it runs
# (`trial.report(value, step)`) and ask `trial.should_prune()`, raising
# `optuna.TrialPruned` when told to. `TreeObjective` (in `helpers.search`) is the
# notes' decision-tree objective (`criterion`, `max_depth` from 2 to 21) with the
# cross-validation written out: after each of the five folds it reports the mean
# accuracy so far, so a pruned trial skips its remaining folds. Steps are numbered
# from 0 (the first fold is step 0). After the last fold it reports but does not
# ask: the trial is finished, and pruning it then would throw away a complete
# score that cost as much as any other, and saves nothing.
#
# **Erratum.** The notes' objective calls `cross_validate` for all five folds and
# then reports once, `trial.report(metric, step=0)`. By then the work is done:
# pruning can only discard a finished trial, it saves nothing. Report an
# intermediate value per fold (or per epoch for a model trained in epochs).
#
# Thirty trials of TPE (seed 42, as in the notes) with the `MedianPruner` (prune
# when the trial's best running mean so far is below the median of the completed
# trials' values at the same step,
# once 5 trials have finished, from step `n_warmup_steps=1` on, i.e. after the
# second fold at the earliest) and with the `HyperbandPruner`:

# %%
tree_objective = TreeObjective(X_train, y_train, random_state=RANDOM_STATE)
pruners = {
    "median": optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=1),
    "hyperband": optuna.pruners.HyperbandPruner(min_resource=1, max_resource=5, reduction_factor=3),
}
studies = {}
for name, pruner in pruners.items():
    studies[name] = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=42),
                                        pruner=pruner, study_name=f"trees, {name}")
    studies[name].optimize(tree_objective, n_trials=30)
summary = pd.DataFrame({name: pruning_summary(study, n_steps=tree_objective.n_splits)
                        for name, study in studies.items()}).T
print(summary[["trials", "pruned", "fits", "fits_without_pruning", "saved", "best_value"]].to_string(
    formatters={"saved": "{:.0%}".format, "best_value": "{:.4f}".format}))
print("best parameters:", {name: study.best_params for name, study in studies.items()})
for name, pruned_study in studies.items():
    folds_run = sorted(len(t.intermediate_values) for t in pruned_study.trials
                       if t.state == optuna.trial.TrialState.PRUNED)
    print(f"{name}: folds run by each pruned trial: {folds_run}")
n_brackets = int(np.floor(np.log(5 / 1) / np.log(3))) + 1  # floor(log_3(max_resource / min_resource)) + 1
print(f"Hyperband with folds 1 to 5 and reduction_factor=3 runs {n_brackets} brackets")

# %% [markdown]
# Both pruners stop trials after a few folds and save part of the fits
# (`fits_without_pruning` is what the same trials would have cost run to the end);
# no trial is pruned after its first fold (step 0): the median pruner waits for
# five finished trials and prunes from step 1 on, and Hyperband's most aggressive
# bracket too judges a trial at step 1 at the earliest. Pruning can also stop a
# trial that would have ended well: the pruners trade a little risk for time. On a tree that fits in milliseconds the saving hardly
# matters; on a network trained for hours per trial, it decides whether the search
# is affordable.
#
# **Erratum.** The notes call Hyperband "a more aggressive successive halving".
# It is successive halving run in several **brackets** with different starting
# budgets, each trial assigned to one bracket: the aggressive bracket judges a
# trial from step 1 (after its second fold, as the folds printed above show),
# the cautious one later. It hedges the one choice plain successive halving
# must make: how early a trial can be judged. The number of brackets printed above
# is ⌊log₃(5 / 1)⌋ + 1 for budgets from 1 to 5 folds. Trials that report only once
# (the notes' objective) give every bracket nothing to compare.
#
# ### Optuna's pruners
#
# Every pruner answers the same question at each reported step, "stop this
# trial?", from the intermediate values of this trial and of the others:

# %%
pruner_names = sorted(name for name in dir(optuna.pruners) if name.endswith("Pruner") and name != "BasePruner")
print(f"optuna.pruners in Optuna {optuna.__version__}: {', '.join(pruner_names)}")

# %% [markdown]
# | pruner | stops a trial when... |
# |---|---|
# | `MedianPruner` | its best value so far is worse than the median of the completed trials' values at the same step |
# | `PercentilePruner(q)` | the same with the q-th percentile (q = 25 keeps only the top quarter; the median pruner is q = 50) |
# | `SuccessiveHalvingPruner` | it is not in the best 1/`reduction_factor` at a rung (section 5's idea, asynchronous) |
# | `HyperbandPruner` | successive halving in several brackets, as above |
# | `ThresholdPruner(lower=..., upper=...)` | its value leaves a fixed range: no comparison with other trials |
# | `PatientPruner(wrapped, patience)` | the wrapped pruner says so and the trial has not improved for `patience` steps |
# | `WilcoxonPruner` | a Wilcoxon signed-rank test says it is worse than the best trial on the same instances (folds or data sets evaluated in any order) |
# | `NopPruner` | never |
#
# **`ThresholdPruner`** is the simplest: it needs no other trial at all. With
# `lower=0.9`, a maximised score that falls below 0.9 at any step stops the trial
# (exercise 4 uses it). On the tree objective, a few trials of random search:

# %%
threshold_study = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=RANDOM_STATE),
                                      pruner=optuna.pruners.ThresholdPruner(lower=0.925))
threshold_study.optimize(tree_objective, n_trials=8)
for trial in threshold_study.trials:
    running = ", ".join(f"{v:.3f}" for v in trial.intermediate_values.values())
    print(f"trial {trial.number}: {trial.state.name:8s} running means {running}")

# %% [markdown]
# Every trial whose running mean fell below 0.925 at some fold before the last was
# stopped at that fold; the others ran all five folds. (Random search repeats some
# parameter sets here: 2 criteria times 20 depths is a small space.) A fixed threshold suits a score
# with a known floor (no model below the majority baseline is worth finishing);
# when no such floor is known, the pruners that compare trials are the safer choice.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("06.pruning")


# %% [markdown]
# ## 9. Optuna's visualisations
#
# `optuna.visualization.matplotlib` draws a study with matplotlib, as in the notes
# (their `pip install optuna plotly` is needed only for the interactive plotly
# versions in `optuna.visualization`, which this course does not install). These
# functions are marked experimental and set
# a global "ggplot" style; `optuna_plot` (in `helpers.search_plots`) keeps both the
# experimental-API notice and the style change to the one call. On the Hyperband
# study of section 8:

# %%
hyperband_study = studies["hyperband"]
ax = optuna_plot(optuna.visualization.matplotlib.plot_optimization_history, hyperband_study)
_ = ax.set(ylabel="mean accuracy (5 folds)")
trial_states = pd.Series([t.state.name for t in hyperband_study.trials]).value_counts()
show(ax.figure, f"Optuna's optimization history of the Hyperband study: one dot per completed trial "
                f"({trial_states.get('COMPLETE', 0)} completed, {trial_states.get('PRUNED', 0)} pruned) and the best "
                f"value so far as a line, ending at a mean accuracy of {hyperband_study.best_value:.4f}")

# %% [markdown]
# The history: one dot per completed trial (pruned ones have no final value), and
# the best value so far as a line. Most of the gain comes in the first trials.

# %%
ax = optuna_plot(optuna.visualization.matplotlib.plot_intermediate_values, hyperband_study)
ax.get_legend().remove()  # one entry per trial: too long to be useful
_ = ax.set(xlabel="fold (step)", ylabel="mean accuracy so far")
steps = [len(t.intermediate_values) for t in hyperband_study.trials]
show(ax.figure, f"Optuna's intermediate values of the Hyperband study: one line per trial, fold by fold; "
                f"{sum(s == max(steps) for s in steps)} of {len(steps)} trials reach fold {max(steps) - 1}, the others "
                f"stop early (pruned)")

# %% [markdown]
# The intermediate values: one line per trial, fold by fold. Lines that stop
# early are the pruned trials.

# %%
ax = optuna_plot(optuna.visualization.matplotlib.plot_param_importances, hyperband_study)
importances = {label.get_text(): bar.get_width() for label, bar in zip(ax.get_yticklabels(), ax.patches)}
show(ax.figure, "Optuna's hyperparameter importances of the Hyperband study, a horizontal bar chart: "
                + ", ".join(f"{name} {value:.2f}" for name, value in sorted(importances.items(), key=lambda kv: -kv[1])))

# %% [markdown]
# Which hyperparameter explains the differences between the completed trials
# (PED-ANOVA, the default in Optuna 5). The importances describe these trials, not
# the model in general: few of the completed trials used `gini`, so the study says little
# about it, and with few trials the importances are themselves noisy.

# %%
ax = optuna_plot(optuna.visualization.matplotlib.plot_parallel_coordinate, hyperband_study)
complete_trials = hyperband_study.trials_dataframe().query("state == 'COMPLETE'")
lowest = complete_trials.loc[complete_trials["value"].idxmin()]
show(ax.figure, f"Optuna's parallel coordinates of the Hyperband study, one line per completed trial through its "
                f"criterion, max_depth and score: {(complete_trials['params_criterion'] == 'entropy').sum()} of "
                f"{len(complete_trials)} used entropy; the lowest score, {lowest['value']:.3f}, had criterion "
                f"{lowest['params_criterion']}; the best has " + ", ".join(
                    f"{k} = {v}" for k, v in hyperband_study.best_params.items()))

# %% [markdown]
# The parallel coordinates: each trial is a line through its value of each
# hyperparameter and its score, coloured by score.

# %%
ax = optuna_plot(optuna.visualization.matplotlib.plot_contour, hyperband_study, params=["criterion", "max_depth"])
show(ax.figure, f"Optuna's contour plot of the score over criterion and max_depth, trials as dots; the best trial has "
                f"criterion {hyperband_study.best_params.get('criterion')} and max_depth "
                f"{hyperband_study.best_params.get('max_depth')}")

# %% [markdown]
# The contour: the score interpolated over pairs of hyperparameters, with the
# trials as dots. It is most useful for two continuous hyperparameters; with a
# categorical one it has only two columns.

# %%
ax = optuna_plot(optuna.visualization.matplotlib.plot_slice, hyperband_study)
late = complete_trials.tail(len(complete_trials) // 3)  # the darkest dots
show(np.ravel(ax)[0].figure, f"Optuna's slice plots of the Hyperband study, one panel per hyperparameter "
                             f"({', '.join(hyperband_study.best_params)}): the score of each completed trial against "
                             f"its value, darker for later trials; the last {len(late)} used max_depth "
                             f"{late['params_max_depth'].min()} to {late['params_max_depth'].max()}")

# %% [markdown]
# The slice plots: the score against each hyperparameter, one dot per trial,
# coloured by trial number; where the late (dark) dots gather is where the
# sampler concentrated.

# %% [markdown]
# ## 10. The notes' decision-tree study, done right
#
# The notes' study, with what changed: TPE with seed 42 and Hyperband as in the
# notes, 30 trials; an objective that reports per fold so the pruner can act; the
# training part of the data only; and no estimator shared between trials (the
# notes create one tree outside the objective and `set_params` it each time,
# which breaks as soon as trials run in parallel threads).

# %%
print(f"Sampler is {hyperband_study.sampler.__class__.__name__}")
print(f"Pruner is {hyperband_study.pruner.__class__.__name__}")
print(f"Best accuracy = {hyperband_study.best_value:.4f}, hyperparameters = {hyperband_study.best_params}")
tuned_tree = tree_objective.model(**hyperband_study.best_params).fit(X_train, y_train)
print(f"refitted on all {len(y_train)} training rows: depth reached {tuned_tree.get_depth()}, "
      f"{tuned_tree.get_n_leaves()} leaves")

# %% [markdown]
# The best trial's mean accuracy over the five folds is the number the notes print.
# It is the maximum over 30 trials, so it is optimistic (section 12); the refitted
# tree is the model one would use, and its honest score comes from data no trial
# has seen.

# %% [markdown]
# ## 11. Persistence and scale: one study, several processes
#
# An in-memory study disappears with the kernel. Given a `storage`, Optuna writes
# every trial to a database as it happens, so a study survives a restart and
# several processes can work on it at once. SQLite needs no server: the study is
# one file, here in `notebooks/optuna_studies/`, a folder git ignores. The
# notebook starts from an empty file each time it runs top to bottom.
# `storage_for` (in `helpers.search`) opens the storage and tells SQLite to wait
# for a lock held by another process instead of failing at once.
#
# First, two **worker processes**. `start_workers` (in `helpers.search`) starts
# two separate Python processes, `python -m helpers.search worker ...`, at the
# same time and returns at once. The notebook started them near the top, in the
# cell after the data (it sets `storage`, `shared_storage` and `workers`), so that
# they could start up and work while the sections in between ran, at a lower
# priority (`nice`) so that they use the cores the notebook leaves free instead of
# slowing it down. Each loads the
# study `trees-workers` from the storage URL and optimises the same
# `TreeObjective` with its own TPE seed; each trial records which worker ran it
# and its number within that worker. The storage hands out the trial numbers, so
# the processes never talk to each other.
#
# In JupyterLite, Python runs inside the browser (Pyodide), which cannot start
# processes. There `start_workers` starts nothing: it returns the two workers'
# commands, and `wait_workers` runs them one after the other in the notebook's own
# process. What this section shows still holds: the storage, not the workers,
# hands out the trial numbers (only the two workers' trials no longer interleave).
#
# This notebook uses the same file for a study of its own, `trees`: several
# processes can share one SQLite file.

# %%
def open_study(seed):
    """Create the study, or load it when the storage already holds one of that name; TPE with this seed."""
    return optuna.create_study(study_name="trees", storage=storage_for(storage), direction="maximize",
                               load_if_exists=True, sampler=optuna.samplers.TPESampler(seed=seed),
                               pruner=optuna.pruners.HyperbandPruner())


stored = open_study(seed=RANDOM_STATE)
stored.optimize(tree_objective, n_trials=4)
print(f"first session: {len(stored.trials)} trials stored")

# %% [markdown]
# Now pretend the kernel restarted: every Python object is gone, only the file
# remains. Calling `open_study` again loads the study instead of creating a new
# one (`load_if_exists=True`) and continues where it stopped. Only the trials are
# stored, not the sampler's random state: a sampler created again with the
# **same** seed replays the same random draws. While TPE is in its random
# start-up (fewer than 10 trials here), the resumed trials would repeat the first
# session's exactly. So the second session passes another seed (or, as Optuna's
# FAQ shows, pickles the sampler with the study and restores it):

# %%
del stored
resumed = open_study(seed=RANDOM_STATE + 1)  # a new seed for a new session
print(f"after the restart: {len(resumed.trials)} trials found")
resumed.optimize(tree_objective, n_trials=3)
print(f"after 3 more: {len(resumed.trials)} trials, numbered {resumed.trials[0].number} to "
      f"{resumed.trials[-1].number}; best accuracy {resumed.best_value:.4f}")
def draws_only(trial):
    """The tree objective's suggestions without its fits: what a sampler draws, for free."""
    trial.suggest_categorical("criterion", ["gini", "entropy"])
    trial.suggest_int("max_depth", tree_objective.max_depth_low, tree_objective.max_depth_high)
    return 0.0


replay = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=RANDOM_STATE))
replay.optimize(draws_only, n_trials=3)
first_session, second_session = resumed.trials[:3], resumed.trials[4:]
print("TPE re-created with the first seed draws the first session's trials again:",
      [t.params for t in replay.trials] == [t.params for t in first_session])
print("the second session, with a new seed, repeats none of them:",
      all(t.params != u.params for t, u in zip(second_session, first_session)))

# %% [markdown]
# The first session's trials are still what TPE learns from once it has ten of
# them; the seed only decides the random draws.
#
# ### The workers' study
#
# `wait_workers` waits for both processes. Which worker got which trial number
# depends on timing, so we print only facts that do not: how many trials there
# are, and whether any was lost or recorded twice.

# %%
processes = wait_workers(workers)
shared = optuna.load_study(study_name="trees-workers", storage=shared_storage)
census = worker_census(shared, expected={0: 4, 1: 4})
print(describe_census(census))
print("both workers exited cleanly with nothing on their error stream:",
      all(p.returncode == 0 and p.stderr == "" for p in processes))

# %% [markdown]
# Eight trials, four from each worker, none lost, none duplicated, and the trial
# numbers form one sequence: the storage, not the workers, keeps the study
# consistent. What keeps the two workers from proposing the same point is
# Optuna 5's TPE default `constant_liar=True`: a trial another worker is still
# running counts as one of the bad trials, so g(x) rises around it and l(x) / g(x)
# steers this worker elsewhere until the result arrives.
#
# ### From one machine to a lab: the storage decides (optional)
#
# The code of the workers does not change with the storage; only the URL does.
# Pointed at a database server, for example
# `postgresql://user:password@db-host:5432/optuna`, the same command can run on
# every machine of a lab or of a class, all filling one study
# (`tests/test_optuna_postgres.py` does exactly this against a real PostgreSQL
# server). The choices:
#
# | storage | URL / object | survives the kernel | several processes | several machines |
# |---|---|---|---|---|
# | in memory (default) | none | no | no | no |
# | SQLite file | `sqlite:///studies/x.db` | yes | yes, on one machine (it locks the file) | no (not over network file systems) |
# | journal file | `JournalStorage(JournalFileBackend("x.log"))` | yes | yes, on one machine | only on a file system with working locks |
# | database server | `postgresql://...`, `mysql+pymysql://...` | yes | yes | yes: the usual way to share a study |
#
# SQLite serialises writes, which is fine for a handful of workers whose trials
# take seconds or more; for many workers or very short trials use a server.

# %% [markdown]
# ## 12. Honest evaluation: the optimism of `best_score_`
#
# `best_score_` is the maximum of several cross-validated scores, each noisy, so it
# is biased upwards (notebook 03, section 9). How much? `optimism_simulation` (in
# `helpers.search`) repeats a search on 30 small samples of `n_train` tumours
# drawn with different seeds: the optimism is a bias, a property of the average
# over samples, and a handful of samples cannot measure it. The rest of the data plays the population: it
# measures the **truth**, the accuracy of the refitted search on tumours it never
# saw. For each seed it reports the search's `best_score_` (3-fold inner CV
# over six tree depths), the nested-CV estimate (the same search inside 3 outer
# folds) and the truth.

# %%
all_X, all_y = datasets.load_breast_cancer(return_X_y=True)
tree_grid = {"max_depth": [1, 2, 3, 5, 8, None]}
n_train = 120
simulation = optimism_simulation(DecisionTreeClassifier(random_state=RANDOM_STATE), tree_grid, all_X, all_y,
                                 n_train=n_train, seeds=range(30))
print(f"{len(simulation)} samples of {n_train} tumours; for each, the other {len(all_y) - n_train} measure the truth")
print("the first five:")
print(simulation[["seed", "best_score", "nested", "truth"]].head().to_string(index=False, float_format="{:.3f}".format))
optimism = simulation["best_score"] - simulation["truth"]
nested_error = simulation["nested"] - simulation["truth"]
for name, error in [("best_score_ - truth", optimism), ("nested - truth     ", nested_error)]:
    print(f"{name}: mean {error.mean():+.4f} +/- {error.std(ddof=1) / np.sqrt(len(error)):.4f} (standard error), "
          f"from {error.min():+.3f} to {error.max():+.3f}; above the truth in {np.sum(error > 0)} of {len(error)}")
print(f"the first 4 samples alone: best_score_ - truth {optimism[:4].mean():+.4f}, "
      f"nested - truth {nested_error[:4].mean():+.4f}")

# %%
fig, ax = plt.subplots(figsize=(12, 4))
plot_optimism(simulation, ax=ax)
show(fig, f"Dot plot of {len(simulation)} small samples: best_score_ is above the truth by {optimism.mean():+.3f} on "
          f"average, the nested estimate by {nested_error.mean():+.3f}")

# %% [markdown]
# `best_score_` sits above the truth on average, by about two standard errors of
# the mean: a modest optimism on a grid of six candidates (it grows with the
# number of candidates a search compares). Two effects pull it in opposite
# directions: it is the maximum of noisy scores, which pushes it up, while each of
# its inner fits sees fewer rows than the refitted model, which pushes it down;
# the first wins here. The nested estimate is not optimistic: it scores each tuned
# tree on rows its own search never saw. Its mean error is within two standard
# errors of zero, and on the low side if anything, since each of its searches
# sees only two thirds of the sample.
#
# Look at the spread, too: on one sample of 120 tumours either estimate can be
# several points off in either direction, far more than the bias. The first four
# samples alone (last line) would have suggested a much larger optimism, and a
# biased nested estimate: four draws of a noisy quantity measure the noise, not the
# bias. Report the nested estimate, or a test set, never `best_score_`, and with
# its uncertainty.
#
# ### Refit and one final test score
#
# Section 3's search, chosen for the recall of malignant tumours, has refitted its
# best candidate on all the training data. Now, once, the test set:

# %%
final_model = search.best_estimator_
test_pred = final_model.predict(X_test)
print(f"test recall of the malignant class: {recall_score(y_test, test_pred, pos_label=0):.4f} "
      f"(cross-validated best_score_: {search.best_score_:.4f})")
print(f"test NPV:      {npv_score(y_test, test_pred):.4f}")
print(f"test accuracy: {accuracy_score(y_test, test_pred):.4f}, on {len(y_test)} tumours "
      f"({np.sum(y_test == 0)} malignant)")
print(f"one malignant tumour more or less found moves the recall by 1 / {np.sum(y_test == 0)} = "
      f"{1 / np.sum(y_test == 0):.3f}")

# %% [markdown]
# This is the number to report for the chosen model. With only the malignant
# tumours of the test set behind it (the count printed above), each one missed
# moves the recall by one over that count (the last line above), so it has a wide
# uncertainty of its own (notebook 03). What must not
# happen now is to go back, change the grid and look at the test set again: it
# would become one more validation set, and its score one more optimistic maximum.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("06.best-score")


# %% [markdown]
# ## Practice
#
# Four graded exercises. Each has a cell for your answer and a cell of tests; run
# both. The visible tests give hints; more tests run when grading. Some tests use
# objects from the sections above (each exercise names them), so run the notebook
# from the top first.

# %% [markdown]
# **Exercise 1 (2 points).** Write `grid_size(param_grid)`: the number of
# candidates a `GridSearchCV` would try. `param_grid` is a dict mapping names to
# lists of values, or a list of such dicts (their candidates add up). Return an
# `int`. Do not use `ParameterGrid`: a test checks it.

# %% nbgrader={"grade": false, "grade_id": "ex1-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def grid_size(param_grid):
    """Number of candidates of a parameter grid (a dict, or a list of dicts)."""
    ### BEGIN SOLUTION
    grids = [param_grid] if isinstance(param_grid, dict) else param_grid
    total = 0
    for one in grids:
        size = 1
        for values in one.values():
            size *= len(values)
        total += size
    return total
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex1-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

from sklearn.model_selection import ParameterGrid

assert "ParameterGrid" not in inspect.getsource(grid_size), "count the candidates yourself (not with ParameterGrid)"
_size1 = grid_size({"C": [1, 2, 3, 4], "l1_ratio": [0, 1]})
assert isinstance(_size1, int), "return an int"
assert _size1 == 8, "a dict's candidates are the product of its lists' lengths (4 x 2 = 8)"
try:
    _size1b = grid_size([{"C": [1, 2]}, {"C": [3], "tol": [1e-4, 1e-3, 1e-2]}])
except (AttributeError, TypeError) as error:
    raise AssertionError(f"{type(error).__name__}: {error}; param_grid may also be a list of dicts") from None
assert _size1b == 5, "a list of dicts: add up the candidates of each dict (2 + 3)"
### BEGIN HIDDEN TESTS
assert "ParameterGrid" not in inspect.getsource(grid_size), "count the candidates yourself (not with ParameterGrid)"
assert type(grid_size(grid)) is int, "return an int (not a NumPy integer: int(...) around np.prod)"
assert grid_size(grid) == len(ParameterGrid(grid)) == 12, "grid of section 2: the product of its lists' lengths, 12"
assert grid_size(svm_grid) == 16, "svm_grid: the product of its lists' lengths, 16"
assert grid_size({"a": [1]}) == 1, "a single value: one candidate"
try:
    _size1h = grid_size([{"a": [1, 2, 3]}, {"b": [1, 2]}, {"c": [0], "d": [1, 2]}])
except Exception as error:
    raise AssertionError(f"grid_size on a list of three dicts raised {error!r}: param_grid may be a list") from None
assert type(_size1h) is int and _size1h == 7, "a list of dicts: add up each dict's product (3 + 2 + 2 = 7)"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2 (2 points).** Write `best_candidate(cv_results, metric)`: the
# parameters (a dict) of the candidate with the highest `mean_test_<metric>` in a
# search's `cv_results_`; among ties, the first one, as `GridSearchCV` does. A
# candidate whose fits failed scores NaN (section 2) and is never the best. The
# tests use `search` from section 3.

# %% nbgrader={"grade": false, "grade_id": "ex2-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def best_candidate(cv_results, metric):
    """Parameters of the first candidate with the highest mean test score for metric."""
    ### BEGIN SOLUTION
    means = np.asarray(cv_results[f"mean_test_{metric}"], dtype=float)
    return cv_results["params"][int(np.nanargmax(means))]   # a failed fit's NaN is never the best
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex2-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
def _best_of2(cv_results, metric):
    """best_candidate, with a KeyError turned into what to fix."""
    try:
        return best_candidate(cv_results, metric)
    except KeyError as error:
        raise AssertionError(
            f"KeyError {error}: read the scores from cv_results['mean_test_' + metric] and find the highest "
            f"yourself; this cv_results holds only {sorted(cv_results)} (rank_test_<metric> is not always there)"
        ) from None


_best2 = _best_of2(search.cv_results_, "recall_malignant")
assert isinstance(_best2, dict), "return the candidate's parameters, a dict from cv_results['params']"
assert _best2 == search.best_params_, "for the refit metric, the answer is search.best_params_"
_ties2 = {"params": [{"a": 1}, {"a": 2}, {"a": 3}], "mean_test_score": [0.5, 0.9, 0.9]}
assert _best_of2(_ties2, "score") == {"a": 2}, "among tied candidates, return the first"
assert _best_of2({"params": [{"b": 0}, {"b": 1}], "mean_test_loss": [-0.4, -0.3]}, "loss") == {"b": 1}, \
    "scores may all be negative (neg_log_loss): start from the first candidate's score, not from 0"
_failed2 = {"params": [{"C": 0}, {"C": 1}, {"C": 2}], "mean_test_score": [np.nan, 0.9, 0.8]}
assert _best_of2(_failed2, "score") == {"C": 1}, \
    ("a failed fit scores NaN (section 2) and is never the best (GridSearchCV ranks it last): "
     "np.argmax picks a NaN, np.nanargmax skips it")
### BEGIN HIDDEN TESTS
_npv2 = search.cv_results_["mean_test_npv"]
assert _best_of2(search.cv_results_, "npv") == search.cv_results_["params"][int(np.argmax(_npv2))], \
    "for metric='npv', the candidate with the highest cv_results['mean_test_npv']"
assert _best_of2(iris_search.cv_results_, "score") == iris_search.best_params_, \
    "iris_search of section 2 has tied candidates: return the first of them, as best_params_"
assert _best_of2({"params": [{"b": 0}, {"b": 1}], "mean_test_x": [-0.2, -0.1]}, "x") == {"b": 1}, \
    "negative scores: the highest is the one closest to 0"
assert _best_of2({"params": [{"c": 1}, {"c": 2}, {"c": 3}, {"c": 4}], "mean_test_s": [0.2, np.nan, 0.7, 0.7]},
                 "s") == {"c": 3}, "skip the failed (NaN) candidate; among tied ones return the first"
assert _best_of2({"params": [{"d": 1}, {"d": 2}], "mean_test_s": [0.1, 0.3], "mean_test_t": [0.3, 0.1]},
                 "t") == {"d": 1}, "use the metric argument: mean_test_<metric>"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3 (3 points).** Write `knn_objective(trial)`, an Optuna objective
# for a k-nearest-neighbours classifier on the training data (`X_train`,
# `y_train`). It must suggest `n_neighbors`, an integer from 1 to 30, and
# `weights`, either `"uniform"` or `"distance"`, then return the mean accuracy of
# `make_pipeline(StandardScaler(), KNeighborsClassifier(...))` over 3-fold
# `cross_val_score` with `cv=StratifiedKFold(n_splits=3, shuffle=True,
# random_state=0)`.

# %% nbgrader={"grade": false, "grade_id": "ex3-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier


def knn_objective(trial):
    """Mean 3-fold accuracy of a scaled k-NN with the trial's n_neighbors and weights."""
    ### BEGIN SOLUTION
    n_neighbors = trial.suggest_int("n_neighbors", 1, 30)
    weights = trial.suggest_categorical("weights", ["uniform", "distance"])
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors, weights=weights))
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    return cross_val_score(knn, X_train, y_train, cv=cv).mean()
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex3-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import optuna
from optuna.distributions import CategoricalDistribution, IntDistribution
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

_study3 = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=3))
try:
    _study3.optimize(knn_objective, n_trials=3)
except Exception as error:
    raise AssertionError(f"knn_objective raised {type(error).__name__}: {error}") from None
_trial3 = _study3.trials[0]
assert _trial3.state == optuna.trial.TrialState.COMPLETE, "the objective should run and return a number"
assert set(_trial3.distributions) == {"n_neighbors", "weights"}, "suggest exactly n_neighbors and weights"
_n3 = _trial3.distributions["n_neighbors"]
assert isinstance(_n3, IntDistribution) and (_n3.low, _n3.high) == (1, 30), \
    "n_neighbors: trial.suggest_int('n_neighbors', 1, 30)"
_w3 = _trial3.distributions["weights"]
assert isinstance(_w3, CategoricalDistribution) and sorted(_w3.choices) == ["distance", "uniform"], \
    "weights: trial.suggest_categorical('weights', ['uniform', 'distance'])"
_knn3 = make_pipeline(StandardScaler(), KNeighborsClassifier(**_trial3.params))
_expected3 = cross_val_score(_knn3, X_train, y_train, cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=0))
assert abs(_trial3.value - _expected3.mean()) < 1e-12, \
    "return the mean 3-fold accuracy of the scaled k-NN with the suggested values (check the cv and the scaler)"
### BEGIN HIDDEN TESTS
_study3h = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=30))
_study3h.optimize(knn_objective, n_trials=3, catch=(Exception,))
for _t3 in _study3h.trials:
    assert _t3.state == optuna.trial.TrialState.COMPLETE, \
        f"trial {_t3.number} of another study did not complete: the objective should run and return a number"
    assert set(_t3.distributions) == {"n_neighbors", "weights"}, "suggest exactly n_neighbors and weights"
    assert _t3.distributions["n_neighbors"] == IntDistribution(1, 30), \
        "n_neighbors: trial.suggest_int('n_neighbors', 1, 30)"
    assert isinstance(_t3.distributions["weights"], CategoricalDistribution) and \
        sorted(_t3.distributions["weights"].choices) == ["distance", "uniform"], \
        "weights: trial.suggest_categorical('weights', ['uniform', 'distance'])"
    _knn3 = make_pipeline(StandardScaler(), KNeighborsClassifier(**_t3.params))
    assert abs(_t3.value - cross_val_score(_knn3, X_train, y_train,
                                           cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=0)).mean()) < 1e-12, \
        f"trial {_t3.number} ({_t3.params}): return the mean 3-fold accuracy of the scaled k-NN with the stated cv"
_fixed3 = optuna.trial.FixedTrial({"n_neighbors": 7, "weights": "distance"})
_knn7 = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=7, weights="distance"))
try:
    _value3 = knn_objective(_fixed3)
except Exception as error:
    raise AssertionError(f"knn_objective with n_neighbors=7, weights='distance' raised {error!r}") from None
assert abs(_value3 - cross_val_score(_knn7, X_train, y_train,
                                     cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=0)).mean()) < 1e-12, \
    "n_neighbors=7, weights='distance': the mean 3-fold accuracy of the scaled k-NN with the stated cv"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 4 (3 points).** Write `report_folds(trial, fold_scores)`, the pruning
# part of an objective: `fold_scores` is a list of fold scores, in order (in a
# real objective each would come from fitting a fold). For each fold `i` (0, 1,
# ...) report the **mean of the scores so far** with `trial.report(mean, step=i)`.
# After every fold but the last, then ask `trial.should_prune()` and raise
# `optuna.TrialPruned()` if it says so. After the last fold report without asking,
# as `TreeObjective` does (section 8): the trial is finished, and pruning it would
# only throw away a complete score. Return the mean of all the scores.

# %% nbgrader={"grade": false, "grade_id": "ex4-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def report_folds(trial, fold_scores):
    """Report the running mean after each fold, prune when told, return the mean."""
    ### BEGIN SOLUTION
    last = len(fold_scores) - 1
    for step in range(len(fold_scores)):
        running_mean = float(np.mean(fold_scores[: step + 1]))
        trial.report(running_mean, step=step)
        if step < last and trial.should_prune():  # never after the last fold: the trial is finished
            raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex4-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import optuna

_study4 = optuna.create_study(direction="maximize", pruner=optuna.pruners.NopPruner())
try:
    _study4.optimize(lambda t: report_folds(t, [0.9, 0.6, 0.9]), n_trials=1)
except Exception as error:
    raise AssertionError(f"report_folds raised {type(error).__name__}: {error}") from None
_t4 = _study4.trials[0]
assert _t4.state == optuna.trial.TrialState.COMPLETE and abs(_t4.value - 0.8) < 1e-12, \
    "without pruning, return the mean of all fold scores"
assert sorted(_t4.intermediate_values) == [0, 1, 2], "report once per fold, with step = 0, 1, 2, ..."
assert all(abs(_t4.intermediate_values[i] - v) < 1e-12 for i, v in enumerate([0.9, 0.75, 0.8])), \
    "report the mean of the scores so far (0.9, then (0.9 + 0.6) / 2, ...), not the fold's own score"


class _SpyTrial4(optuna.trial.FixedTrial):
    """A trial that records the calls in order; its pruner says yes once step ``prune_at`` is reported."""

    def __init__(self, prune_at=None):
        super().__init__({})
        self.calls, self.prune_at = [], prune_at

    def report(self, value, step):
        self.calls.append(f"report(step={step})")

    def should_prune(self):
        self.calls.append("should_prune()")
        return f"report(step={self.prune_at})" in self.calls


def _order4(scores, prune_at=None):
    """The calls report_folds made on a spy trial, and whether it raised TrialPruned."""
    spy = _SpyTrial4(prune_at)
    try:
        returned = report_folds(spy, scores)
    except optuna.TrialPruned:
        return spy.calls, True
    assert not isinstance(returned, BaseException), \
        f"raise optuna.TrialPruned() when trial.should_prune() says so; do not return it (got {returned!r})"
    return spy.calls, False


_calls4, _pruned4 = _order4([0.9, 0.9, 0.3])
_stated4 = ["report(step=0)", "should_prune()", "report(step=1)", "should_prune()", "report(step=2)"]
assert _calls4[:4] == _stated4[:4], \
    (f"for each fold but the last, first trial.report(mean, step=i), then ask trial.should_prune() (the pruner "
     f"judges the value just reported) and raise optuna.TrialPruned() if it says so; your calls were "
     f"{', '.join(_calls4)}")
assert _calls4 == _stated4 and not _pruned4, \
    (f"after the last fold, report the mean but do not ask trial.should_prune(): the trial is finished, and "
     f"pruning it would throw away a complete score (section 8); your calls were {', '.join(_calls4)}")
_calls4, _pruned4 = _order4([0.9, 0.6, 0.9], prune_at=1)
assert _pruned4 and _calls4 == _stated4[:4], \
    (f"when should_prune() says yes after fold 1, raise optuna.TrialPruned() at once (the remaining folds are "
     f"not fitted); your calls were {', '.join(_calls4)}")
_prune4 = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.85))
_prune4.optimize(lambda t: report_folds(t, [0.9, 0.6, 0.9]), n_trials=1)
assert _prune4.trials[0].state == optuna.trial.TrialState.PRUNED, \
    "ask trial.should_prune() after each report but the last, and raise optuna.TrialPruned() when it says so"
assert sorted(_prune4.trials[0].intermediate_values) == [0, 1], "stop at the fold where the pruner said so"
_prune4b = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.85))
_prune4b.optimize(lambda t: report_folds(t, [0.9, 0.9, 0.3]), n_trials=1)
assert _prune4b.trials[0].state == optuna.trial.TrialState.COMPLETE and abs(_prune4b.trials[0].value - 0.7) < 1e-12, \
    ("ThresholdPruner(lower=0.85) with scores 0.9, 0.9, 0.3: the running mean falls to 0.7 only after the last "
     "fold; report it, but do not ask should_prune() then: the trial is finished, return its mean 0.7")
### BEGIN HIDDEN TESTS
_stated4h = ["report(step=0)", "should_prune()", "report(step=1)", "should_prune()", "report(step=2)",
             "should_prune()", "report(step=3)"]
_calls4h, _pruned4h = _order4([0.4, 0.5, 0.6, 0.7], prune_at=1)
assert _pruned4h and _calls4h == _stated4h[:4], \
    (f"four folds, the pruner says yes after step 1: report, should_prune, report, should_prune, then raise "
     f"optuna.TrialPruned(); your calls were {', '.join(_calls4h)}")
_calls4h, _pruned4h = _order4([0.4, 0.5, 0.6, 0.7], prune_at=3)
assert _calls4h == _stated4h and not _pruned4h, \
    (f"four folds: report and ask should_prune() after folds 0, 1 and 2, only report after the last one (a "
     f"finished trial is never pruned); your calls were {', '.join(_calls4h)}")
_study4b = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.1))
_study4b.optimize(lambda t: report_folds(t, np.array([0.5, 0.6, 0.7, 0.8])), n_trials=1, catch=(Exception,))
assert _study4b.trials[0].state == optuna.trial.TrialState.COMPLETE and \
    abs(_study4b.trials[0].value - 0.65) < 1e-12, "fold scores 0.5, 0.6, 0.7, 0.8 (a NumPy array): return their mean"
assert sorted(_study4b.trials[0].intermediate_values) == [0, 1, 2, 3] and all(
    abs(_study4b.trials[0].intermediate_values[i] - v) < 1e-12 for i, v in enumerate([0.5, 0.55, 0.6, 0.65])), \
    "report the running mean at steps 0, 1, 2, 3: 0.5, 0.55, 0.6, 0.65"
_study4c = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.6))
_study4c.optimize(lambda t: report_folds(t, [0.5, 0.9]), n_trials=1, catch=(Exception,))
assert _study4c.trials[0].state == optuna.trial.TrialState.PRUNED, \
    "ThresholdPruner(lower=0.6) and a first fold of 0.5: prune after the first report"
assert list(_study4c.trials[0].intermediate_values) == [0], "pruned after the first fold: one report, at step 0"
_study4d = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.7))
_study4d.optimize(lambda t: report_folds(t, [0.9, 0.8, 0.7, 0.1]), n_trials=1, catch=(Exception,))
assert _study4d.trials[0].state == optuna.trial.TrialState.COMPLETE and \
    abs(_study4d.trials[0].value - 0.625) < 1e-12, \
    ("ThresholdPruner(lower=0.7) with folds 0.9, 0.8, 0.7, 0.1: the running mean drops below 0.7 only after the "
     "last fold; do not ask should_prune() then, return the mean 0.625")
_study4e = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.5))
_study4e.optimize(lambda t: report_folds(t, [0.2]), n_trials=1, catch=(Exception,))
assert _study4e.trials[0].state == optuna.trial.TrialState.COMPLETE and abs(_study4e.trials[0].value - 0.2) < 1e-12, \
    "a single fold is also the last one: report it, do not ask should_prune(), return 0.2"
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Parameters are learned by `fit`; hyperparameters are chosen by a search that
#   scores candidates on data they were not fitted on.
# - `GridSearchCV` tries every combination: n^m candidates. Use `l1_ratio` (not
#   `penalty`) and a positive `C`; with several scorers, `refit` names the one that
#   decides, and `best_*` refer to it only. Ties are broken by grid order.
# - At the same budget, random search tries more distinct values of each
#   hyperparameter and wins when few of them matter; sample scale-like ones with
#   `loguniform`.
# - Successive halving and Optuna's pruners spend little on candidates that look
#   bad early; pruning needs intermediate values reported per fold or epoch, and
#   is never asked after the last one.
# - Bayesian optimisation fits a surrogate to the trials so far and runs the next
#   trial where the expected improvement, EI = (f* − m) Φ(z) + s φ(z), is highest.
#   TPE models l(x) and g(x) of the good and the other trials instead, after 10
#   random start-up trials. Compare samplers at equal budget, beyond their random
#   start-up, over several seeds. Optuna's visualisations show the history,
#   importances and slices.
# - A storage URL makes a study persistent and shareable: SQLite for one machine,
#   a database server for a lab or a class.
# - `best_score_` is optimistic. Report a nested-CV estimate or a single score on
#   an untouched test set, after the refit.
#
# **Next**: this is the last notebook of the course. Go back to
# [`01_metrics`](01_metrics.ipynb) for the metrics the searches optimise, and try
# the searches of this notebook on the bank-marketing data of notebooks 03 and 04.
