# %% [markdown]
# # 05 · Bias, variance and learning curves
#
# Every term is defined in the course [glossary](glossary.md).
#
# [`03_cross_validation`](03_cross_validation.ipynb) gave us honest estimates of a
# model's error, and [`04_oversampling`](04_oversampling.ipynb) used them to compare
# ways of handling imbalanced data. An estimate says *how wrong* a model is; this
# notebook asks *why*, and what to do about it. Is the model too rigid to follow the
# signal (bias), or so flexible that it follows the noise of its particular training
# set (variance)? Would more data help, or more features, or a penalty? We first
# measure bias and variance exactly where we can, on a function we invented, then
# read the same story from validation curves and learning curves on real data, and
# end with regularisation and the loss curves that deep learning uses instead of
# cross-validation.
#
# **Time**: about 47 minutes of teaching (alone: reading and running), and 40 minutes
# for the exercises. Sections marked "(optional)" are deep-dives you can skip on a first
# pass.
#
# **You will learn**
# - the decomposition error = noise + bias² + variance, measured by simulation on
#   many training sets from a known function, and why the noise is irreducible;
# - under- and overfitting as the complexity of a model grows, with a slider;
# - validation curves (`ValidationCurveDisplay`): error against a hyperparameter;
# - learning curves (`learning_curve`, `LearningCurveDisplay`): error against the
#   training-set size, for a high-bias and a high-variance model, and why the
#   lecture notes' training sizes fail;
# - how to read both kinds of curve and what to try: more data, more features,
#   regularisation, a simpler or a more flexible model;
# - L1 and L2 regularisation: coefficient paths, the validation curve over the
#   penalty, and the geometry that makes L1 set coefficients to zero;
# - loss curves over epochs and early stopping, which deep learning uses instead of
#   cross-validation.
#
# **Prerequisites**: notebook 03 (k-fold cross-validation, `cross_validate`,
# training and validation scores), the regression metrics of notebook 01 (MSE,
# RMSE, the `neg_` convention), scikit-learn pipelines and `StandardScaler`.
#
# Where the lecture notes this course is built from contain a mistake, the notebook
# says so where it uses the example.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import make_regression
from sklearn.dummy import DummyRegressor
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Lasso, LinearRegression, Ridge
from sklearn.metrics import root_mean_squared_error
from sklearn.model_selection import (KFold, LearningCurveDisplay, ValidationCurveDisplay, cross_val_score,
                                     learning_curve, train_test_split)
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor
from sklearn.base import clone
from threadpoolctl import threadpool_limits

import helpers.style
from helpers.curves import (bias_variance_decomposition, complexity_state, describe_complexity_state, noisy_sample,
                            penalty_constrained_minimum, polynomial_model, variance_on_disjoint_sets)
from helpers.datasets import load_power_plant
from helpers.figures import describe, show
from helpers.curves_plots import (plot_bias_variance_by_x, plot_coefficient_paths, plot_error_curves,
                                  plot_fitted_models, plot_learning_curves, plot_penalty_geometry)
from helpers.widgets import complexity_explorer

helpers.style.use()
RANDOM_STATE = 0
# Small data and many small fits: one BLAS thread per fit is faster than several
# threads competing for the cores, and it keeps every number reproducible.
_ = threadpool_limits(limits=1)

# %% [markdown]
# ## 1. Bias and variance by simulation
#
# The notes (the bias-variance part of their "Learning curves" chapter) write each
# observation as y = f(x) + ε, with f the true function and ε a noise of mean 0 and
# variance σ². A learner fitted on one training set D gives a model f̂_D; another
# training set of the same size gives another model. At a point x, the expected
# squared error on a new observation splits into three parts:
#
# E[(y − f̂_D(x))²] = σ² + (f(x) − E_D[f̂_D(x)])² + E_D[(f̂_D(x) − E_D[f̂_D(x)])²]
#
# - **noise** σ²: even the true f misses a new y by ε; no model can remove it;
# - **bias²**: how far the *average* model (over training sets) is from f;
# - **variance**: how much the models of different training sets disagree.
#
# On real data we never know f, so these parts cannot be measured. Here we invent
# f(x) = sin(2πx) on [0, 1] with noise of standard deviation 0.3, draw many
# training sets of 30 points, fit a fresh model on each, and measure every term.
# `bias_variance_decomposition` (in `helpers.curves`) does exactly this and also
# measures the error on fresh noisy targets, so we can check that the three parts
# add up.

# %%
def f_true(x):
    """The function we pretend not to know."""
    return np.sin(2 * np.pi * x)


NOISE_SD, N_TRAIN, N_SETS = 0.3, 30, 100
x_test = np.linspace(0, 1, 51)
learners = {
    "constant (mean)": DummyRegressor,
    "straight line": lambda: polynomial_model(1),
    "cubic": lambda: polynomial_model(3),
    "unpruned tree": lambda: DecisionTreeRegressor(random_state=RANDOM_STATE),
}
simulations = {name: bias_variance_decomposition(make, f_true, NOISE_SD, x_test, N_TRAIN, N_SETS,
                                                 random_state=RANDOM_STATE)
               for name, make in learners.items()}
decomposition = pd.DataFrame({name: sim.summary() for name, sim in simulations.items()}).T
decomposition["gap in SEs"] = (decomposition["sum"] - decomposition["error"]) / decomposition["error_se"]
print(f"{N_SETS} training sets of {N_TRAIN} points, noise sd {NOISE_SD} (sigma^2 = {NOISE_SD**2:.3f}), "
      f"averaged over {x_test.size} test points")
print(decomposition.to_string(float_format="{:.4f}".format,
                              formatters={"gap in SEs": "{:+.2f}".format}))

# %% [markdown]
# Each row reads left to right: noise + bias² + variance = "sum", next to the error
# measured on fresh targets ("error", with its Monte-Carlo standard error
# "error_se"). The sum and the measured error agree within about two standard
# errors in every row ("gap in SEs"): the decomposition is an identity about
# expectations, and the simulation only estimates them.
#
# - The **constant** model (it predicts the mean of its training targets) is the most
#   rigid: its error is almost all bias².
# - The **straight line** still cannot bend with the sine: large bias², small variance.
# - The **cubic** follows the sine closely: bias² and variance are both small, and
#   its error is close to the noise floor σ².
# - The **unpruned tree** has almost no bias (on average it follows f), but each
#   tree reproduces the noise of its own 30 points: its variance is about as large
#   as the noise itself.
#
# The constant model shows where variance comes from. It predicts the mean of its
# 30 training targets, so its variance is the variance of that mean over the
# training sets; in expectation (Var f(X) + σ²) / n, where Var f(X) = 1/2 for a sine
# over whole periods:

# %%
constant = simulations["constant (mean)"]
print(f"variance of the constant model's predictions: {constant.variance.mean():.4f}")
print(f"variance of the means of its training targets: {constant.y_train.mean(axis=1).var():.4f}")
expected = (0.5 + NOISE_SD**2) / N_TRAIN
print(f"(Var f(X) + sigma^2) / n = (0.5 + {NOISE_SD**2:.2f}) / {N_TRAIN} = {expected:.4f}, "
      f"+/- {expected * np.sqrt(2 / (N_SETS - 1)):.4f} for a variance estimated from {N_SETS} sets")

# %% [markdown]
# The first two numbers are the same quantity, computed two ways. The formula is an
# expectation, and a variance estimated from 100 training sets is itself uncertain
# (the ± is one standard error for normal data): the simulated value lies within
# two of them. The lesson is in the formula: the variance of an average shrinks like
# 1/n, which is why more data reduce variance, while they leave the bias of the
# constant model untouched (its average prediction stays the mean of f).
#
# The notes' picture of twenty fitted models shows the same thing. Each thin line is
# the model of one training set; the thick line is the mean of all 100 models,
# E_D[f̂_D]; the dashed line is f.

# %%
fig, axes = plt.subplots(1, 3, figsize=(12, 4), sharey=True)
for ax, name in zip(axes, ["straight line", "cubic", "unpruned tree"]):
    plot_fitted_models(simulations[name], n_show=20, ax=ax, title=name)
_ = axes[0].set(ylim=(-2, 2))
show(fig, "Three panels of 20 fitted models each against the true function: " + "; ".join(
    f"{name}: mean squared bias {simulations[name].bias2.mean():.3f}, mean variance {simulations[name].variance.mean():.3f}"
    for name in ["straight line", "cubic", "unpruned tree"]))

# %% [markdown]
# The straight lines agree with each other (low variance) and are all wrong in the
# same way (high bias): their mean is far from the sine. The trees disagree wildly
# from one training set to the next (high variance), yet their mean follows the sine
# (low bias). The cubics are close to each other and to f. That is the trade-off of
# the notes: a rigid learner is stable but wrong on average, a flexible one right on
# average but unstable.
#
# ### The noise is the floor
#
# The true function itself, used as a model, has no bias and no variance (it does not
# depend on the training set). Its error on the same fresh targets is the noise alone:

# %%
tree_sim = simulations["unpruned tree"]
floor = np.mean((tree_sim.y_fresh - tree_sim.f_test) ** 2)
print(f"error of the true f on the fresh targets: {floor:.4f}   (sigma^2 = {NOISE_SD**2:.4f})")
print(f"best learner above: {decomposition['error'].idxmin()}, "
      f"measured error {decomposition['error'].min():.4f}")

# %% [markdown]
# Even a perfect model misses new observations by about σ², and no learner can get
# below it on average: the noise is the **irreducible** error. The cubic comes
# within a small margin of it. On real data σ² is unknown; the best we can hope for
# is to approach it by reducing bias² and variance, and the rest of this notebook is
# about telling which of the two is the problem.
#
# ### The decomposition point by point (optional)
#
# The table averages over x. Point by point, the parts change: the line's bias is
# largest at the peaks of the sine and at both ends; the cubic's variance grows at
# the ends, where a polynomial fitted on 30 random points extrapolates; the tree's
# variance is spread evenly.

# %%
fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), sharey=True)
for ax, name in zip(axes, ["straight line", "cubic", "unpruned tree"]):
    plot_bias_variance_by_x(simulations[name], ax=ax, title=name, ylim=(0, 1.0))
show(fig, "Three panels of the error decomposition along x, noise + bias squared + variance stacked, measured error as "
          "dots: " + "; ".join(f"{name}: mean error {simulations[name].error.mean():.3f}"
                               for name in ["straight line", "cubic", "unpruned tree"]))

# %% [markdown]
# The grey band is the noise, the same everywhere; on top of it come bias² (red)
# and variance (blue); the dots are the measured errors, scattered around the top
# of the stack by the Monte-Carlo noise of 100 training sets.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
from helpers.widgets import concept_check  # ungraded concept checks with instant feedback

concept_check("05.noise")


# %% [markdown]
# ## 2. Under- and overfitting: a complexity slider
#
# One training set of 30 points and a validation set of 200 points, both drawn from
# the same f. A polynomial of degree d has d + 1 coefficients: the degree is the
# knob that turns a rigid model into a flexible one. `complexity_state` (in
# `helpers.curves`) fits every degree from 1 to 15 and returns the training and
# validation mean squared errors (MSE). First its numbers for three degrees:

# %%
x_train, y_train = noisy_sample(f_true, N_TRAIN, NOISE_SD, random_state=RANDOM_STATE)
x_val, y_val = noisy_sample(f_true, 200, NOISE_SD, random_state=RANDOM_STATE + 1)
for degree in (1, 4, 15):
    print(describe_complexity_state(complexity_state(degree, x_train, y_train, x_val, y_val)))

# %% [markdown]
# - Degree 1 **underfits**: both errors are high and close to each other (high bias).
# - The best degree has the lowest validation error, close to the noise σ² = 0.09.
# - Degree 15 **overfits**: its training error is the lowest of the three, far
#   below σ² (it fits the noise of the 30 points), while its validation error is
#   higher than at the best degree (high variance).
#
# Now the slider: the left panel shows the fitted curve over the training points
# (blue) and the validation points (orange); the right panel shows both errors for
# every degree, the current degree (vertical line), the best one (star) and the
# noise σ² (dashed). It needs a running kernel to respond.
#
# **By keyboard:** Tab reaches a slider; the arrow keys (and Page Up, Page Down,
# Home, End) move it, and a short line above the figure says what changed while
# the panel keeps every number. To leave a slider or a number box, press Escape:
# it returns to the notebook (command mode, where the arrow keys move between
# cells; the course's explorers add this, plain ipywidgets keep the key). Tab or
# Shift+Tab moves to the next or previous control.

# %% tags=["nbval-ignore-output"]
complexity_explorer(x_train, y_train, x_val, y_val, degree=1, noise=NOISE_SD**2)

# %% [markdown]
# The training error can only go down as the degree grows (each polynomial contains
# the previous ones), so it cannot tell a good model from an overfitted one. The
# validation error falls, flattens near σ², then rises again: the **U shape** of the
# bias-variance trade-off, with the best complexity at its bottom. The numbers the
# slider prints come from the same pure function as the cell above, for example at
# the degree where the curves are furthest apart:

# %%
state_15 = complexity_state(15, x_train, y_train, x_val, y_val)
gaps = state_15["val_curve"] - state_15["train_curve"]
widest = int(state_15["degrees"][np.argmax(gaps)])
print(describe_complexity_state(complexity_state(widest, x_train, y_train, x_val, y_val)))
print(f"validation - training MSE: degree 1 {gaps[0]:+.3f}, best degree {state_15['best_degree']} "
      f"{gaps[state_15['best_degree'] - 1]:+.3f}, degree {widest} {gaps.max():+.3f}")

# %% [markdown]
# The gap between validation and training error is the visible sign of variance:
# large at the high degrees, small at the best degree, and none for the straight
# line, whose validation error is even a little *below* its training error (by
# chance: the 200 validation points happen to be easier than the 30 training
# points; section 5 comes back to this).
# (With a single validation set of 200 points the U is a little bumpy: the
# validation error is itself an estimate.)

# %% [markdown]
# ## 3. Validation curves
#
# The slider plotted the error against a hyperparameter, on one training/validation
# split. A **validation curve** does the same with cross-validation: for each value
# of the hyperparameter, k-fold training and validation scores. From here on the
# data are real: the power-plant data of the notes' practice, 9,568 hourly
# readings of four ambient variables (temperature `AT`, exhaust vacuum `V`, pressure
# `AP`, humidity `RH`) and the net electrical output `PE` in MW.

# %%
X, y = load_power_plant()
cv = KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
print(f"{len(X)} rows, features {list(X.columns)}; output PE from {y.min():.1f} to {y.max():.1f} MW, "
      f"standard deviation {y.std():.2f} MW")

# %% [markdown]
# The standard deviation of the output is the error of the mean predictor (a
# constant model), the baseline every model must beat. Errors are reported as RMSE
# in MW, the unit of the output. scikit-learn's scorers follow "greater is better",
# so the scorer is `"neg_root_mean_squared_error"`; `negate_score=True` turns it
# back into a positive error for the plot.
#
# A decision tree's `max_depth` is its complexity knob. `ValidationCurveDisplay`
# runs the cross-validation and draws the mean training and validation error with a
# band of ± one standard deviation over the 5 folds (its legend calls the validation
# folds "Test").

# %%
depths = [1, 2, 3, 4, 6, 8, 10, 12, 15, 20]
display = ValidationCurveDisplay.from_estimator(
    DecisionTreeRegressor(random_state=RANDOM_STATE), X, y, param_name="max_depth", param_range=depths, cv=cv,
    scoring="neg_root_mean_squared_error", negate_score=True, score_name="RMSE (MW)")
_ = display.ax_.set(title="Decision tree on the power-plant data, 5-fold CV")
tree_train, tree_val = -display.train_scores.mean(axis=1), -display.test_scores.mean(axis=1)
best_depth = depths[int(np.argmin(tree_val))]
show(display.figure_, f"Validation curve of a decision tree on the power-plant data, RMSE in MW against max_depth "
                      f"from {depths[0]} to {depths[-1]}, mean of 5 folds with +/- one SD bands: the training error "
                      f"falls from {tree_train[0]:.2f} to {tree_train[-1]:.2f}; the validation error is lowest, "
                      f"{tree_val.min():.2f}, at depth {best_depth}, and {tree_val[-1]:.2f} at depth {depths[-1]}")
depth_table = pd.DataFrame({"training RMSE": -display.train_scores.mean(axis=1),
                            "validation RMSE": -display.test_scores.mean(axis=1),
                            "fold spread": display.test_scores.std(axis=1)},
                           index=pd.Index(depths, name="max_depth"))
print(depth_table.to_string(float_format="{:.2f}".format))
print(f"best max_depth: {depth_table['validation RMSE'].idxmin()}")

# %% [markdown]
# Shallow trees underfit: both errors are high and close. As the depth grows the
# training error falls towards 0 (a depth-20 tree nearly memorises its rows) while
# the validation error reaches its minimum at a moderate depth and then creeps back
# up: beyond it, extra depth fits noise. The fold spread (0.24 MW at most) is
# much smaller than the differences between the shallow and the best depths, so the
# shape is not an accident of the folds.

# %% [markdown]
# ## 4. Learning curves on the power-plant data
#
# A **learning curve** keeps the model fixed and varies the amount of training
# data: for each training-set size, fit on that many rows of each training fold and
# score on the whole validation fold. The notes' practice runs:

# %%
notes_sizes = [1, 100, 2000, 5000, 11200]
try:
    learning_curve(LinearRegression(), X, y, train_sizes=notes_sizes, cv=5, scoring="neg_mean_squared_error")
except ValueError as error:
    print(f"ValueError: {error}")
for k in (5, 10):
    split_sizes = [len(train) for train, _ in KFold(n_splits=k).split(X)]
    cap = split_sizes[0]  # learning_curve's limit: the first split's training set
    print(f"cv={k}: training sets of {min(split_sizes)} to {max(split_sizes)} rows; learning_curve's limit is the "
          f"first one's, {cap} rows ({cap / len(X):.1%} of {len(X)}), the smallest")

# %% [markdown]
# **Erratum.** The notes' `train_sizes=[1, 100, 2000, 5000, 11200]` with `cv=5`
# raises this `ValueError` on the power-plant data: each model trains on a subset
# of one training set, and 11,200 rows do not exist. `learning_curve` caps the
# sizes at the **first** split's training set (`len(cv_iter[0][0])` in
# scikit-learn's code), the same cap for every split. `KFold` gives its first
# `n % k` folds one extra row, and the first split holds out the first fold, so
# its training set is one of the **smallest**: 7,654 of the 9,568 rows with 5
# folds, while two splits train on 7,655. The notes' "at most 80 % of X" is right
# only for `cv=5`; with `cv=10` the limit is 90 %. Sizes can also be given as
# fractions of that cap (`np.linspace(0.1, 1.0, 5)`, the default), which can never
# fail this way.
#
# Below, the sizes run from 5 rows to the largest `learning_curve` allows (the
# first split's training set), computed rather than typed. The notes score with `"neg_mean_squared_error"`; we report its square
# root, the RMSE, which is in MW like the output. The folds are shuffled (the `cv` of section 3) and `shuffle=True`
# lets each size take a random subset of its training fold instead of its first
# rows. The error is the RMSE in MW.

# %%
largest = len(next(cv.split(X))[0])
train_sizes = [5, 25, 100, 500, 2000, largest]


def rmse_learning_curve(model):
    """learning_curve's sizes and its (size x fold) training and validation RMSE arrays, in MW."""
    sizes, train_scores, val_scores = learning_curve(
        model, X, y, train_sizes=train_sizes, cv=cv, scoring="neg_root_mean_squared_error",
        shuffle=True, random_state=RANDOM_STATE)
    return sizes, -train_scores, -val_scores


sizes, linear_train, linear_val = rmse_learning_curve(LinearRegression())
fig, (ax_display, ax_hand) = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
linear_display = LearningCurveDisplay.from_estimator(
    LinearRegression(), X, y, train_sizes=train_sizes, cv=cv, scoring="neg_root_mean_squared_error",
    shuffle=True, random_state=RANDOM_STATE, negate_score=True, score_name="RMSE (MW)", ax=ax_display)
_ = ax_display.set(xscale="log", title="LearningCurveDisplay")
plot_error_curves(sizes, linear_train, linear_val, ax=ax_hand, label="linear regression")
_ = ax_hand.set(ylabel="RMSE (MW)", ylim=(0, 15), title="by hand, from learning_curve's arrays")
show(fig, f"Two learning curves of the linear regression, RMSE in MW against the training-set size from {sizes[0]} "
          f"to {sizes[-1]} (log scale): left scikit-learn's LearningCurveDisplay, right the same numbers drawn by hand; "
          f"at {sizes[-1]} rows training {linear_train[-1].mean():.2f} and validation {linear_val[-1].mean():.2f} MW")
print("same sizes:", np.array_equal(linear_display.train_sizes, sizes))
print("same scores:", np.allclose(-linear_display.train_scores, linear_train)
      and np.allclose(-linear_display.test_scores, linear_val))
print(pd.DataFrame({"training RMSE": linear_train.mean(axis=1), "validation RMSE": linear_val.mean(axis=1),
                    "fold spread": linear_val.std(axis=1)},
                   index=pd.Index(sizes, name="training rows")).to_string(float_format="{:.2f}".format))

# %% [markdown]
# The display and the hand-drawn plot show the same numbers (both `True`): the
# display is `learning_curve` plus a plot. Reading the linear regression's curve:
#
# - with 5 rows and 5 coefficients (4 slopes and an intercept) the model passes
#   through every training row, training error 0, and the validation error is
#   large: pure variance;
# - as rows are added the training error rises and the validation error falls, as
#   in the notes' picture: more rows are harder to fit and teach more;
# - from a few hundred rows on, the two curves meet and stay flat at about
#   4.6 MW: more data no longer helps. The model is as good as a straight line can
#   be, and what remains is **bias** (and noise). The notes call it the
#   underfitting model.
#
# ### A random forest, and `max_leaf_nodes`
#
# The notes' second model is a random forest. To keep this notebook fast it has 10
# trees, grown one after another (`n_jobs` left at its default: trees this small grow
# no faster on two threads, and scikit-learn's threads can spoil Python's warning
# filters and print stray warnings): a forest of 100 would be slightly better
# and ten times slower, with a curve of the same shape. The notes then suggest limiting `max_leaf_nodes`; we
# compare the unlimited forest with `max_leaf_nodes=100`.

# %%
forests = {
    "random forest": RandomForestRegressor(n_estimators=10, random_state=RANDOM_STATE),
    "forest, max_leaf_nodes=100": RandomForestRegressor(n_estimators=10, max_leaf_nodes=100,
                                                        random_state=RANDOM_STATE),
}
curves = {"linear regression": (linear_train, linear_val)}
for name, forest in forests.items():
    _, train_rmse, val_rmse = rmse_learning_curve(forest)
    curves[name] = (train_rmse, val_rmse)

fig, (ax_all, ax_forest) = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
# the legend: a model per colour and marker, a line style per error (5 entries, not 6), where the curves are not
plot_learning_curves(sizes, curves, ax=ax_all, colors=["C0", "C1", "C2"], markers="o^s", unit="MW",
                     legend={"loc": "upper right"})
_ = ax_all.set(ylabel="RMSE (MW)", ylim=(0, 15), title="three models, by hand")
forest_train, forest_val = curves["random forest"]
LearningCurveDisplay(train_sizes=sizes, train_scores=-forest_train, test_scores=-forest_val,
                     score_name="RMSE (MW)").plot(ax=ax_forest, negate_score=True)
_ = ax_forest.set(xscale="log", title="random forest, LearningCurveDisplay", xlabel="training-set size")
show(fig, "Learning curves, RMSE (MW) against the training-set size: left three models by hand, right the random "
          "forest; at the largest size, training / validation: " + "; ".join(
              f"{name} {train_rmse[-1].mean():.2f} / {val_rmse[-1].mean():.2f}"
              for name, (train_rmse, val_rmse) in curves.items()))
at_largest = pd.DataFrame({name: {"training RMSE": train_rmse[-1].mean(), "validation RMSE": val_rmse[-1].mean(),
                                  "gap": val_rmse[-1].mean() - train_rmse[-1].mean(),
                                  "fold spread": val_rmse[-1].std()}
                           for name, (train_rmse, val_rmse) in curves.items()}).T
print(f"at {sizes[-1]} training rows:")
print(at_largest.to_string(float_format="{:.2f}".format))
by_size = pd.DataFrame({(name, kind): errors.mean(axis=1) for name in forests
                        for kind, errors in zip(("training", "validation"), curves[name])},
                       index=pd.Index(sizes, name="training rows"))
print("\nmean RMSE (MW) of the forests at every size:")
print(by_size.to_string(float_format="{:.2f}".format))

# %% [markdown]
# The right panel is `LearningCurveDisplay` built from the arrays we already had
# (no second round of fits); it matches the random forest's curves (triangles) on the left.
#
# - The **random forest** has a low training error at every size, and it *falls*
#   as rows are added (second table), while its validation error falls too; the
#   gap between them is about 2 MW at full size (first table). The notes call it
#   the overfitting model. But for a forest the training error is not the
#   diagnostic: each tree is grown until its leaves are pure on its bootstrap
#   sample, so the forest nearly reproduces every row it was trained on, whatever
#   its variance. A wide gap here says "the forest memorises its rows", not "most
#   of its error is variance". What the curves do say: the validation error is
#   still falling, so more data still helps.
# - With **`max_leaf_nodes=100`** each tree has at most 100 leaves. Up to 100 rows
#   the two forests almost coincide (their curves overlap on the left; the second table):
#   a tree grown on at most 100 rows has at most 100 leaves anyway. (The small
#   differences are not the limit at work: once `max_leaf_nodes` is set,
#   scikit-learn grows each tree best-first instead of depth-first, and where
#   several splits are equally good it may pick another one.) From 100 rows on
#   its training error *rises* with the size: 100 leaves can memorise 100 rows but
#   not 7,654. The gap shrinks mostly because the forest can no longer memorise,
#   and its validation error at full size is *higher* than the unlimited forest's:
#   the limit, the usual remedy for variance, makes this forest worse.
# - Both forests end well below the linear regression, whose bias they do not
#   share.
#
# How much of the forest's error is variance? Section 1 measured it by fitting a
# model on many training sets; real data allow a few. `variance_on_disjoint_sets`
# (in `helpers.curves`) keeps 1,568 rows aside, cuts the other 8,000 into four
# disjoint training sets of 2,000 rows, fits one forest on each, and measures how
# much their predictions on the kept rows disagree: the variance term, next to
# their mean squared error. What is not variance is bias² plus noise, which real
# data cannot separate. The forests' out-of-bag error (notebook 03, section 5) is
# the other honest check a forest offers for free.

# %%
variance_rows = {}
for name, forest in forests.items():
    measured = variance_on_disjoint_sets(lambda: clone(forest), X.to_numpy(), y.to_numpy(), n_train=2000, n_sets=4,
                                         n_eval=1568, random_state=RANDOM_STATE)
    variance_rows[name] = {"validation MSE (MW^2)": measured["mse"], "variance (MW^2)": measured["variance"],
                           "bias^2 + noise (MW^2)": measured["bias2_plus_noise"],
                           "variance share": measured["variance_share"]}
print("four forests on disjoint sets of 2,000 rows, scored on 1,568 other rows:")
print(pd.DataFrame(variance_rows).T.to_string(float_format="{:.2f}".format,
                                              formatters={"variance share": "{:.0%}".format}))
oob_forest = RandomForestRegressor(n_estimators=40, oob_score=True, random_state=RANDOM_STATE)
oob_forest.fit(X.iloc[:2000], y.iloc[:2000])
oob_rmse = root_mean_squared_error(y.iloc[:2000], oob_forest.oob_prediction_)
train_rmse_2000 = root_mean_squared_error(y.iloc[:2000], oob_forest.predict(X.iloc[:2000]))
held_out_rmse = root_mean_squared_error(y.iloc[2000:], oob_forest.predict(X.iloc[2000:]))
print(f"a forest of 40 trees on 2,000 rows: training RMSE {train_rmse_2000:.2f} MW, out-of-bag RMSE {oob_rmse:.2f} MW, "
      f"RMSE on the other {len(y) - 2000:,} rows {held_out_rmse:.2f} MW")

# %% [markdown]
# Variance is a minority of the unlimited forest's error (the share printed
# above): most of it is bias plus noise, although its training error is close to
# 0. Averaging trees is what a forest is for, and it already removes most of the
# variance of single trees. `max_leaf_nodes=100` lowers the variance further but
# adds more bias than it removes. The out-of-bag error, each row predicted only by
# the trees that did not see it, is close to the error on rows the forest never
# saw (the last two figures of the line above), while the training
# error on the same rows is far below it: for a forest read the out-of-bag or the
# validation curve, never the training curve.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("05.forest-gap")


# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("05.bias")


# %% [markdown]
# ## 5. How to read them, and what to do
#
# The notes give a rule: "if the training set is enough, the loss of the training
# set is ≥ the loss of the validation set", and their overfitting slide says
# training "can be terminated" once the training loss is below the validation loss.
# Check the rule on our three learning curves:

# %%
for name, (train_rmse, val_rmse) in curves.items():
    below = train_rmse.mean(axis=1) < val_rmse.mean(axis=1)
    print(f"{name:<27s} training error below validation error at {below.sum()} of {below.size} sizes")

# %% [markdown]
# **Erratum.** Training error below validation error is the normal state of every
# model at every size: a model is fitted to its training rows, so it does better on
# them. The notes' "training loss ≥ validation loss means the training set is
# enough" is not a rule (on our curves it would say "not enough data" at every
# size, even for the linear regression, for which more data are useless); when it
# happens it is chance (a lucky validation fold) or a side effect of
# regularisation, not a stopping signal. The same goes for the overfitting slide's
# "stop when the training loss is lower than the validation loss". What to read is
# the **size of the gap** and the **trend** of the validation curve:
#
# | symptom | likely cause | what to try |
# |---|---|---|
# | both errors high and close; the validation curve flat | high bias (underfitting) | a more flexible model, more or better features, less regularisation; more data will **not** help |
# | training error low, validation error much higher; the validation curve still falling | high variance (overfitting) | more data, fewer features, more regularisation (L1/L2, smaller trees, `max_leaf_nodes`), a simpler model, bagging |
# | both errors low and close, validation curve flat | a good fit, near the noise floor | stop; check the final model once on the test set |
# | validation curve of a hyperparameter U-shaped | the trade-off | choose the bottom of the U (notebook 06 automates it) |
# | training error rises with the size while the validation error falls, and they meet | normal for a model that cannot memorise its rows: it stops fitting noise | where they meet tells the bias; the gap before it, the variance |
# | training error near 0 at every size (forests, k-NN with k = 1, unpruned trees) | the model memorises its training rows | the training curve says nothing; read the validation (or out-of-bag) curve |
#
# The linear regression is in the first row; the random forest in the last one,
# not the second: its gap comes from memorising, and its variance is a minority of
# its error (section 4). Its still-falling validation curve says that more data
# help it. A fitted error can only be read as a bias estimate when the model cannot
# memorise its rows.
#
# The table reads the shape of the curves. With a **target error** in mind (what
# the application needs, or the best known model's error), the same reading
# becomes a rule for the last point of a learning curve, the one exercise 3 asks
# for: a training error above the target is high bias whatever the gap (the model
# cannot fit even the rows it sees, so more data cannot help, the table's first
# row); otherwise a gap wider than you accept is high variance (the second row);
# otherwise the fit is good.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("05.gap")


# %% [markdown]
# ## 6. Regularisation: L1 and L2
#
# Regularisation adds a penalty on the size of the coefficients to the training
# loss, and its strength is a complexity knob: `Ridge` adds α·Σw² (L2), `Lasso`
# adds α·Σ|w| (L1; scikit-learn scales the squared error by 1/(2n) in `Lasso`, so
# the two α are not on the same scale). A large α means a rigid model (more bias,
# less variance). Classifiers such as `LogisticRegression` and `SVC` use C = 1/α
# instead: a *small* C is a strong penalty. (In scikit-learn 1.9 the logistic
# regression's L1 penalty is chosen with `l1_ratio=1` and `solver="saga"`; the old
# `penalty=` argument is deprecated.)
#
# To see the penalties at work we need a model with many features and few rows: 100
# rows, 30 features of which only 5 influence y, and noise. The features are
# standardised, so that one penalty treats them all alike.

# %%
NOISE_MANY = 20.0
X_many, y_many, true_coef = make_regression(n_samples=100, n_features=30, n_informative=5, noise=NOISE_MANY,
                                            coef=True, random_state=RANDOM_STATE)
X_many = StandardScaler().fit_transform(X_many)  # the penalty needs comparable scales
useful = np.flatnonzero(true_coef)
print(f"{X_many.shape[0]} rows, {X_many.shape[1]} features; the useful ones: {useful.tolist()}")
ridge_alphas = np.logspace(-2, 4, 30)
ridge_coefs = np.array([Ridge(alpha=alpha).fit(X_many, y_many).coef_ for alpha in ridge_alphas])
lasso_alphas = np.logspace(-2, 2, 30)
lasso_coefs = np.array([Lasso(alpha=alpha).fit(X_many, y_many).coef_ for alpha in lasso_alphas])

fig, (ax_ridge, ax_lasso) = plt.subplots(1, 2, figsize=(12, 4.2))
plot_coefficient_paths(ridge_alphas, ridge_coefs, ax=ax_ridge, title="Ridge (L2)", highlight=useful)
plot_coefficient_paths(lasso_alphas, lasso_coefs, ax=ax_lasso, title="Lasso (L1)", highlight=useful)
show(fig, f"Coefficient paths of Ridge (left) and Lasso (right) on {X_many.shape[1]} features, the {useful.size} "
          f"useful ones in colour: at the largest alpha Ridge keeps {np.sum(np.abs(ridge_coefs[-1]) > 1e-10)} "
          f"coefficients non-zero, Lasso {np.sum(np.abs(lasso_coefs[-1]) > 1e-10)}; at alpha about 1 Lasso keeps "
          f"{np.sum(np.abs(lasso_coefs[np.argmin(np.abs(np.log(lasso_alphas)))]) > 1e-10)}")
for name, alphas, coefs in [("Ridge", ridge_alphas, ridge_coefs), ("Lasso", lasso_alphas, lasso_coefs)]:
    for i in np.linspace(0, len(alphas) - 1, 4).astype(int):
        kept = np.flatnonzero(coefs[i])
        print(f"{name}: alpha = {alphas[i]:8.2f}, non-zero coefficients {kept.size:2d} of 30 "
              f"(useful ones among them: {np.isin(useful, kept).sum()} of {useful.size})")

# %% [markdown]
# The coloured lines are the 5 useful features, the grey ones the 25 useless ones.
# Both penalties shrink the coefficients as α grows. **Ridge** shrinks them all
# smoothly towards 0 but sets none exactly to 0. **Lasso** sets coefficients to
# exactly 0 one after the other: at a moderate α only the useful features are left,
# so L1 also selects features. At the largest α every coefficient is 0 and the
# model predicts the mean (pure bias).
#
# Which α is best? A validation curve over α answers it, with 5-fold
# cross-validation and the same `ValidationCurveDisplay` as in section 3.

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
best_alpha = {}
cv_many = KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
for ax, (name, model, alphas) in zip(axes, [("Ridge", Ridge(), np.logspace(-2, 4, 13)),
                                            ("Lasso", Lasso(), np.logspace(-2, 2, 13))]):
    shown = ValidationCurveDisplay.from_estimator(
        model, X_many, y_many, param_name="alpha", param_range=alphas, cv=cv_many,
        scoring="neg_root_mean_squared_error", negate_score=True, score_name="RMSE", ax=ax)
    _ = ax.set(title=f"{name}: error against alpha")
    validation = -shown.test_scores.mean(axis=1)
    best_alpha[name] = alphas[np.argmin(validation)]
    print(f"{name}: best alpha {best_alpha[name]:.2f}, validation RMSE {validation.min():.2f} "
          f"(smallest alpha: {validation[0]:.2f}, largest: {validation[-1]:.2f})")
    describe(ax, f"Validation curve of {name}: RMSE against alpha (log scale), lowest validation RMSE "
                 f"{validation.min():.2f} at alpha {best_alpha[name]:.2f}; {validation[0]:.2f} at the smallest and "
                 f"{validation[-1]:.2f} at the largest alpha")
show(fig, "Two validation curves, RMSE against the penalty alpha, training and validation with +/- one SD bands: "
          + " and ".join(f"{name} is best at alpha {alpha:.2f}" for name, alpha in best_alpha.items()))
plain = -cross_val_score(LinearRegression(), X_many, y_many, cv=cv_many, scoring="neg_root_mean_squared_error")
print(f"no penalty (LinearRegression): validation RMSE {plain.mean():.2f}; noise sd of the data: {NOISE_MANY:.2f}")

# %% [markdown]
# Read the two curves as in section 3, with complexity running from right (large α,
# rigid) to left (small α, flexible). At the largest α both models underfit
# badly. At the smallest α they behave like the unpenalised regression, whose 30
# coefficients fitted on 80 rows per fold pick up noise. In between, the Lasso's
# validation error drops clearly below the unpenalised one and close to the noise
# level of the data (the noise standard deviation passed to `make_regression`), because
# it discards the 25 useless features. The Ridge gains almost nothing here: its
# curve stays flat until α is large enough to shrink the useful coefficients too,
# because shrinking the 25 useless ones a little does not remove them.
# (The features were standardised on all 100 rows before the split; a scaler learns
# only means and spreads, a small leak, acceptable in an illustration but not in
# an evaluation, where it belongs inside a pipeline as in notebook 03.)
#
# ### Why L1 gives zeros: the geometry (optional)
#
# The notes' picture: penalising with strength α is the same as minimising the loss
# inside a ball, |w1| + |w2| ≤ t for L1 (a diamond) and w1² + w2² ≤ t² for L2 (a
# disc), a larger α meaning a smaller ball. The loss is a bowl whose level curves are
# ellipses around the unpenalised solution. The penalised solution is where the
# smallest ellipse touches the ball. `penalty_constrained_minimum` (in
# `helpers.curves`) finds that point for a two-coefficient loss.

# %%
curvature = np.array([[2.0, 0.4], [0.4, 1.0]])
w_least_squares = np.array([1.5, 0.6])
l1_l2_axes = plot_penalty_geometry(curvature, w_least_squares, radius=1.0)
zeros = {norm: int(np.sum(np.isclose(penalty_constrained_minimum(curvature, w_least_squares, 1.0, norm), 0, atol=1e-6)))
         for norm in (1, 2)}
show(l1_l2_axes[0].figure, f"Two panels of loss ellipses meeting the penalty ball of radius 1: left the L1 diamond, "
                           f"right the L2 disc; exactly zero: {zeros[1]} of the 2 coefficients of the L1 "
                           f"solution, {zeros[2]} of the L2 solution")
for norm in (1, 2):
    w = penalty_constrained_minimum(curvature, w_least_squares, 1.0, norm)
    print(f"L{norm}: w = ({w[0]:.3f}, {w[1]:.3f})")

# %% [markdown]
# The diamond has corners on the axes, and an ellipse coming from outside usually
# meets it first at a corner: there the other coefficient is exactly 0 (here
# w2 = 0). The disc has no corners, so the touching point generally has both
# coefficients non-zero, only smaller. In 30 dimensions the diamond has many
# corners and edges where several coefficients vanish at once, which is what the
# Lasso path showed.

# %% [markdown]
# ## 7. Loss curves and early stopping
#
# A learning curve's x-axis is the **training-set size**: each point is a model
# fitted from scratch on that many rows. Iterative learners have a second axis:
# for neural networks and `SGDRegressor` the **epoch**, one pass of the optimiser
# over the same training set; for gradient boosting the **iteration**, one more
# tree added to the ensemble. A **loss curve** plots the training
# and validation loss after each epoch (or iteration), for one model as it
# trains; it is the notes' "trend chart of the loss function" for deep learning.
# Epochs are numbered from 1, as scikit-learn's `n_iter_` counts them: epoch e is
# the e-th pass, stored at position e − 1 of the Python lists below (exercise 4
# numbers them the same way).
#
# Below, a small neural network (`MLPRegressor`, two hidden layers of 48 units)
# trains on 300 rows of the power-plant data, one epoch per `partial_fit` call,
# scored after each epoch on its training rows and on 1,000 validation rows.
# Networks need scaled inputs (and train better on a scaled target), so both are
# standardised with statistics of the training rows only.

# %%
X_small, X_holdout, y_small, y_holdout = train_test_split(X, y, train_size=300, test_size=1000,
                                                          random_state=RANDOM_STATE)
x_scaler, y_scaler = StandardScaler().fit(X_small), StandardScaler().fit(y_small.to_frame())
Z_small, Z_holdout = x_scaler.transform(X_small), x_scaler.transform(X_holdout)
target = y_scaler.transform(y_small.to_frame()).ravel()


def predict_mw(network, Z):
    """The network's predictions, back in MW."""
    return y_scaler.inverse_transform(network.predict(Z).reshape(-1, 1)).ravel()


network = MLPRegressor(hidden_layer_sizes=(48, 48), learning_rate_init=0.01, batch_size=50,
                       random_state=RANDOM_STATE)
epochs = np.arange(1, 41)
train_loss, val_loss = [], []
for _ in epochs:
    network.partial_fit(Z_small, target)
    train_loss.append(root_mean_squared_error(y_small, predict_mw(network, Z_small)))
    val_loss.append(root_mean_squared_error(y_holdout, predict_mw(network, Z_holdout)))
best_epoch = int(epochs[np.argmin(val_loss)])

fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(epochs, train_loss, "--", color="C0", label="training")
ax.plot(epochs, val_loss, "-", color="C0", label="validation")
ax.axvline(best_epoch, color="C3", lw=1.5, label=f"lowest validation loss (epoch {best_epoch}, val_loss[{best_epoch - 1}])")
ax.legend()
_ = ax.set(xlabel="epoch (passes over the same 300 rows)", ylabel="RMSE (MW)", ylim=(3, 8),
           title="Loss curves of one network as it trains")
show(fig, f"Loss curves of one network over {epochs[-1]} epochs, RMSE in MW: training (dashed) falls from "
          f"{train_loss[0]:.2f} to {train_loss[-1]:.2f}; validation (solid) is lowest, {min(val_loss):.2f}, at epoch "
          f"{best_epoch} (the vertical line) and ends at {val_loss[-1]:.2f}")
print(f"epoch {best_epoch}: training {train_loss[best_epoch - 1]:.2f} MW, validation {min(val_loss):.2f} MW")
print(f"epoch {epochs[-1]}: training {train_loss[-1]:.2f} MW, validation {val_loss[-1]:.2f} MW")

# %% [markdown]
# Early on both losses fall together. Then the training loss keeps falling while the
# validation loss stops improving and slowly creeps back up: from that epoch on, the
# network learns the noise of its 300 rows rather than the signal. The two x-axes answer different questions: the learning curve asks
# "would more data help this model?", the loss curve "how long should this one model
# train?".
#
# **Early stopping** keeps the weights of the epoch with the lowest validation loss
# and stops once the validation loss has not improved for a number of epochs (the
# *patience*). `MLPRegressor(early_stopping=True)` does it for us: it sets aside a
# share of the training rows (`validation_fraction`) as its validation set, scores
# them after each epoch (R², higher is better) and keeps the best weights. Its
# rule, read in scikit-learn's code: an epoch counts as an improvement only if it
# beats the best score so far by at least `tol` (1e-4); the count of epochs
# without improvement is reset by each improvement, and training stops when the
# count **exceeds** `n_iter_no_change`, i.e. after `n_iter_no_change + 1` epochs
# without improvement.

# %%
stopped = TransformedTargetRegressor(
    make_pipeline(StandardScaler(), MLPRegressor(hidden_layer_sizes=(48, 48), learning_rate_init=0.01,
                                                 batch_size=50, early_stopping=True, validation_fraction=0.2,
                                                 n_iter_no_change=10, max_iter=500,
                                                 random_state=RANDOM_STATE)),
    transformer=StandardScaler()).fit(X_small, y_small)
inner = stopped.regressor_[-1]
best_stopped = int(np.argmax(inner.validation_scores_)) + 1
print(f"stopped after {inner.n_iter_} epochs; best validation R^2 {inner.best_validation_score_:.3f} "
      f"at epoch {best_stopped}: {inner.n_iter_ - best_stopped} epochs without improvement "
      f"(n_iter_no_change = {inner.n_iter_no_change})")
print(f"RMSE on the {len(y_holdout):,} held-out rows: {root_mean_squared_error(y_holdout, stopped.predict(X_holdout)):.2f} MW")
print(f"the network of our loop on the same rows: {min(val_loss):.2f} MW at its best epoch ({best_epoch}), "
      f"{val_loss[-1]:.2f} MW after {epochs[-1]} epochs")

# %% [markdown]
# The library stopped on its own once its patience had run out: 11 epochs without
# improvement after its best epoch, one more than `n_iter_no_change=10`, as its
# rule says. (Exercise 4's rule stops after exactly `patience` epochs without
# improvement: with the same number, one epoch earlier.) It kept the weights of
# that best epoch, without our having to watch a curve. Its held-out error lies
# between the best point of our loss curve and its end. It cannot quite reach our
# best point: its validation set is a fifth of the 300 training rows, so it trains
# on 240 rows only, and it picks the epoch from 60 noisy validation rows where we
# cheated by looking at 1,000 held-out rows. On this small network overtraining
# costs little (our validation loss only creeps up); on a large network that
# overfits quickly, stopping near the best epoch matters much more, and it also
# saves all the epochs after it.
#
# This is what deep learning does **instead of cross-validation**, as the notes say:
# one training run of a large network can take hours or days, so k runs per
# candidate are unaffordable. One validation set, scored after every epoch, chooses
# the number of epochs (and, across runs, the other hyperparameters). Because that
# validation set has been used to make choices, the final model is still scored
# once on a separate **test** set.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("05.early-stopping")


# %% [markdown]
# ## Practice
#
# Four graded exercises. Each has a cell for your answer and a cell of tests; run
# both. The visible tests give hints; more tests are run when grading. Some tests
# use objects from the sections above (each exercise names them), so run the
# notebook from the top first.

# %% [markdown]
# **Exercise 1 (2 points).** Write `largest_training_size(n_samples, n_splits)`: the
# largest `train_sizes` entry `learning_curve` accepts with `cv=KFold(n_splits)` on
# `n_samples` rows, as an `int`. As section 4 shows, `learning_curve` caps the sizes
# at the training set of the **first** split, not at the largest training set:
# that first split holds out the first fold, and `KFold` gives its first
# `n_samples % n_splits` folds one extra row. So the cap is the number of rows minus
# the size of the first fold (one of the largest folds, hence one of the smallest
# training sets).

# %% nbgrader={"grade": false, "grade_id": "ex1-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    ### BEGIN SOLUTION
    return int(n_samples - -(-n_samples // n_splits))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex1-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import numpy as np
from sklearn.model_selection import KFold

try:
    _size1 = largest_training_size(9568, 5)
except Exception as error:
    raise AssertionError(f"largest_training_size(9568, 5) raised {error!r}: "
                         "use integer arithmetic on the two numbers") from error
assert isinstance(_size1, (int, np.integer)), "return an int (round down, no float)"
assert _size1 == 7654, ("the power-plant data with cv=5: learning_curve's cap is the first split's training set, "
                        "9,568 rows minus the first fold (1,914 rows, as the first 9568 % 5 = 3 folds have one "
                        f"extra row), not {_size1!r}")


def _hint1(n, k, got):
    """What a wrong size for n rows in k folds suggests, and the right count."""
    first_fold = -(-n // k)
    right = len(next(KFold(k).split(np.zeros(n)))[0])
    if k != 5 and got in (round(0.8 * n), int(0.8 * n)):
        why = f"80 % of the rows is the share of cv=5 only; with {k} folds use n_splits"
    elif got == n - n // k:
        shares = round(n * (k - 1) / k) == got
        why = (f"{got} is {n} minus a smallest fold of n // k = {n // k} rows"
               + (" (rounding the share n * (k - 1) / k gives the same)" if shares else "")
               + ": that is the LARGEST training set, and learning_curve caps at the first split's, whose "
               "held-out fold has the extra row: round the fold size up")
    elif got == round(n * (k - 1) / k):
        why = (f"{got} is the share (k - 1) / k of the rows, rounded; folds hold whole rows: subtract the first "
               f"fold's {first_fold} rows (n // k rounded up)")
    else:
        why = f"got {got!r}"
    return (f"{n} rows in {k} folds: the first fold holds {first_fold} rows, so the largest size learning_curve "
            f"accepts (the first split's training set) is {n} - {first_fold} = {right} ({why})")


_size1b = largest_training_size(10, 3)
assert _size1b == len(next(KFold(3).split(np.zeros(10)))[0]), _hint1(10, 3, _size1b)
### BEGIN HIDDEN TESTS
for _n1 in (2, 7, 50, 101, 9568):
    for _k1 in range(2, min(_n1, 12) + 1):
        _got1 = largest_training_size(_n1, _k1)
        assert isinstance(_got1, (int, np.integer)), "return an int (integer arithmetic, no float)"
        assert _got1 == len(next(KFold(_k1).split(np.zeros(_n1)))[0]), _hint1(_n1, _k1, _got1)
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2 (2 points).** Write `bias2_and_variance(predictions, true_value)`:
# `predictions` holds the predictions at one point x of models fitted on different
# training sets (a list or a NumPy array), `true_value` is f(x). Return a tuple
# `(bias2, variance)` of two floats: the squared difference between f(x) and the mean
# prediction, and the variance of the predictions dividing by the number of models
# (as in section 1). The hidden tests compare with `simulations` of section 1.

# %% nbgrader={"grade": false, "grade_id": "ex2-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    ### BEGIN SOLUTION
    predictions = np.asarray(predictions, dtype=float)
    return float((true_value - predictions.mean()) ** 2), float(predictions.var())
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex2-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import numpy as np

try:
    _result2 = bias2_and_variance([1.0, 2.0, 3.0], 2.5)
except Exception as error:
    raise AssertionError(f"bias2_and_variance([1.0, 2.0, 3.0], 2.5) raised {error!r}: "
                         "convert predictions with np.asarray first") from error
assert isinstance(_result2, tuple) and len(_result2) == 2, "return a tuple (bias2, variance)"
assert all(isinstance(v, float) for v in _result2), "both values should be floats (use float(...))"
assert abs(_result2[0] - 0.25) < 1e-12, "bias^2 = (f(x) - mean prediction)^2 = (2.5 - 2)^2"
assert abs(_result2[1] - 2 / 3) < 1e-12, "variance divides by the number of models (ddof=0), not n - 1"
### BEGIN HIDDEN TESTS
try:
    _list2 = bias2_and_variance([2.0, 4.0, 6.0, 8.0], 3.0)
except Exception as error:
    raise AssertionError(f"bias2_and_variance on a list raised {error!r}: convert with np.asarray first") from None
assert isinstance(_list2, tuple) and len(_list2) == 2 and all(type(v) is float for v in _list2), \
    "return a tuple of two Python floats (float(...)), also for a list of predictions"
assert abs(_list2[0] - 4.0) < 1e-12 and abs(_list2[1] - 5.0) < 1e-12, \
    "predictions 2, 4, 6, 8 and f(x) = 3: bias^2 = (3 - 5)^2 = 4, variance (ddof=0) = 5"
for _name2, _sim2 in simulations.items():
    for _j2 in (0, 17, 50):
        _b2, _v2 = bias2_and_variance(_sim2.predictions[:, _j2], _sim2.f_test[_j2])
        assert abs(_b2 - _sim2.bias2[_j2]) < 1e-12 and abs(_v2 - _sim2.variance[_j2]) < 1e-12, \
            f"{_name2} of section 1: your (bias2, variance) differ from the simulation's at test point {_j2}"
assert bias2_and_variance(np.array([4.0, 4.0]), 1.0) == (9.0, 0.0), \
    "two equal predictions 4 and f(x) = 1: bias^2 = 9, variance 0"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3 (2 points).** Write `diagnose(train_error, val_error, target_error,
# max_gap)` for the last point of a learning curve. Return the string `"high bias"`
# when the training error is above the error you are aiming for (`train_error >
# target_error`: the model cannot even fit its training data); otherwise
# `"high variance"` when the validation error exceeds the training error by more
# than `max_gap`; otherwise `"good"`.

# %% nbgrader={"grade": false, "grade_id": "ex3-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    ### BEGIN SOLUTION
    if train_error > target_error:
        return "high bias"
    if val_error - train_error > max_gap:
        return "high variance"
    return "good"
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex3-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
try:
    _verdict3 = diagnose(4.5, 4.6, 4.0, 0.5)
except Exception as error:
    raise AssertionError(f"diagnose(4.5, 4.6, 4.0, 0.5) raised {error!r}") from error
assert isinstance(_verdict3, str), "return a str"
assert _verdict3 == "high bias", "a training error above the target means high bias (the linear regression)"
assert diagnose(1.4, 3.5, 4.0, 0.5) == "high variance", \
    "training error under the target but a gap of 2.1 > max_gap: high variance (the random forest)"
assert diagnose(3.0, 3.3, 4.0, 0.5) == "good", "under the target and a gap of 0.3 <= max_gap: good"
assert diagnose(5.0, 9.0, 4.0, 0.5) == "high bias", "check the training error first: it decides 'high bias'"
assert diagnose(1.0, 4.5, 4.0, 0.5) == "high variance", \
    "compare the TRAINING error with the target: a low training error with a validation error far above it is high variance"
assert diagnose(4.0, 4.25, 4.0, 0.5) == "good", "a training error equal to the target is not above it: use >"
assert diagnose(2.0, 2.5, 4.0, 0.5) == "good", "a gap equal to max_gap is not more than it: use >"
assert diagnose(1.0, 0.3, 4.0, 0.5) == "good", \
    ("a validation error BELOW the training error is chance (section 5), not variance: the gap is "
     "val_error - train_error (here -0.7), without abs()")
### BEGIN HIDDEN TESTS
assert isinstance(diagnose(0.1, 0.2, 1.0, 0.5), str), "return a str"
assert diagnose(2.0, 2.6, 4.0, 0.5) == "high variance", "a gap of 0.6 > max_gap = 0.5 is high variance"
assert diagnose(0.5, 0.75, 0.5, 0.25) == "good", \
    "a training error equal to the target is not above it, and a gap equal to max_gap is not more: use > twice"
assert diagnose(0.5, 0.75, 0.49, 0.25) == "high bias", "a training error above the target is high bias"
assert diagnose(0.6, 3.0, 0.5, 0.25) == "high bias", "check the training error first: it decides 'high bias'"
assert diagnose(0.2, 0.6, 0.5, 0.25) == "high variance", \
    "compare the TRAINING error with the target (0.2 < 0.5), then the gap 0.4 > 0.25: high variance"
assert diagnose(2.0, 0.5, 3.0, 0.25) == "good", "validation below training is chance, not variance: no abs()"
for _name3, (_train3, _val3) in curves.items():
    _t3, _v3 = _train3[-1].mean(), _val3[-1].mean()
    assert diagnose(_t3, _v3, _t3 - 0.01, 100) == "high bias", \
        f"{_name3}'s last point: a training error above the target is high bias"
    assert diagnose(_t3, _v3, _t3 + 0.01, 100) == "good", f"{_name3}'s last point: under the target, a small gap"
    assert diagnose(_t3, _v3, _t3 + 0.01, (_v3 - _t3) / 2) == "high variance", \
        f"{_name3}'s last point: under the target and a gap above max_gap is high variance"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 4 (3 points).** Write `early_stopping(val_losses, patience)`:
# `val_losses` holds the validation loss after each epoch, in order. Epochs are
# numbered from 1, as in section 7: `val_losses[0]` is the loss after epoch 1,
# `val_losses[e - 1]` the loss after epoch e. An epoch *improves* when its loss is
# strictly lower than every earlier one. Training stops at the first epoch that
# ends a run of `patience` consecutive epochs without improvement; if that never
# happens, it stops at the last epoch. Return a tuple `(best_epoch, stop_epoch)` of
# epoch numbers: the epoch with the lowest loss up to the stop (the earliest on a
# tie) and the epoch at which training stops. The hidden tests also use `val_loss`
# of section 7.

# %% nbgrader={"grade": false, "grade_id": "ex4-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    ### BEGIN SOLUTION
    best_epoch, best_loss, waited = 1, val_losses[0], 0
    for epoch, loss in enumerate(val_losses[1:], start=2):  # val_losses[1] is epoch 2
        if loss < best_loss:
            best_epoch, best_loss, waited = epoch, loss, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch, epoch
    return best_epoch, len(val_losses)
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex4-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
try:
    _result4 = early_stopping([5.0, 4.0, 3.0, 3.5, 3.6, 3.7, 2.0], 3)
except Exception as error:
    raise AssertionError(f"early_stopping([5.0, 4.0, 3.0, 3.5, 3.6, 3.7, 2.0], 3) raised {error!r}") from error
assert isinstance(_result4, tuple) and len(_result4) == 2, "return a tuple (best_epoch, stop_epoch)"
assert _result4 != (2, 5), \
    ("number the epochs from 1, as section 7 does: val_losses[0] is the loss after epoch 1, so return "
     "position + 1 (here (3, 6), not the positions (2, 5))")
assert _result4 == (3, 6), \
    "epochs 4, 5 and 6 do not improve on epoch 3: stop at 6 (the loss of epoch 7 is never seen)"
assert early_stopping([3.0, 2.0, 1.0], 2) == (3, 3), \
    "no run of 2 epochs without improvement: stop at the last epoch, 3 (epochs numbered from 1)"
assert early_stopping([3.0, 2.0, 2.0, 2.0], 2) == (2, 4), \
    ("an equal loss is not an improvement, and the best epoch is the earliest of the lowest losses: epochs 3 and 4 "
     "tie with epoch 2 (2.0) without improving on it, so the best epoch is 2 and training stops at 4")
assert early_stopping([2.0, 3.0, 1.0, 4.0], 1) == (1, 2), \
    "use the argument patience: with patience 1, training stops at the first epoch without improvement"
try:
    _array4 = early_stopping(np.array([3.0, 2.0, 2.5, 2.6]), 2)
except AttributeError as error:
    raise AssertionError(f"val_losses may be a NumPy array (as val_loss of section 7): index it, "
                         f"without list methods ({error})") from None
assert _array4 == (2, 4), "a NumPy array of losses: epochs 3 and 4 do not improve on epoch 2, stop at 4"
assert early_stopping([3.0, 2.0, 2.5, 2.4, 2.3, 2.2], 3) == (2, 5), \
    ("an epoch improves only when it beats the BEST loss so far (2.0 at epoch 2), not the previous epoch: "
     "2.4 < 2.5 is no improvement, so epochs 3, 4, 5 end the run of 3: stop at 5")
assert early_stopping([5.0, 4.0, 4.5, 3.0, 3.5, 3.6], 2) == (4, 6), \
    ("start counting again after an improvement: epoch 4 improves, so the run of 2 epochs without "
     "improvement is epochs 5 and 6 (reset the counter to 0 when an epoch improves)")
### BEGIN HIDDEN TESTS
for _losses4, _patience4, _want4 in [([1.0], 5, (1, 1)), ([5.0, 4.0, 4.5, 3.0], 1, (2, 3)),
                                     ([2.0, 3.0, 1.0, 4.0], 2, (3, 4)), ([4.0, 3.0, 3.5, 2.5, 2.6, 2.7, 2.8], 3, (4, 7)),
                                     ([4.0, 4.0, 4.0, 3.0], 2, (1, 3)), ([6.0, 5.0, 5.5, 5.2, 5.1, 4.0], 3, (2, 5)),
                                     ([3.0, 2.0, 2.8, 1.0, 1.5, 1.2, 1.1], 3, (4, 7)), ([2.0, 1.0, 1.5, 1.4, 0.5], 2, (2, 4))]:
    try:
        _got4 = early_stopping(np.array(_losses4), _patience4)
    except Exception as error:
        raise AssertionError(f"early_stopping on a NumPy array raised {error!r}: index it, no list methods") from None
    assert isinstance(_got4, tuple) and len(_got4) == 2, "return a tuple (best_epoch, stop_epoch)"
    assert _got4 == _want4, \
        (f"early_stopping({_losses4}, {_patience4}) gave {_got4}, the rule gives {_want4}: epochs numbered from 1 "
         "(val_losses[0] is epoch 1), an improvement beats the best loss so far, the count restarts after it, "
         "stop at the epoch that ends the run (or the last); the best epoch is the earliest of the lowest losses")
_best4, _stop4 = early_stopping(val_loss, 10)
assert _best4 == int(np.argmin(val_loss[:_stop4])) + 1, \
    "on val_loss of section 7: the best epoch is the earliest lowest loss up to the stop, numbered from 1"
assert _stop4 == _best4 + 10 or (_stop4 == len(val_loss) and _stop4 - _best4 < 10), \
    ("on val_loss of section 7 with patience 10: training stops 10 epochs after the best one "
     "(the count restarts at each improvement), or at the last epoch, len(val_loss)")
assert early_stopping(val_loss, len(val_loss)) == (int(np.argmin(val_loss)) + 1, len(val_loss)), \
    ("with patience as long as the losses training never stops early: the last epoch, len(val_loss), and the "
     "epoch of the lowest loss (section 7's best_epoch)")
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Expected error = noise σ² + bias² + variance. The noise is the floor no model
#   beats; rigid models err by bias, flexible ones by variance.
# - Training error always falls with complexity; the validation error is U-shaped,
#   and its bottom is the complexity to choose (validation curves,
#   `ValidationCurveDisplay`).
# - Learning curves plot both errors against the training-set size. Close, high
#   and flat: bias, more data is useless. A wide gap with a falling validation
#   curve, for a model that cannot memorise its rows: variance, more data or more
#   regularisation help (a forest's gap is mostly memorising). Training error below
#   validation error is normal, not a signal.
# - `learning_curve` sizes cannot exceed the first split's training set, the
#   smallest with `KFold` (7,654 rows of the power-plant data with `cv=5`).
# - L2 shrinks every coefficient, L1 sets some to exactly 0; choose the penalty
#   with a validation curve over α (or C = 1/α).
# - Loss curves plot errors against epochs for one iterative model; early stopping
#   on a validation set is how deep learning chooses when to stop, instead of
#   cross-validation.
#
# **Next**: [`06_hyperparameter_search`](06_hyperparameter_search.ipynb) searches
# many hyperparameters at once (grid, random, successive halving, Optuna) and
# measures how optimistic the best score is.
