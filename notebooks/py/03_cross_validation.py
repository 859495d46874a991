# %% [markdown]
# # 03 · Cross-validation and honest estimates
#
# In [`02_roc_by_hand`](02_roc_by_hand.ipynb) we drew ROC curves and computed
# AUCs on one test set. One test set gives one number, and this notebook asks how
# far that number can be trusted: how to estimate the score of a model on data it
# has never seen, how much the estimate moves when the split changes, and the many
# ways to fool yourself (scoring on the training data, letting the test rows leak
# into the preprocessing, reporting the score you tuned on). The next notebook,
# [`04_oversampling`](04_oversampling.ipynb), builds on all of it when it
# resamples imbalanced data inside cross-validation.
#
# **You will learn**
# - the roles of the training, validation and test sets (the quizzes and the final exam);
# - resubstitution vs hold-out, and how much a hold-out estimate depends on the random split;
# - k-fold, stratified k-fold, leave-one-out, shuffle-split and repeated k-fold, and
#   which sample each of them puts in which fold;
# - how the number of folds k trades bias, variance and cost;
# - the bootstrap, its out-of-bag share and out-of-bag estimates;
# - `cross_val_score` vs `cross_validate`, and the same loop written by hand;
# - leakage through preprocessing, groups and time, and the splitters that prevent it;
# - nested cross-validation for a tuned model;
# - comparing two models with paired differences, a corrected t-test and a confidence interval.
#
# **Prerequisites**: notebooks 01 and 02 (ROC AUC, scorers, the custom
# `specificity_scorer`), scikit-learn pipelines (`make_pipeline`,
# `make_column_transformer`) and `predict_proba`.
#
# Where the lecture notes this course is built from contain a mistake, the
# notebook says so where it uses the example.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats
from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.ensemble import BaggingClassifier
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, get_scorer, make_scorer, roc_auc_score
from sklearn.model_selection import (GridSearchCV, GroupKFold, KFold, LeaveOneOut, RepeatedStratifiedKFold,
                                     ShuffleSplit, StratifiedKFold, TimeSeriesSplit, cross_val_score,
                                     cross_validate, train_test_split)
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from helpers.cv import bootstrap_oob_shares, corrected_resampled_ttest, cv_spread_state
from helpers.datasets import load_bank_marketing
from helpers.metrics import specificity_scorer
from helpers.plotting import plot_cv_splits
from helpers.widgets import cv_spread_explorer, describe_cv_spread_state

RANDOM_STATE = 0
# The data are small: one BLAS thread per fit is faster than several threads
# competing for the cores, and it keeps every number reproducible.
_ = threadpool_limits(limits=1)

X, y = load_bank_marketing()
numeric = make_column_selector(dtype_include="number")
categorical = make_column_selector(dtype_exclude="number")


def make_logreg():
    """Scale the numbers, one-hot encode the categories, then a logistic regression."""
    encode = make_column_transformer((StandardScaler(), numeric),
                                     (OneHotEncoder(handle_unknown="ignore"), categorical))
    return make_pipeline(encode, LogisticRegression(max_iter=1000))


def make_tree(**params):
    """One-hot encode the categories (numbers pass through), then a decision tree."""
    encode = make_column_transformer((OneHotEncoder(handle_unknown="ignore"), categorical),
                                     remainder="passthrough")
    return make_pipeline(encode, DecisionTreeClassifier(random_state=RANDOM_STATE, **params))


# A cheap model for the experiments that need hundreds of fits.
X_numeric = X.select_dtypes("number").to_numpy(dtype=float)
quick_model = make_pipeline(StandardScaler(), LogisticRegression())

print(f"{len(X)} clients, {X.shape[1]} features ({X_numeric.shape[1]} numeric), "
      f"{y.mean():.3f} of them subscribed")

# %% [markdown]
# The bank-marketing data of notebook 01: one row per client, `y = 1` when the
# client subscribed to a term deposit. About one client in nine did, so accuracy
# says little (notebook 01) and the main score here is the ROC AUC computed from
# predicted probabilities (notebook 02). `make_logreg()` and `make_tree()` build
# fresh, unfitted pipelines; `quick_model` uses the numeric columns only and is
# there for experiments that fit a model hundreds of times.
#
# ## 1. Training, validation and test sets: the quizzes and the final exam
#
# The lecture notes compare the three sets to a course:
#
# - the **training set** is the material you study: the model learns from it;
# - the **validation set** is the quizzes: you may take many of them and change
#   how you study after each one (choose a model, tune a hyperparameter);
# - the **test set** is the final exam: taken **once**, at the end. If you saw the
#   exam questions while preparing, your grade no longer says what you learned.
#
# A stratified split keeps the share of subscribers the same in every part.

# %%
X_rest, X_test, y_rest, y_test = train_test_split(
    X, y, test_size=0.2, stratify=y, random_state=RANDOM_STATE)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=0.25, stratify=y_rest, random_state=RANDOM_STATE)
for name, part in [("training", y_train), ("validation", y_val), ("test", y_test)]:
    print(f"{name:<10s} {len(part):5d} rows, share subscribed {part.mean():.3f}")

# %% [markdown]
# The three parts have the same share of subscribers. Now the workflow of the
# notes: compare candidates on the validation set (the quizzes), refit the winner
# on training + validation, and open the test set once.

# %%
candidates = {"logistic regression": make_logreg(), "decision tree, depth 4": make_tree(max_depth=4)}
quiz = {name: roc_auc_score(y_val, model.fit(X_train, y_train).predict_proba(X_val)[:, 1])
        for name, model in candidates.items()}
for name, score in quiz.items():
    print(f"validation AUC, {name:<22s} {score:.3f}")
winner = max(quiz, key=quiz.get)
final = candidates[winner].fit(X_rest, y_rest)
print(f"chosen: {winner}; test AUC after refitting on training + validation: "
      f"{roc_auc_score(y_test, final.predict_proba(X_test)[:, 1]):.3f}")

# %% [markdown]
# The logistic regression wins the quiz and its test score is the number to
# report. The validation score of the winner is *not* that number: it was used to
# pick the winner, and a maximum over candidates is biased upwards (section 9
# measures this). With few rows, a single validation set is itself noisy, which is
# why the rest of this notebook replaces it by cross-validation.
#
# ## 2. Resubstitution vs hold-out
#
# **Resubstitution** scores the model on the very data it was trained on. It says
# nothing about new data: a model that memorises scores perfectly. **Hold-out**
# keeps part of the data aside (here 30 %, stratified) and scores on that part only.

# %%
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=RANDOM_STATE)
for name, model in [("logistic regression", make_logreg()), ("unpruned decision tree", make_tree())]:
    resubstitution = roc_auc_score(y, model.fit(X, y).predict_proba(X)[:, 1])
    hold_out = roc_auc_score(y_te, model.fit(X_tr, y_tr).predict_proba(X_te)[:, 1])
    print(f"{name:<23s} resubstitution AUC {resubstitution:.3f}   hold-out AUC {hold_out:.3f}")

# %% [markdown]
# The unpruned tree grows until every training row is classified correctly, so its
# resubstitution AUC is perfect; on rows it has not seen it ranks clients barely
# better than chance and is far behind the logistic regression, whose two scores
# are close. Resubstitution would have chosen the wrong model.
#
# ### How much does a hold-out estimate move?
#
# The notes' exercise: change `random_state` to 0, 1 or 5 and compare. Below, the
# same hold-out (30 %, stratified) with the quick model, for those three seeds and
# then for forty seeds.

# %%
def hold_out_auc(seed):
    """Hold-out ROC AUC of the quick model for one random split."""
    X_tr, X_te, y_tr, y_te = train_test_split(X_numeric, y, test_size=0.3, stratify=y, random_state=seed)
    return roc_auc_score(y_te, quick_model.fit(X_tr, y_tr).predict_proba(X_te)[:, 1])


for seed in (0, 1, 5):
    print(f"random_state={seed}: hold-out AUC {hold_out_auc(seed):.3f}")
seeds = np.arange(40)
hold_out_scores = np.array([hold_out_auc(seed) for seed in seeds])
print(f"{seeds.size} seeds: from {hold_out_scores.min():.3f} to {hold_out_scores.max():.3f} "
      f"(a range of {np.ptp(hold_out_scores):.3f}), mean {hold_out_scores.mean():.3f}, "
      f"standard deviation {hold_out_scores.std(ddof=1):.3f}")

fig, ax = plt.subplots(figsize=(6, 3))
ax.hist(hold_out_scores, bins=15, color="#4c72b0", alpha=0.8)
for seed in (0, 1, 5):
    ax.axvline(hold_out_scores[seed], color="#dd8452", lw=2)
    ax.annotate(f"seed {seed}", (hold_out_scores[seed], ax.get_ylim()[1]), rotation=90, va="top",
                ha="right", fontsize=8)
_ = ax.set(xlabel="hold-out ROC AUC", ylabel="number of seeds",
           title="The same model, the same data, forty random splits")
plt.show()

# %% [markdown]
# Nothing changed but the seed, yet the estimates span almost a tenth of AUC, and
# the three seeds of the notes alone tell three different stories. That is more
# than the gap between many pairs of models one might want to compare. A
# single hold-out score is one draw from this histogram. Averaging over several
# splits, which is what cross-validation does, narrows it.
#
# ## 3. Splitters: which sample lands in which fold
#
# A scikit-learn *splitter* yields pairs of index arrays `(train, test)`.
# `plot_cv_splits` (in `helpers.plotting`) draws one row per split: blue samples
# train the model, orange ones test it, grey ones are not used; the bottom row is
# each sample's class. The toy data have 24 samples **sorted by class**, as files
# often are.

# %%
X_toy = np.arange(24).reshape(-1, 1)
y_toy = np.repeat([0, 1], [16, 8])
splitters = {
    "KFold(4): consecutive blocks": KFold(n_splits=4),
    "KFold(4, shuffle=True)": KFold(n_splits=4, shuffle=True, random_state=RANDOM_STATE),
    "StratifiedKFold(4, shuffle=True)": StratifiedKFold(n_splits=4, shuffle=True, random_state=RANDOM_STATE),
    "ShuffleSplit(5, test_size=0.25, train_size=0.5): random subsampling": ShuffleSplit(
        n_splits=5, test_size=0.25, train_size=0.5, random_state=RANDOM_STATE),
    "RepeatedStratifiedKFold(4, n_repeats=2)": RepeatedStratifiedKFold(
        n_splits=4, n_repeats=2, random_state=RANDOM_STATE),
    "LeaveOneOut": LeaveOneOut(),
}
heights = [cv.get_n_splits(X_toy, y_toy) + 2 for cv in splitters.values()]
fig, axes = plt.subplots(len(splitters), 1, figsize=(8, 0.24 * sum(heights) + 3), height_ratios=heights)
for ax, (title, cv) in zip(axes, splitters.items()):
    plot_cv_splits(cv, X_toy, y_toy, ax=ax, title=title, legend=title.startswith(("KFold(4):", "ShuffleSplit")))
    ax.set_xlabel("")
axes[-1].set_xlabel("sample index")
fig.tight_layout()
plt.show()

# %% [markdown]
# What the figure shows (the notes' "look at the order of the tuples"):
#
# - **KFold** without shuffling cuts consecutive blocks: with sorted data the first
#   folds test on class 0 only and the last on class 1 only.
# - **KFold with shuffling** mixes the rows, but the share of each class still
#   varies from fold to fold.
# - **StratifiedKFold** puts the same number of each class in every test fold. It
#   is what `cross_val_score(..., cv=5)` uses for a classifier (without shuffling).
# - **ShuffleSplit** (random subsampling) draws each test set independently: a
#   sample may be tested several times or never, and with `train_size` set, some
#   samples are not used at all.
# - **RepeatedStratifiedKFold** runs stratified k-fold several times with different
#   shuffles: each sample is tested once per repeat.
# - **LeaveOneOut** is k-fold with k = n: n fits, each tested on one sample.
#
# On the bank data the rows are not sorted, so plain `KFold` does less harm, but
# the share of subscribers still wanders between folds:

# %%
def test_fold_shares(cv):
    """Share of subscribers in each test fold of ``cv`` on the bank data."""
    return [y.iloc[test].mean() for _, test in cv.split(X, y)]


shares = pd.DataFrame({
    "KFold(5)": test_fold_shares(KFold(n_splits=5)),
    "StratifiedKFold(5)": test_fold_shares(StratifiedKFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)),
}, index=pd.RangeIndex(1, 6, name="test fold"))
print(shares.to_string(float_format="{:.3f}".format))
print(f"leave-one-out on the bank data would need {LeaveOneOut().get_n_splits(X)} fits")

# %% [markdown]
# Stratified folds all match the overall share of subscribers (0.115) to within
# rounding; plain folds drift around it. Leave-one-out would fit the model once per client, which
# is rarely worth it beyond small data sets, and its single-sample test folds
# cannot even compute an AUC.
#
# ## 4. Choosing k: bias, variance and cost
#
# The notes give the usual rule: a large k trains on more data (less pessimistic,
# lower bias) but costs more fits, and is said to vary more; k = 10 is the most
# popular. Here it is measured with `cv_spread_state` (in `helpers.cv`): repeated
# stratified k-fold, 5 repeats with different shuffles, for several k. Each repeat
# gives one estimate (the mean of its k folds); the *spread* is the standard
# deviation of those estimates, i.e. how much the result depends on the shuffle.

# %%
k_values = (2, 5, 10)
states = {k: cv_spread_state(quick_model, X_numeric, y, k, n_repeats=5, random_state=RANDOM_STATE)
          for k in k_values}
table = pd.DataFrame({
    "training rows": [states[k]["train_size"] for k in k_values],
    "fits": [states[k]["n_fits"] for k in k_values],
    "estimate": [states[k]["mean"] for k in k_values],
    "spread between repeats": [states[k]["spread"] for k in k_values],
    "spread of single folds": [states[k]["fold_spread"] for k in k_values],
}, index=pd.Index(k_values, name="k"))
print(table.to_string(formatters={"training rows": "{:.0f}".format, "estimate": "{:.4f}".format,
                                  "spread between repeats": "{:.4f}".format,
                                  "spread of single folds": "{:.4f}".format}))

fig, (ax_score, ax_time) = plt.subplots(1, 2, figsize=(9, 3))
ax_score.errorbar(k_values, table["estimate"], yerr=table["spread between repeats"], fmt="o-", capsize=4)
_ = ax_score.set(xlabel="k", ylabel="ROC AUC", xticks=k_values,
                 title="estimate +/- spread between repeats")
ax_time.bar([str(k) for k in k_values], [states[k]["fit_seconds"] for k in k_values], color="#dd8452")
_ = ax_time.set(xlabel="k", ylabel="seconds", title="time spent fitting (5 repeats)")
fig.tight_layout()
plt.show()

# %% [markdown]
# Three things to read, on this data set:
#
# - **bias**: the estimate creeps up with k, because each model trains on a larger
#   share of the rows. With thousands of rows and a simple model the effect is
#   small; it is larger when the learning curve is still steep (notebook 05);
# - **variance**: single folds scatter more as k grows (each test fold is smaller),
#   but the *estimate*, their mean over k folds, depends less on the shuffle. The
#   notes' "variance is high when k is large" is about the folds, not about the
#   averaged estimate, and is not a law;
# - **cost** grows in proportion to k (the time panel is measured, so it changes
#   from run to run).
#
# The spread between repeats only measures how much the estimate depends on the
# shuffle. It does not include the uncertainty that comes from having this data
# set rather than another one of the same size, which no amount of repeating
# removes (the corrected t-test of section 11 tries to account for it).
#
# k = 5 or 10, repeated when the data are small, is a good default. The slider of
# section 10 lets you try other values of k and numbers of repeats.
#
# ## 5. The bootstrap and the out-of-bag estimate
#
# A bootstrap sample draws n rows **with replacement** from the n rows of the data:
# some rows are drawn several times, others never. The rows never drawn are the
# **out-of-bag** (OOB) rows, and they form the test set. With the five samples of
# the notes:

# %%
rng = np.random.default_rng(RANDOM_STATE)
names = np.array(["x1", "x2", "x3", "x4", "x5"])
for draw in (1, 2, 3):
    drawn = rng.integers(0, names.size, names.size)
    out_of_bag = np.setdiff1d(np.arange(names.size), drawn)
    print(f"bootstrap sample {draw}: {' '.join(names[drawn])}   out of bag: {' '.join(names[out_of_bag])}")

# %% [markdown]
# Each bootstrap sample has five draws, and the rows that never come up are tested.
# What share of the rows is out of bag? One row is missed by one draw with
# probability 1 - 1/n, and by all n independent draws with probability
# (1 - 1/n)^n, which tends to 1/e as n grows. `bootstrap_oob_shares` (in
# `helpers.cv`) checks it by simulation, 500 bootstrap samples per n:

# %%
oob_table = pd.DataFrame({
    "simulated OOB share": [bootstrap_oob_shares(n, 500, RANDOM_STATE).mean() for n in (5, 10, 100, 1000, 10_000)],
    "(1 - 1/n)^n": [(1 - 1 / n) ** n for n in (5, 10, 100, 1000, 10_000)],
}, index=pd.Index([5, 10, 100, 1000, 10_000], name="n"))
print(oob_table.to_string(float_format="{:.4f}".format))
print(f"1/e = {np.exp(-1):.3f}: {np.exp(-1):.1%} of the rows are out of bag in the limit")

# %% [markdown]
# Simulation and formula agree to about two decimals, and from a hundred rows on
# both are within a few thousandths of 1/e: a bootstrap sample leaves out a bit more
# than a third of the data.
#
# **Erratum.** The lecture notes (003) write the probability of never being drawn
# as (1 - 1/n)^m with m → ∞, m being the number of bootstrap samples, and call the
# test set "the remaining n samples". With n fixed, raising 1 - 1/n to an ever
# larger power goes to 0, not to 1/e:

# %%
for m in (5, 50, 500):
    print(f"n = 5, m = {m:3d}: (1 - 1/5)^m = {(1 - 1 / 5) ** m:.3g}")

# %% [markdown]
# The correct statement: within **one** bootstrap sample of n draws, a row is never
# drawn with probability (1 - 1/n)^n → 1/e = 0.368 as **n** → ∞, and the test set
# is those never-drawn rows (about 36.8 % of them), not "the remaining n samples".
#
# ### An out-of-bag estimate by hand, then with `BaggingClassifier`
#
# Trees need no scaling, so we one-hot encode once. The encoder only learns the
# list of categories, no label and no statistic of the rows, so fitting it on all
# rows leaks nothing. Then, `n_trees` times: draw a bootstrap sample, grow a tree
# on it, score it on its out-of-bag rows, and add its predicted probabilities to
# the votes of those rows.

# %%
encoder = make_column_transformer((OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
                                  remainder="passthrough")
Z, y_array = encoder.fit_transform(X), y.to_numpy()
n_rows, n_trees = len(y_array), 20
rng = np.random.default_rng(RANDOM_STATE)
votes, tree_aucs = np.zeros((n_rows, 2)), []
for _ in range(n_trees):
    drawn = rng.integers(0, n_rows, n_rows)
    oob = np.ones(n_rows, dtype=bool)
    oob[drawn] = False
    tree = DecisionTreeClassifier(random_state=RANDOM_STATE).fit(Z[drawn], y_array[drawn])
    proba = tree.predict_proba(Z[oob])
    votes[oob] += proba
    tree_aucs.append(roc_auc_score(y_array[oob], proba[:, 1]))
voted = votes.sum(axis=1) > 0
print(f"rows out of bag at least once: {voted.sum()} of {n_rows}")
print(f"one tree, OOB AUC averaged over {n_trees} rounds: {np.mean(tree_aucs):.3f}")
print(f"the {n_trees} trees voting, OOB AUC:              "
      f"{roc_auc_score(y_array[voted], votes[voted, 1] / votes[voted].sum(axis=1)):.3f}")

# %% [markdown]
# Every row was out of bag in at least one round, so every row has votes (a row
# without any would be left out of the voted AUC). A single unpruned tree is a
# poor ranker (as in section 2), while the vote of the trees,
# each scored only on rows it never saw, is much better: that is **bagging**, and
# its out-of-bag score is an honest estimate obtained without a separate test
# set. `BaggingClassifier(oob_score=True)` computes it for us. Its `oob_score_` is
# the accuracy of the summed out-of-bag probabilities; below we recompute it from
# the fitted trees and the rows each one drew (`estimators_samples_`).

# %%
bagging = BaggingClassifier(DecisionTreeClassifier(), n_estimators=n_trees, oob_score=True,
                            random_state=RANDOM_STATE).fit(Z, y_array)
votes = np.zeros((n_rows, 2))
for tree, drawn in zip(bagging.estimators_, bagging.estimators_samples_):
    oob = np.ones(n_rows, dtype=bool)
    oob[drawn] = False
    votes[oob] += tree.predict_proba(Z[oob])
print(f"oob_score_ (accuracy):        {bagging.oob_score_:.4f}")
print(f"the same, by hand:            {accuracy_score(y_array, votes.argmax(axis=1)):.4f}")
print(f"majority-class accuracy:      {1 - y_array.mean():.4f}")
print(f"OOB AUC from oob_decision_function_: {roc_auc_score(y_array, bagging.oob_decision_function_[:, 1]):.3f}")

# %% [markdown]
# The library and the hand computation agree exactly. The OOB accuracy does not
# even beat always answering "no", the usual accuracy trap on imbalanced data; the
# OOB AUC, computed from `oob_decision_function_`, is the informative number, and
# it is close to our hand-made bag (different random draws, same method).
#
# ## 6. `cross_val_score` vs `cross_validate`
#
# `cross_val_score` returns one score per fold for one metric. `cross_validate`
# takes several metrics at once (strings, or scorer objects such as the
# `specificity_scorer` of `helpers.metrics`), and also returns fit and score times
# and, on request, the training scores. The same splitter object with a fixed
# `random_state` gives both functions the same folds.

# %%
cv5 = StratifiedKFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
auc_per_fold = cross_val_score(make_logreg(), X, y, cv=cv5, scoring="roc_auc")
print("cross_val_score, ROC AUC per fold:", np.round(auc_per_fold, 3))
print(f"mean {auc_per_fold.mean():.3f}, standard deviation {auc_per_fold.std(ddof=1):.3f}")

# %% [markdown]
# Five folds, five AUCs, each one a hold-out estimate and as scattered as those of
# section 2; their mean is the cross-validated estimate, steadier than any single
# fold. Next, several metrics at once.

# %%
scoring = {
    "roc_auc": "roc_auc",
    "accuracy": "accuracy",
    "recall": "recall",
    "specificity": specificity_scorer,
    "f1": "f1",
}
results = cross_validate(make_logreg(), X, y, cv=cv5, scoring=scoring, return_train_score=True)
summary = pd.DataFrame({
    "test mean": [results[f"test_{name}"].mean() for name in scoring],
    "test std": [results[f"test_{name}"].std(ddof=1) for name in scoring],
    "train mean": [results[f"train_{name}"].mean() for name in scoring],
}, index=list(scoring))
print(summary.to_string(float_format="{:.3f}".format))
print(f"mean fit time {results['fit_time'].mean():.3f} s, mean score time {results['score_time'].mean():.3f} s")
print("test AUCs identical to cross_val_score's:", np.array_equal(results["test_roc_auc"], auc_per_fold))

# %% [markdown]
# - The test AUCs are exactly those of `cross_val_score`: same folds, same model.
# - Training and test scores are close, so the logistic regression does not
#   overfit; a large gap would be the sign of it.
# - At the default 0.5 threshold the model finds few subscribers (low recall, high
#   specificity, low F1) while its AUC is fair: labels and scores tell different
#   stories, as in notebook 02.
# - The fit and score times (they change from run to run) show where the cost is.
#
# **Erratum.** The notes pass `needs_proba=True` or `needs_threshold=True` to
# `make_scorer`; those arguments no longer exist. Use `response_method`
# (`"predict_proba"`, `"decision_function"` or a tuple of both, tried in order).
# A hand-made AUC scorer gives the built-in `"roc_auc"` scorer's value, here on
# the final model of section 1 and its test set:

# %%
auc_scorer = make_scorer(roc_auc_score, response_method="predict_proba")
print(f"make_scorer(roc_auc_score, response_method='predict_proba'): {auc_scorer(final, X_test, y_test):.4f}")
print(f"get_scorer('roc_auc'):                                      "
      f"{get_scorer('roc_auc')(final, X_test, y_test):.4f}")

# %% [markdown]
# The two agree: the built-in scorer uses the decision function, whose ranking of
# the clients is the same as that of the probabilities.
#
# ## 7. The same loop by hand
#
# The notes' exercise: loop over `StratifiedKFold` yourself and compute accuracy,
# F1 and ROC AUC per fold. Two corrections to the notes' code: `X[train:]` must be
# `X[train]` (here `X.iloc[train]`: the indices are positions), and the AUC must
# come from **scores** (`predict_proba(...)[:, 1]`), not from predicted labels.

# %%
rows = []
for fold, (train, test) in enumerate(cv5.split(X, y), start=1):
    model = make_logreg().fit(X.iloc[train], y.iloc[train])
    scores = model.predict_proba(X.iloc[test])[:, 1]
    labels = model.predict(X.iloc[test])
    rows.append({"fold": fold,
                 "accuracy": accuracy_score(y.iloc[test], labels),
                 "f1": f1_score(y.iloc[test], labels),
                 "roc_auc": roc_auc_score(y.iloc[test], scores),
                 "AUC from labels (wrong)": roc_auc_score(y.iloc[test], labels)})
manual = pd.DataFrame(rows).set_index("fold")
print(manual.to_string(float_format="{:.3f}".format))
print("same as cross_validate:",
      all(np.allclose(manual[name], results[f"test_{name}"]) for name in ["accuracy", "f1", "roc_auc"]))

# %% [markdown]
# The hand loop reproduces `cross_validate` fold by fold. The "AUC" computed from
# hard labels is much lower: with labels the ROC curve has a single corner, so it
# measures one threshold, not the ranking.
#
# ## 8. Leakage: when the test folds take part in training
#
# Cross-validation is honest only if **everything** learned from data is learned
# inside each training fold. Three classic leaks follow.
#
# ### Feature selection before the split
#
# Pure noise: 300 samples, 1,000 random features, random labels. No model can do
# better than chance (AUC 0.5). Selecting the 20 features most correlated with the
# labels on **all** rows, then cross-validating, lets the test folds choose the
# features.

# %%
rng = np.random.default_rng(RANDOM_STATE)
X_noise = rng.normal(size=(300, 1000))
y_noise = np.repeat([0, 1], 150)
selected = SelectKBest(f_classif, k=20).fit_transform(X_noise, y_noise)  # sees the test folds
leaky = cross_val_score(LogisticRegression(), selected, y_noise, cv=cv5, scoring="roc_auc")
inside = make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression())  # refitted in each fold
honest = cross_val_score(inside, X_noise, y_noise, cv=cv5, scoring="roc_auc")
print(f"selection before the split: AUC {leaky.mean():.3f}")
print(f"selection inside a Pipeline: AUC {honest.mean():.3f}")
print(f"inflation: {leaky.mean() - honest.mean():+.3f}")

# %% [markdown]
# The leaky protocol reports a clearly useful model on data with no signal at all;
# the pipeline, which selects features on the training folds only, reports chance.
# The same holds, less visibly, for a scaler, an imputer or a resampler (notebook
# 04) fitted before the split: put every fitted step in the `Pipeline`.
#
# ### Groups: the same subject in training and test
#
# When several rows come from the same subject (visits of one patient, calls to one
# client), a model can recognise the subject instead of learning the task. Below,
# 30 subjects with 8 rows each; each subject has its own position in feature space
# and one random label for all its rows, so the features say nothing about the
# label of a **new** subject.

# %%
rng = np.random.default_rng(RANDOM_STATE)
n_subjects, rows_per_subject = 30, 8
subjects = np.repeat(np.arange(n_subjects), rows_per_subject)
X_subjects = rng.normal(scale=3, size=(n_subjects, 2))[subjects] + rng.normal(scale=0.5, size=(subjects.size, 2))
y_subjects = rng.integers(0, 2, n_subjects)[subjects]
knn = KNeighborsClassifier(n_neighbors=5)
mixed = cross_val_score(knn, X_subjects, y_subjects, cv=KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE),
                        scoring="roc_auc")
grouped = cross_val_score(knn, X_subjects, y_subjects, cv=GroupKFold(n_splits=5), groups=subjects,
                          scoring="roc_auc")
print(f"KFold (subjects split across folds): AUC {mixed.mean():.3f}")
print(f"GroupKFold (whole subjects per fold): AUC {grouped.mean():.3f}")

fig, axes = plt.subplots(2, 1, figsize=(8, 4.2))
plot_cv_splits(KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE), X_subjects, y_subjects,
               groups=subjects, ax=axes[0], title="KFold(5, shuffle=True): every subject in every fold")
plot_cv_splits(GroupKFold(n_splits=5), X_subjects, y_subjects, groups=subjects, ax=axes[1],
               title="GroupKFold(5): each subject in one test fold only")
fig.tight_layout()
plt.show()

# %% [markdown]
# With plain k-fold, the nearest neighbours of a test row are rows of the same
# subject, so the model "predicts" a label it has already seen. `GroupKFold` keeps
# each subject (a run of one colour in the group row) in a single test fold, and the
# estimate falls close to the 0.5 of guessing (with only 30 subjects it is itself
# noisy): the honest answer for a new subject.
#
# ### Time: training on the future
#
# A drifting series (a random walk) predicted from the time index alone. Shuffled
# k-fold tests on days scattered between training days, so the model only
# interpolates between neighbours; in real use it must forecast days **after** the
# last one it saw. `TimeSeriesSplit` always tests on the future.

# %%
rng = np.random.default_rng(RANDOM_STATE)
days = np.arange(300).reshape(-1, 1)
series = np.cumsum(rng.normal(size=days.shape[0]))
knn_regressor = KNeighborsRegressor(n_neighbors=5)
shuffled = cross_val_score(knn_regressor, days, series, cv=KFold(n_splits=5, shuffle=True,
                                                                 random_state=RANDOM_STATE), scoring="r2")
forward = cross_val_score(knn_regressor, days, series, cv=TimeSeriesSplit(n_splits=5), scoring="r2")
print(f"shuffled KFold:  R² {shuffled.mean():.3f}")
print(f"TimeSeriesSplit: R² {forward.mean():.3f} (per fold: {np.round(forward, 2)})")

ax = plot_cv_splits(TimeSeriesSplit(n_splits=5), days,
                    title="TimeSeriesSplit(5): train on the past, test on the next block")
ax.set_xlabel("day")
ax.figure.set_size_inches(8, 1.8)
plt.show()

# %% [markdown]
# Shuffled k-fold promises an almost perfect R²; forecasting the future, the same
# model is worse than predicting the mean (negative R²). `TimeSeriesSplit`
# reproduces how the model will be used: the training window grows, the test block
# always comes after it.
#
# ## 9. Nested cross-validation
#
# `GridSearchCV` picks the hyperparameters with the best cross-validated score,
# `best_score_`. That score was used to choose, so it is optimistic: the maximum of
# several noisy estimates. Nested cross-validation puts the whole search inside an
# outer loop: each outer training fold runs its own search (inner CV), and the
# outer test fold, which the search never saw, scores the tuned model. Below, a
# k-nearest-neighbours classifier on the numeric columns of 500 clients, tuning
# `n_neighbors`; a small sample is where the optimism shows most.

# %%
X_small, _, y_small, _ = train_test_split(X_numeric, y, train_size=500, stratify=y, random_state=RANDOM_STATE)
search = GridSearchCV(make_pipeline(StandardScaler(), KNeighborsClassifier()),
                      {"kneighborsclassifier__n_neighbors": [5, 15, 50, 100]},
                      cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=RANDOM_STATE), scoring="roc_auc")
nested = cross_validate(search, X_small, y_small, cv=cv5, scoring="roc_auc", return_estimator=True)
nested_table = pd.DataFrame({
    "chosen n_neighbors": [s.best_params_["kneighborsclassifier__n_neighbors"] for s in nested["estimator"]],
    "inner best_score_": [s.best_score_ for s in nested["estimator"]],
    "outer test AUC": nested["test_score"],
}, index=pd.RangeIndex(1, 6, name="outer fold"))
print(nested_table.to_string(float_format="{:.3f}".format))
optimistic = nested_table["inner best_score_"] > nested_table["outer test AUC"]
print(f"inner best score above the outer test score in {optimistic.sum()} of {len(optimistic)} folds")
print(f"mean inner best score {nested_table['inner best_score_'].mean():.3f}, "
      f"nested estimate {nested_table['outer test AUC'].mean():.3f}")

# %% [markdown]
# In three of the five outer folds the search's own best score is above what its
# choice scores on the untouched outer fold, and on average by about five
# hundredths: reporting
# `best_score_` would oversell the model. The nested estimate is the honest figure
# for "this model **with** its tuning procedure". The final model is then one
# search refitted on all the data; the nested estimate describes it, the inner
# scores do not. (Notebook 06 returns to this with larger searches.)
#
# ## 10. The spread of the estimate: a slider for k
#
# The explorer below re-runs `cv_spread_state` for the k and number of repeats you
# choose: each row of dots is one repeat (one shuffle) of k folds, the diamonds are
# the repeats' estimates, the band is their mean plus or minus one spread. It
# reuses the states of section 4. First its pure function, for the values of
# section 4 (the fitting time is measured, so it changes from run to run):

# %%
for k in k_values:
    print(describe_cv_spread_state(states[k]))

# %% [markdown]
# The same numbers as the table of section 4, as the explorer prints them under its
# figure. Now the explorer itself (it needs a running kernel to respond):

# %% tags=["nbval-ignore-output"]
cv_spread_explorer(quick_model, X_numeric, y, ks=(2, 3, 5, 10, 20), random_state=RANDOM_STATE,
                   xlim=(0.4, 0.8), states={(k, 5): state for k, state in states.items()})

# %% [markdown]
# Move k up: the dots (single folds) spread out, the diamonds (estimates) move
# closer together. Move the repeats up: the spread is estimated more precisely, at
# a cost that grows with k times the number of repeats.
#
# ## 11. Comparing two models
#
# Is the logistic regression better than a depth-4 decision tree? Score both on
# **the same** folds and look at the paired differences, fold by fold. The
# logistic regression's five AUCs are those of section 6 (`cv5`); the tree is
# scored on the same `cv5` folds.

# %%
auc_logreg = results["test_roc_auc"]
auc_tree = cross_val_score(make_tree(max_depth=4), X, y, cv=cv5, scoring="roc_auc")
differences = auc_logreg - auc_tree
print("logistic regression - tree, per fold:", np.round(differences, 3))
print(f"the logistic regression wins {np.sum(differences > 0)} of {differences.size} folds, "
      f"mean difference {differences.mean():+.3f}")

# %% [markdown]
# The logistic regression wins on every fold. But how sure can we be? A plain
# paired t-test treats the folds as independent samples; they are not, because the
# training sets overlap (any two 5-fold training sets share most of their rows).
# **Nadeau and Bengio's corrected resampled t-test** inflates the variance of the
# mean difference from s²/J to (1/J + n_test/n_train)·s², where J is the number of
# splits, then uses a t distribution with J - 1 degrees of freedom. It applies
# as well to repeated k-fold (J = k × repeats), which gives more pairs when fits
# are cheap.

# %%
train, test = next(cv5.split(X, y))
naive = stats.ttest_rel(auc_logreg, auc_tree)
corrected = corrected_resampled_ttest(auc_logreg, auc_tree, n_train=len(train), n_test=len(test))
print(f"n_train = {len(train)}, n_test = {len(test)}, J = {differences.size} splits")
print(f"plain paired t-test:  t = {naive.statistic:.2f}, p = {naive.pvalue:.2g}")
print(f"corrected t-test:     t = {corrected.t:.2f}, p = {corrected.p_value:.2g}")
print(f"95 % confidence interval of the mean AUC difference: "
      f"[{corrected.ci_low:+.3f}, {corrected.ci_high:+.3f}]")

# %% [markdown]
# The correction shrinks t and raises the p-value; here the interval still
# excludes 0, so the advantage of the logistic regression survives. What this
# **proves**: on data like these (the same population, about this many rows), this
# pipeline ranks clients better than this tree, by an AUC margin inside the
# interval. What it does **not** prove: that logistic regression beats trees in
# general (one depth, one data set), that it would hold for another population,
# or that the margin matters for the business; and a p-value above 0.05 would not
# have proved the models equal.
#
# ## Practice
#
# Five graded exercises. Each has a cell for your answer and a cell of tests; run
# both. The visible tests give hints; more tests are run when grading.
#
# **Exercise 1 (2 points).** Write `expected_oob_count(n)`: the expected number of
# rows left out of one bootstrap sample of a data set of `n` rows.

# %% nbgrader={"grade": false, "grade_id": "ex1-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def expected_oob_count(n):
    """Expected number of out-of-bag rows in one bootstrap sample of n rows."""
    ### BEGIN SOLUTION
    return n * (1 - 1 / n) ** n
    ### END SOLUTION
    raise NotImplementedError


# %% nbgrader={"grade": true, "grade_id": "ex1-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
assert expected_oob_count(1) == 0, "with one row, the single draw always picks it"
assert abs(expected_oob_count(2) - 0.5) < 1e-12, "n = 2: each row is missed by both draws with probability 1/4"
### BEGIN HIDDEN TESTS
assert abs(expected_oob_count(4) - 4 * 0.75 ** 4) < 1e-12
assert abs(expected_oob_count(1000) / 1000 - np.exp(-1)) < 1e-3
assert abs(expected_oob_count(10) - bootstrap_oob_shares(10, 5000, 1).mean() * 10) < 0.1
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2 (3 points).** Write `fold_aucs(model, X, y, cv)`: loop over
# `cv.split(X, y)`, fit a fresh copy of `model` (`sklearn.base.clone`) on each
# training fold and return a NumPy array of the ROC AUCs on the test folds, computed
# from `predict_proba(...)[:, 1]`. `X` is a NumPy array.

# %% nbgrader={"grade": false, "grade_id": "ex2-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
from sklearn.base import clone


def fold_aucs(model, X, y, cv):
    """ROC AUC of a fresh copy of model on each test fold of cv."""
    ### BEGIN SOLUTION
    aucs = []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 1]))
    return np.array(aucs)
    ### END SOLUTION
    raise NotImplementedError


# %% nbgrader={"grade": true, "grade_id": "ex2-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
_X2, _y2 = X_numeric[:600], y.to_numpy()[:600]
_cv2 = StratifiedKFold(n_splits=3, shuffle=True, random_state=RANDOM_STATE)
_aucs2 = fold_aucs(quick_model, _X2, _y2, _cv2)
assert len(_aucs2) == 3, "one AUC per test fold"
assert np.allclose(_aucs2, cross_val_score(quick_model, _X2, _y2, cv=_cv2, scoring="roc_auc")), \
    "the AUCs should equal cross_val_score(..., scoring='roc_auc') on the same folds: use scores, not labels"
### BEGIN HIDDEN TESTS
_cv2b = StratifiedKFold(n_splits=4, shuffle=True, random_state=7)
_tree2 = DecisionTreeClassifier(max_depth=3, random_state=0)
assert np.allclose(fold_aucs(_tree2, _X2, _y2, _cv2b), cross_val_score(_tree2, _X2, _y2, cv=_cv2b, scoring="roc_auc"))
assert not hasattr(_tree2, "tree_"), "the model passed in must not be fitted: fit a clone"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3 (2 points).** Write `selection_pipeline(k)`: a pipeline that keeps
# the `k` best features by `f_classif` and then fits a `LogisticRegression`, so that
# the selection is redone inside every training fold.

# %% nbgrader={"grade": false, "grade_id": "ex3-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def selection_pipeline(k):
    """SelectKBest(f_classif, k) followed by a logistic regression, as one pipeline."""
    ### BEGIN SOLUTION
    return make_pipeline(SelectKBest(f_classif, k=k), LogisticRegression())
    ### END SOLUTION
    raise NotImplementedError


# %% nbgrader={"grade": true, "grade_id": "ex3-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
_pipe3 = selection_pipeline(20)
assert hasattr(_pipe3, "steps"), "return a Pipeline (make_pipeline builds one)"
assert isinstance(_pipe3.steps[0][1], SelectKBest) and _pipe3.steps[0][1].k == 20, \
    "the first step should be SelectKBest with k features"
### BEGIN HIDDEN TESTS
assert isinstance(_pipe3.steps[-1][1], LogisticRegression)
assert selection_pipeline(5).steps[0][1].k == 5
assert cross_val_score(_pipe3, X_noise, y_noise, cv=cv5, scoring="roc_auc").mean() < 0.6, \
    "on pure noise the pipeline must not look better than chance"
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 4 (2 points).** Write `shares_groups(splits, groups)`: `splits` is
# what a splitter's `split` method yields, pairs of index arrays `(train, test)`;
# return `True` when at least one split has a group with rows both in its training
# and in its test set, `False` otherwise.

# %% nbgrader={"grade": false, "grade_id": "ex4-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def shares_groups(splits, groups):
    """True when some (train, test) split puts rows of one group on both sides."""
    ### BEGIN SOLUTION
    groups = np.asarray(groups)
    return any(np.intersect1d(groups[train], groups[test]).size > 0 for train, test in splits)
    ### END SOLUTION
    raise NotImplementedError


# %% nbgrader={"grade": true, "grade_id": "ex4-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
_kfold4 = KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE).split(X_subjects)
assert shares_groups(_kfold4, subjects), "shuffled KFold puts rows of the same subject on both sides"
assert not shares_groups(GroupKFold(n_splits=5).split(X_subjects, groups=subjects), subjects), \
    "GroupKFold never does"
### BEGIN HIDDEN TESTS
from sklearn.model_selection import GroupShuffleSplit, LeaveOneGroupOut
assert not shares_groups(LeaveOneGroupOut().split(X_subjects, groups=subjects), subjects)
assert not shares_groups(GroupShuffleSplit(n_splits=3, random_state=0).split(X_subjects, groups=subjects),
                         list(subjects))
assert shares_groups(ShuffleSplit(n_splits=3, random_state=0).split(X_subjects), subjects)
assert not shares_groups([(np.array([0, 1]), np.array([2, 3]))], np.array([7, 7, 8, 8]))
assert shares_groups([(np.array([0, 2]), np.array([1, 3]))], np.array([7, 7, 8, 8]))
### END HIDDEN TESTS

# **Exercise 5 (3 points).** Write `corrected_t(differences, n_train, n_test)`: the
# Nadeau-Bengio corrected t statistic of paired score differences (mean divided by
# the square root of (1/J + n_test/n_train) times the sample variance, with
# `ddof=1`). Do not call `helpers.cv`.

# %% nbgrader={"grade": false, "grade_id": "ex5-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def corrected_t(differences, n_train, n_test):
    """Nadeau and Bengio's corrected resampled t statistic."""
    ### BEGIN SOLUTION
    differences = np.asarray(differences, dtype=float)
    variance = (1 / differences.size + n_test / n_train) * differences.var(ddof=1)
    return differences.mean() / np.sqrt(variance)
    ### END SOLUTION
    raise NotImplementedError


# %% nbgrader={"grade": true, "grade_id": "ex5-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
assert abs(corrected_t([0.02, 0.04], 4, 1) - 0.03 / np.sqrt((1 / 2 + 1 / 4) * 0.0002)) < 1e-9, \
    "check the variance (ddof=1) and the factor 1/J + n_test/n_train"
assert abs(corrected_t(differences, len(train), len(test)) - corrected.t) < 1e-9, \
    "should match the corrected t-test of section 11"
### BEGIN HIDDEN TESTS
_d5 = np.array([0.01, -0.02, 0.03, 0.05, 0.0])
assert abs(corrected_t(_d5, 80, 20) - corrected_resampled_ttest(_d5, np.zeros(5), 80, 20).t) < 1e-9
assert abs(corrected_t(list(_d5), 900, 100) - corrected_resampled_ttest(_d5, np.zeros(5), 900, 100).t) < 1e-9
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Resubstitution measures memory, not generalisation; a single hold-out split is
#   one draw from a wide distribution.
# - k-fold cross-validation averages k hold-outs; stratify classification folds,
#   shuffle (with a fixed `random_state`), and repeat when the data are small.
# - k trades bias (training-set size), variability and cost; 5 or 10 is the usual
#   choice, leave-one-out rarely pays.
# - A bootstrap sample leaves out about 1/e of the rows; those out-of-bag rows give
#   bagging an honest estimate for free.
# - `cross_validate` gives several metrics, times and training scores; writing the
#   loop by hand is easy, as long as AUC comes from scores.
# - Fit every data-dependent step inside the folds (`Pipeline`), keep groups
#   together (`GroupKFold`) and never train on the future (`TimeSeriesSplit`).
# - A tuned model's honest estimate comes from nested cross-validation, not from
#   `best_score_`.
# - Compare models on the same splits, with a corrected t-test and a confidence
#   interval, and say what the test does not prove.
#
# **Next**: [`04_oversampling`](04_oversampling.ipynb) puts these tools to work on imbalanced data, where
# resampling before the split is the leak to avoid.
