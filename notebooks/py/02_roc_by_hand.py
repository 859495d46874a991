# %% [markdown]
# # 02 · ROC and precision-recall curves by hand
#
# Every term is defined in the course [glossary](glossary.md).
#
# In [01_metrics](01_metrics.ipynb) every metric came from one confusion matrix,
# and that matrix came from one decision threshold: a client counts as a predicted
# subscriber when the model's probability is above 0.5 (`LogisticRegression.predict`
# uses p > 0.5). Nothing makes 0.5
# special. This notebook keeps the model's **scores** and sweeps the threshold
# over all of its values at once: each threshold gives a confusion matrix, each
# matrix a point, and the points make the ROC and precision-recall curves. We build
# them by hand on the lecture notes' ten-tuple example, check every number against
# scikit-learn, then use them on a real model to choose a threshold.
#
# **You will learn**
# - to turn scores into a table of TP, FP, TN, FN, TPR and FPR, one row per threshold,
#   and to draw the ROC curve point by point;
# - to compute the area under the curve (AUC) by trapezoids and by ranks
#   (Mann-Whitney, ties counting one half), and the Gini coefficient;
# - `roc_curve` (`drop_intermediate`, the `inf` threshold), `roc_auc_score`,
#   `RocCurveDisplay`, and the `predict_proba(X)[:, 1]` trap;
# - to explore a threshold with a slider: score distributions, confusion matrix,
#   metrics, cost, and the current point on both curves;
# - the precision-recall curve and average precision by hand, the break-even
#   point, and why PR and ROC curves react differently to imbalance;
# - to choose a threshold by cost or by F-beta with `TunedThresholdClassifierCV`
#   and to fix one with `FixedThresholdClassifier`;
# - multiclass AUC: one-vs-rest (macro, micro, weighted) and one-vs-one, by hand
#   and with `roc_auc_score`;
# - whether the scores are probabilities: the reliability diagram by hand and with
#   `CalibrationDisplay`, the Brier score decomposed, the expected calibration error,
#   recalibration with `CalibratedClassifierCV` inside cross-validation, and why the
#   cost threshold C_FP / (C_FP + C_FN) needs calibrated scores;
# - to compare two classifiers by their curves, and on one test set by paired tests:
#   DeLong's test and the paired bootstrap for two AUCs, McNemar's for two sets of
#   labels; the partial AUC of the region where you operate.
#
# **Prerequisites**: notebook 01 (confusion matrix, recall, precision,
# specificity, F-beta, costs of errors), NumPy and pandas, and fitting a
# scikit-learn pipeline with `predict_proba`.
#
# **Time**: about 86 minutes of teaching (alone: reading and running), and 45 minutes
# for the exercises. Sections marked "(optional)" are deep-dives you can skip on a first
# pass.
#
# A sample is predicted positive when its score is **greater than or equal to**
# the threshold, as in scikit-learn's curves and threshold classifiers. Where the
# lecture notes contain a mistake, the notebook says so where it uses the example.

# %%
import math
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (ConfusionMatrixDisplay, PrecisionRecallDisplay, RocCurveDisplay, auc,
                             average_precision_score, balanced_accuracy_score, fbeta_score, make_scorer,
                             precision_recall_curve, roc_auc_score, roc_curve)
from sklearn.model_selection import (FixedThresholdClassifier, StratifiedKFold, TunedThresholdClassifierCV,
                                     train_test_split)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler, label_binarize
from threadpoolctl import threadpool_limits

from helpers import style
from helpers.figures import describe, show
from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES, load_bank_marketing
from helpers.metrics import binary_metrics, confusion_counts, mcnemar_test
from helpers.models import bank_logistic_regression
from helpers.roc_plots import plot_roc_sweep, pr_sentence, roc_sentence
from helpers.roc import (auc_rank, auc_trapezoid, average_precision_by_hand, bootstrap_auc_interval, delong_test,
                         describe_threshold_state, interpolated_average_precision, lift_at,
                         paired_bootstrap_auc_difference, pr_table, recall_at_fpr, roc_table, threshold_state)
from helpers.widgets import threshold_explorer

style.use()

RANDOM_STATE = 0
_ = threadpool_limits(limits=1)  # small data: one BLAS thread is faster and reproducible
pd.set_option("display.float_format", "{:.3f}".format)
pd.set_option("display.width", 120)
np.set_printoptions(precision=3, floatmode="fixed")  # raw arrays print with 3 fixed decimals

# %% [markdown]
# ## 1. Scores, not labels
#
# The lecture notes' example has ten test tuples: five positive (`1`, class P) and
# five negative (`0`, class N), each with the probability a classifier gave to the
# positive class. The course keeps them as named constants.

# %%
y10 = np.array(ROC_TEN_LABELS)
p10 = np.array(ROC_TEN_SCORES)
P, N = int(y10.sum()), int((y10 == 0).sum())
print(pd.DataFrame({"class": np.where(y10 == 1, "P", "N"), "score": p10},
                   index=pd.RangeIndex(1, 11, name="tuple")).T.to_string())
print(f"P = {P} positives, N = {N} negatives")

# %% [markdown]
# The scores rank the tuples, but they do not say where "positive" starts. At
# threshold 0.5 all tuples but the last one would be predicted positive; at 0.85
# only the first. A classifier with scores is really a whole family of
# classifiers, one per threshold, and the ROC curve shows the whole family.

# %% [markdown]
# ## 2. The table by hand: sort, then sweep
#
# The recipe of the notes: (1) sort the tuples by decreasing score; (2) lower the
# threshold to each score in turn, so that the tuples above it are predicted
# positive; (3) count TP, FP, TN, FN and compute TPR = TP / P and FPR = FP / N.
# Lowering the threshold past one tuple moves that tuple from one cell of the
# confusion matrix to another: a positive from FN to TP, a negative from TN to FP.

# %%
order = np.argsort(-p10, kind="stable")  # 1. decreasing score
sweep_rows, tp, fp = [], 0, 0
for label, score in zip(y10[order], p10[order]):  # 2. one threshold per tuple
    tp, fp = tp + label, fp + (1 - label)
    sweep_rows.append({"class": "P" if label else "N", "threshold": score, "TP": tp, "FP": fp,
                 "TN": N - fp, "FN": P - tp, "TPR": tp / P, "FPR": fp / N})  # 3. count
by_hand = pd.DataFrame(sweep_rows, index=pd.RangeIndex(1, 11, name="tuple"))
by_hand

# %% [markdown]
# Each row is one confusion matrix. Positives move TPR up by 1/P, negatives move
# FPR right by 1/N. The last row predicts everything positive, so TPR = FPR = 1.

# %% [markdown]
# **Erratum.** Row 9 of the notes' table prints TN = 0 and FN = 1. Every row must
# keep TP + FN = P and FP + TN = N; the notes' row 9 breaks both.

# %%
row9 = by_hand.loc[9]
notes_row9 = {"TP": 5, "FP": 4, "TN": 0, "FN": 1}  # as printed in the notes
for name, row in [("this notebook", row9), ("the notes", notes_row9)]:
    print(f"{name:14s} TN = {row['TN']}, FN = {row['FN']}:  TP + FN = {row['TP'] + row['FN']} (P = {P}),"
          f"  FP + TN = {row['FP'] + row['TN']} (N = {N})")

# %% [markdown]
# At threshold 0.50 all five positives are above the line, so no positive is
# missed (FN = 0), and the one tuple below it, with score 0.40, is a negative
# correctly rejected (TN = 1). The correct row is the first line; the notes' TN and
# FN are swapped.
#
# `helpers.roc.roc_table` does the same sweep without a Python loop: one sort,
# then a cumulative sum of the labels gives TP at every cut, and FP is the number
# of tuples above the cut minus TP. It also adds a first row at threshold `inf`,
# where nothing is predicted positive, so that the curve starts at (0, 0). Tied
# scores would share one row (section 4 shows it).

# %%
table = roc_table(y10, p10)
same = all(np.array_equal(table[a].to_numpy()[1:], by_hand[b].to_numpy())
           for a, b in [("threshold", "threshold"), ("tp", "TP"), ("fp", "FP"), ("tn", "TN"),
                        ("fn", "FN"), ("tpr", "TPR"), ("fpr", "FPR")])
print(f"roc_table equals the loop, row for row: {same}")
table

# %% [markdown]
# The vectorised table agrees with the loop on every row and adds the `inf` row
# and a precision column (undefined, `NaN`, when nothing is predicted positive).

# %% [markdown]
# ## 3. The ROC curve, point by point
#
# Plot each row as a point with x = FPR and y = TPR. (The notes write the points as
# (TPR, FPR), the other way round from their axes: their "(0.2, 0)" is the point
# x = 0, y = 0.2.) Each panel adds a few more thresholds; the number next to a
# point is its threshold.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 5))  # two panels a figure: their text is 18 px as projected
for ax, upto in zip(axes, (3, 5)):
    plot_roc_sweep(table, upto=upto, ax=ax)
axes[0].legend(loc="lower right")
show(fig, f"Two panels start the ROC curve of the ten tuples point by point, with the first 3 and 5 of the "
          f"table's {len(table)} rows: from (0, 0) straight up to (FPR {table['fpr'].iloc[2]:g}, "
          f"TPR {table['tpr'].iloc[2]:g}), then right and up to (FPR {table['fpr'].iloc[4]:g}, "
          f"TPR {table['tpr'].iloc[4]:g})")

# %% [markdown]
# Two positives first: the curve climbs straight up. Then a negative: one step
# right.

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 5))
for ax, upto in zip(axes, (9, 11)):
    plot_roc_sweep(table, upto=upto, ax=ax)
axes[0].legend(loc="lower right")
show(fig, f"Two panels finish the ROC curve of the ten tuples, with the first 9 and all {len(table)} rows of the "
          f"table; the full path ends at (FPR {table['fpr'].iloc[-1]:g}, TPR {table['tpr'].iloc[-1]:g})")

# %% [markdown]
# Every step goes up (a positive) or right (a negative), so a perfect
# ranking would climb to (0, 1) before moving right, and a random one would
# wander along the dashed diagonal.

# %% [markdown]
# ## 4. The area under the curve, two ways
#
# **Trapezoids.** Between consecutive points the area under the path is a
# trapezoid: width ΔFPR times the mean of the two TPR values. Vertical steps have
# width 0 and add nothing.

# %%
fpr_10, tpr_10 = table["fpr"].to_numpy(), table["tpr"].to_numpy()
pieces = np.diff(fpr_10) * (tpr_10[1:] + tpr_10[:-1]) / 2
print("trapezoid areas:", pieces)
print(f"sum = {pieces.sum():.3f};  auc_trapezoid = {auc_trapezoid(fpr_10, tpr_10):.3f};"
      f"  roc_auc_score = {roc_auc_score(y10, p10):.3f}")

# %% [markdown]
# Only the five horizontal steps add area, and together they give AUC = 0.760, as
# the notes say, and as scikit-learn computes.
#
# **Ranks.** The AUC is also the probability that a randomly drawn positive gets a
# higher score than a randomly drawn negative, plus half the probability that the
# two scores tie (the notes' probability reading leaves ties out). With five of
# each there are 25 (positive, negative) pairs; count those the scores put in the
# right order, a tie counting one half.

# %%
pos, neg = p10[y10 == 1], p10[y10 == 0]
right = pos[:, None] > neg[None, :]
tied = pos[:, None] == neg[None, :]
print(pd.DataFrame(right.astype(int), index=pd.Index(pos, name="positive"),
                   columns=pd.Index(neg, name="negative")).to_string())
print(f"{right.sum()} of {right.size} pairs in the right order, {tied.sum()} ties: "
      f"AUC = {(right.sum() + 0.5 * tied.sum()) / right.size:.3f}")

# %% [markdown]
# 19 of the 25 pairs are ordered correctly: 19/25 = 0.760 again. The positives
# scored 0.60 and 0.55 each lose to the negative at 0.70, and the positive scored
# 0.50 loses to four negatives.
#
# Counting pairs costs P × N comparisons. Ranks do it after one sort: give every
# score its rank (1 = lowest, tied scores share the average of their ranks), add
# up the positives' ranks R₊, and the Mann-Whitney statistic U = R₊ − P(P+1)/2 is
# the number of correctly ordered pairs, a tie counting one half, so AUC = U / (P·N).

# %%
ranks = pd.Series(p10).rank().to_numpy()  # 1 = lowest; ties share the average rank
r_pos = ranks[y10 == 1].sum()
u = r_pos - P * (P + 1) / 2
print(f"R+ = {r_pos:.1f}, U = {u:.1f}, AUC = U / (P N) = {u / (P * N):.3f};  "
      f"helpers.roc.auc_rank = {auc_rank(y10, p10):.3f}")

# %% [markdown]
# The ranks give the same 19 pairs and the same 0.760. Ties are where the two views
# must agree on a convention. Round the scores to one decimal, so that several
# tuples share a score:

# %%
p_tied = p10.round(1)
tied_table = roc_table(y10, p_tied)
print(tied_table[["threshold", "tp", "fp", "tpr", "fpr"]].to_string())
pos_t, neg_t = p_tied[y10 == 1][:, None], p_tied[y10 == 0][None, :]
print(f"pairs: {(pos_t > neg_t).sum()} in the right order + {(pos_t == neg_t).sum()} ties x 1/2 "
      f"= {(pos_t > neg_t).sum() + 0.5 * (pos_t == neg_t).sum()} of 25")
print(f"trapezoid {auc_trapezoid(tied_table['fpr'], tied_table['tpr']):.3f}, "
      f"ranks {auc_rank(y10, p_tied):.3f}, roc_auc_score {roc_auc_score(y10, p_tied):.3f}")

# %% [markdown]
# The ten scores now take six values, so the table has six rows after `inf`: tied
# tuples cross the threshold together. At 0.6 two positives (scores 0.60 and 0.55)
# enter at once: TPR jumps from 0.4 to 0.8 with FPR unchanged, a vertical step of
# 0.4 = 2/5 that adds no area and needs no convention, because two tied positives
# form no (positive, negative) pair. At 0.5 one positive and three negatives
# enter at once, and the curve takes a diagonal step; its trapezoid counts each of
# the three (positive, negative) ties as half a pair. The positive that lost to
# those three negatives now ties with them, so 19 + 3 × ½ = 20.5 pairs of 25, and
# the three computations agree on 0.820.

# %% [markdown]
# **The Gini coefficient and an erratum (the arithmetic is optional).** The area between the curve and the
# diagonal is AUC − 0.5, and the Gini coefficient is twice that area,
# Gini = 2·AUC − 1, which rescales AUC from [0.5, 1] to [0, 1].

# %%
auc_10 = auc_rank(y10, p10)
between = auc_trapezoid(fpr_10, tpr_10 - fpr_10)  # area between the curve and the diagonal
print(f"area between curve and diagonal = {between:.3f} = AUC - 0.5 = {auc_10 - 0.5:.3f}")
print(f"Gini = 2 x that area = {2 * between:.3f} = 2 AUC - 1 = {2 * auc_10 - 1:.3f}")
notes_unfilled = 0.12  # the notes' "part not filled"
print(f"area above the curve = 1 - AUC = {1 - auc_10:.2f}; the notes' 0.12 = (1 - AUC) / 2 = {(1 - auc_10) / 2:.2f}")
print(f"0.5 - 0.12 = {0.5 - notes_unfilled:.2f} = AUC / 2 = {auc_10 / 2:.2f}, "
      f"not the area between curve and diagonal ({between:.2f})")
print(f"(0.5 - 0.12) x 2 = {(0.5 - notes_unfilled) * 2:.2f} = 2 x AUC / 2 = AUC")

# %% [markdown]
# The notes state "AUC = 2 × the area between the diagonal and the curve" and
# compute (0.5 − 0.12) × 2 = 0.76. That area is 0.260 here, and twice it is 0.520:
# the **Gini coefficient**, not the AUC. The right relation is AUC = 0.5 + that
# area. The notes' arithmetic still lands on 0.76 because of what their numbers
# are: their 0.12, "the part not filled", is (1 − AUC)/2, half the 0.24 above the
# curve; so 0.5 − 0.12 = 0.38 is AUC/2, not the area between curve and diagonal
# (0.26), and doubling AUC/2 gives back the AUC for any curve.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
from helpers.widgets import concept_check  # ungraded concept checks with instant feedback

concept_check("02.auc-meaning")


# %% [markdown]
# ## 5. The library: `roc_curve`, `roc_auc_score`, `RocCurveDisplay`

# %%
fpr, tpr, thresholds = roc_curve(y10, p10)
print("thresholds kept:", thresholds)  # 3 fixed decimals (np.set_printoptions above)
fpr_all, tpr_all, thresholds_all = roc_curve(y10, p10, drop_intermediate=False)
print(f"{len(thresholds)} thresholds by default, {len(thresholds_all)} with drop_intermediate=False; "
      f"dropped: {np.setdiff1d(thresholds_all, thresholds)}")
print("drop_intermediate=False equals roc_table:",
      np.array_equal(thresholds_all, table["threshold"]) and np.array_equal(fpr_all, table["fpr"])
      and np.array_equal(tpr_all, table["tpr"]))
print(f"roc_auc_score = {roc_auc_score(y10, p10):.3f};  auc(fpr, tpr) = {auc(fpr, tpr):.3f}")

# %% [markdown]
# `roc_curve` returns FPR, TPR and the thresholds in decreasing order, starting
# with `inf` (nothing predicted positive, the point (0, 0)). By default
# (`drop_intermediate=True`) it leaves out the points in the middle of a straight
# segment (here 0.53, 0.54 and 0.60), which changes neither the picture nor the
# area; the notes' "the program simplifies the points" is this option. With
# `drop_intermediate=False` it returns our table exactly. `roc_auc_score` goes from
# labels and scores to the AUC; `auc` is the generic trapezoid rule for any curve.

# %%
fig, ax = plt.subplots(figsize=(4.5, 4.5))
_ = RocCurveDisplay.from_predictions(y10, p10, name="ten tuples", ax=ax, plot_chance_level=True)
describe(ax, roc_sentence(y10, p10, "the ten tuples") + "; the dashed diagonal is chance")
show(fig, f"scikit-learn's RocCurveDisplay of the ten tuples: the same staircase as by hand, AUC "
          f"{roc_auc_score(y10, p10):.3f} in the legend")

# %% [markdown]
# `RocCurveDisplay.from_predictions` draws the same staircase and writes the AUC
# in the legend. `RocCurveDisplay.from_estimator(model, X, y)` computes the scores
# itself from a fitted model; section 6 puts the two side by side.

# %% [markdown]
# ## 6. A real model, and the `[:, 1]` trap
#
# The bank-marketing data and model of notebook 01 (`helpers.models.bank_logistic_regression`
# builds the same pipeline): a logistic regression on
# standardised numeric columns and one-hot-encoded categories, trained on three
# quarters of the clients and scored on the held-out quarter. (We fit it with the
# `newton-cholesky` solver, which converges to the same optimum as the default
# solver, up to its tolerance, and is faster on data with few columns: section 10
# fits the model a dozen times.)

# %%
X_bank, y_bank = load_bank_marketing()
X_train, X_test, y_train, y_test = train_test_split(
    X_bank, y_bank, test_size=0.25, stratify=y_bank, random_state=RANDOM_STATE)
categorical = X_bank.select_dtypes(exclude="number").columns  # the random forest of section 13 uses it
bank_model = bank_logistic_regression(solver="newton-cholesky").fit(X_train, y_train)

proba = bank_model.predict_proba(X_test)
scores = proba[:, 1]
print(f"test set: {len(y_test)} clients, {y_test.sum()} subscribers ({y_test.mean():.3f})")
print("classes_ (the columns of predict_proba):", bank_model.classes_)
print(f"ROC AUC with proba[:, 1] (subscribers)      = {roc_auc_score(y_test, proba[:, 1]):.3f}")
print(f"ROC AUC with proba[:, 0] (non-subscribers)  = {roc_auc_score(y_test, proba[:, 0]):.3f}")
print(f"ROC AUC with the notes' proba[:, :1]        = {roc_auc_score(y_test, proba[:, :1]):.3f}")
hard_labels = bank_model.predict(X_test)  # 0 / 1, not scores
print(f"ROC AUC with hard labels predict(X_test)    = {roc_auc_score(y_test, hard_labels):.3f}"
      f" = balanced accuracy {balanced_accuracy_score(y_test, hard_labels):.3f}")

# %% [markdown]
# `predict_proba` returns one column per class in the order of `classes_`, so the
# positive class `1` is column `[:, 1]`. The notes' code passes `[:, :1]`, which is
# column 0, the probability of *not* subscribing: it ranks the clients backwards
# and reports 1 − AUC. A model that looks worse than random is often this bug.
#
# The last line is the other slip of the notes' code (their oversampling example
# scores `roc_auc_score(y[validation], clf.predict(...))`): hard labels
# make a "curve" through a single point, the (FPR, TPR) of `predict`, and the area
# under it, (1 + TPR − FPR)/2, is the balanced accuracy, 0.571, not the AUC 0.714
# of the scores. AUC must be computed from scores.
#
# The display classes have the same trap, in a different place:
# `RocCurveDisplay.from_estimator` asks the model for its scores and picks the
# column of `pos_label` itself (by default `classes_[1]`), while
# `from_predictions` trusts the column you pass.

# %%
fig, axes = plt.subplots(1, 3, figsize=(13.5, 4.6))
chance = {"label": "chance"}  # short legends and axis labels: the figure is projected with 18 px text
RocCurveDisplay.from_estimator(bank_model, X_test, y_test, name="column 1", ax=axes[0],
                               plot_chance_level=True, chance_level_kw=chance)
RocCurveDisplay.from_predictions(y_test, proba[:, 0], name="column 0", ax=axes[1], plot_chance_level=True,
                                 chance_level_kw=chance)
RocCurveDisplay.from_predictions(y_test, proba[:, 0], pos_label=0, name="column 0", ax=axes[2],
                                 plot_chance_level=True, chance_level_kw=chance)
for ax, title, positive, corner in zip(axes, ["picks column 1 itself", "column 0 as if it scored class 1",
                                              "column 0 scoring class 0"], [1, 1, 0],
                                       ["lower right", "upper left", "lower right"]):
    _ = ax.set(title=title, xlabel=f"FPR (positive: {positive})", ylabel=f"TPR (positive: {positive})")
    _ = ax.legend(loc=corner)
for ax, (column, pos_label, name) in zip(axes, [(1, 1, "from_estimator (column 1)"), (0, 1, "proba[:, 0]"),
                                                (0, 0, "proba[:, 0] with pos_label=0")]):
    describe(ax, roc_sentence(y_test, proba[:, column], name, pos_label=pos_label))
show(fig, f"Three ROC curves of the bank model on the test set: from_estimator picks column 1 itself (AUC "
          f"{roc_auc_score(y_test, proba[:, 1]):.3f}); column 0 passed as the score of class 1 gives the reflected "
          f"curve below the diagonal (AUC {roc_auc_score(y_test, proba[:, 0]):.3f}); with pos_label=0 the same "
          f"column scores class 0 and the AUC is {roc_auc_score(y_test == 0, proba[:, 0]):.3f} again")

# %% [markdown]
# `from_estimator` gets the AUC of 0.714 without being told which column to use.
# Passing column 0 to `from_predictions` with the default positive class 1 gives
# the reflected curve, below the diagonal, with AUC 1 − 0.714 = 0.286. With
# `pos_label=0` the same column is right again: it is the score of class 0, and
# the curve of "non-subscriber vs subscriber" has the same AUC, 0.714.
#
# Our helpers reproduce scikit-learn on these scores as well:

# %%
bank_table = roc_table(y_test, scores)
fpr_b, tpr_b, thr_b = roc_curve(y_test, scores, drop_intermediate=False)
print(f"{len(bank_table)} rows; equal to roc_curve(drop_intermediate=False): "
      f"{np.array_equal(bank_table['fpr'], fpr_b) and np.array_equal(bank_table['tpr'], tpr_b)}")
print(f"AUC by trapezoid {auc_trapezoid(bank_table['fpr'], bank_table['tpr']):.6f}, by ranks "
      f"{auc_rank(y_test, scores):.6f}, roc_auc_score {roc_auc_score(y_test, scores):.6f}")

# %% [markdown]
# Every test client has its own score here, so the table has one row per client
# plus the `inf` row, and the three AUCs agree to six decimals.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("02.column")


# %% [markdown]
# ## 7. The threshold slider
#
# Move the threshold and watch everything that depends on it change together: the
# line through the two score distributions, the confusion matrix, the metrics, the
# total cost, and the current point on the ROC and PR curves. Type in the cost of
# a false positive (calling a client who will not subscribe) and of a false
# negative (not calling a client who would have): the red star marks the
# threshold of least total cost on this test set, the green diamond the one of
# largest Youden's J = TPR − FPR, the point farthest above the diagonal.
#
# **By keyboard:** Tab reaches a slider; the arrow keys (and Page Up, Page Down,
# Home, End) move it, and a short line above the figure says what changed while
# the panel keeps every number. To leave a slider or a number box, press Escape:
# it returns to the notebook (command mode, where the arrow keys move between
# cells; the course's explorers add this, plain ipywidgets keep the key). Tab or
# Shift+Tab moves to the next or previous control.

# %% tags=["nbval-ignore-output"]
threshold_explorer(y_test, scores, threshold=0.5, cost_fp=1.0, cost_fn=5.0,
                   names=("no subscription", "subscribed"))

# %% [markdown]
# The slider draws every number through `threshold_state`, which we can call
# directly; these are the numbers the slider shows at its starting point. Its
# **expected cost** is the total cost divided by the number of clients: the
# observed cost per client (per sample) on this test set, what the campaign would
# cost per client if the test set were the whole population. The last two lines
# compare the default threshold with the cost-optimal one, thresholds to four
# decimals.

# %%
COST_FP, COST_FN = 1.0, 5.0
state = threshold_state(y_test, scores, 0.5, cost_fp=COST_FP, cost_fn=COST_FN)
print(describe_threshold_state(state))
best_state = threshold_state(y_test, scores, state["cost_optimal"]["threshold"], COST_FP, COST_FN)
for name, at_t in [("default", state), ("cost-optimal", best_state)]:
    print(f"{name:12s}  t = {at_t['threshold']:.4f}: recall {at_t['recall']:.3f}"
          f" ({at_t['tp']}/{at_t['tp'] + at_t['fn']}), precision {at_t['precision']:.3f}, total cost {at_t['total_cost']:.1f},"
          f" expected cost {at_t['expected_cost']:.3f} per client")
n_neg, n_pos = state["fp"] + state["tn"], state["tp"] + state["fn"]
print(f"Youden's J as a cost: C_FN / C_FP = N / P = {n_neg} / {n_pos} = {n_neg / n_pos:.1f}; "
      f"J at its maximum {state['youden']['youden_j']:.3f} = 2 x balanced accuracy - 1 = "
      f"{2 * (state['youden']['tpr'] + 1 - state['youden']['fpr']) / 2 - 1:.3f}")

# %% [markdown]
# At the default threshold 0.5 the model is cautious: its precision is 0.625 but
# it finds only 20 of the 130 subscribers (recall 0.154). With a missed subscriber
# five times as costly as a wasted call, its total cost is 562.0 (0.497 per
# client), against 476.0 (0.421 per client) at the cost-optimal threshold 0.1877,
# which finds 51 of the 130 (recall 0.392) at a precision of 0.386. Youden's J picks a
# nearby threshold, 0.178. It looks cost-free but is not. The total cost is
# C_FN × P × (1 − TPR) + C_FP × N × FPR: a unit of TPR is P positives found, so it
# is worth C_FN × P, and a unit of FPR is N negatives flagged, so it costs
# C_FP × N. Maximising J = TPR − FPR weighs the two units equally, which is
# minimising the total cost when C_FN × P = C_FP × N, that is C_FN / C_FP = N / P,
# here 1001 / 130 = 7.7 (last line). J hard-wires a cost ratio set by the
# prevalence, which is why it lands next to the 1 : 5 optimum; and since
# J = recall + specificity − 1 = 2 × balanced accuracy − 1, maximising J is
# maximising notebook 01's balanced accuracy. Both optima are read
# off the test set itself, so they are optimistic; section 10 chooses a threshold
# on the training data instead.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("02.threshold-up")


# %% [markdown]
# ## 8. The precision-recall curve by hand
#
# The same sweep gives a second curve: recall (= TPR) on the x-axis and precision
# TP / (TP + FP) on the y-axis. It never uses TN, so it describes the positive class
# only. On the ten tuples:

# %%
pr_10 = pr_table(y10, p10)
precision_10, recall_10, _ = precision_recall_curve(y10, p10)
print(pr_10.to_string())
print("equal to precision_recall_curve (read bottom-up):",
      np.array_equal(pr_10["precision"].to_numpy()[::-1], precision_10)
      and np.array_equal(pr_10["recall"].to_numpy()[::-1], recall_10))

# %% [markdown]
# Precision is not monotonic: it drops with each negative that crosses the
# threshold and recovers with each positive. The first row (recall 0, precision
# 1) is a convention that makes the curve start on the y-axis: with nothing
# predicted positive, precision is really 0 / 0.
#
# **Average precision** (AP) sums the precision at each threshold times the recall
# it gained there, AP = Σₖ Pₖ (Rₖ − Rₖ₋₁): a step-function area that does not
# interpolate between points.

# %%
gains = np.diff(pr_10["recall"].to_numpy())
terms = pr_10["precision"].to_numpy()[1:] * gains
print("precision x recall gain:", terms)
print(f"AP by hand = {terms.sum():.4f};  average_precision_by_hand = "
      f"{average_precision_by_hand(y10, p10):.4f};  average_precision_score = "
      f"{average_precision_score(y10, p10):.4f}")

# %% [markdown]
# Only the five thresholds where a positive enters add to the sum, each with a
# recall gain of 1/5, so AP is the mean of the precision at those five positives.
# All three computations agree.
#
# **Interpolated AP.** Older benchmarks (PASCAL VOC) first smooth the zigzag: the
# *interpolated* precision at a recall is the best precision reached at that
# recall or beyond, max over R' ≥ R of P(R'). Summed over the recall steps it gives
# the *all-point interpolated* AP; averaged at the eleven recalls 0, 0.1, ..., 1 the
# older *11-point* AP of PASCAL VOC 2007, which takes at recall 0 the best precision
# any threshold reaches (not the artificial 1 of the table's first row). The
# all-point interpolated AP is at least the plain AP (it raises precisions and
# sums them over the same recall steps); the 11-point AP is an average of eleven
# samples, not an area, and can fall on either side. Even the 11-point AP differs
# between implementations: the widely copied PASCAL VOC Python code builds its
# recall levels with `np.arange(0., 1.1, 0.1)`, whose fourth level is
# 0.30000000000000004, so a recall of exactly 0.3 misses it;
# `interpolated_average_precision` compares with the levels less 1e-12, the
# exact reading. Say which one a paper reports
# (`interpolated_average_precision` in `helpers.roc`):

# %%
print(f"AP (all points, not interpolated, scikit-learn's) {average_precision_by_hand(y10, p10):.4f}")
print(f"all-point interpolated AP                         {interpolated_average_precision(y10, p10):.4f}")
print(f"11-point interpolated AP                          {interpolated_average_precision(y10, p10, n_points=11):.4f}")

# %% [markdown]
# Interpolation raises the precision at the 3rd positive (0.750, in the table
# above) to the 0.800 of the 4th, hence the higher sums. scikit-learn's `average_precision_score` does
# not interpolate. The 11-point AP is *below* the plain AP when a ranking is
# excellent almost to the end: 100 positives, 99 of them ranked first, then
# 10,000 negatives, then the last positive:

# %%
y_late = np.concatenate([np.ones(99), np.zeros(10_000), [1]])
s_late = -np.arange(y_late.size, dtype=float)  # ranked in this order
print(f"plain AP {average_precision_by_hand(y_late, s_late):.3f}, all-point interpolated "
      f"{interpolated_average_precision(y_late, s_late):.3f}, 11-point "
      f"{interpolated_average_precision(y_late, s_late, n_points=11):.3f}")
print(f"a negative ranked first, y = [0, 1, 0, 1]: 11-point AP "
      f"{interpolated_average_precision([0, 1, 0, 1], [4, 3, 2, 1], n_points=11):.3f}, plain AP "
      f"{average_precision_by_hand([0, 1, 0, 1], [4, 3, 2, 1]):.3f}")

# %% [markdown]
# The plain and the all-point AP credit the 99 early positives with 99 % of the
# recall axis; the 11-point AP gives the last positive one sample in eleven
# (recall 1, precision 0.01), hence 0.910 against 0.990. When the top-ranked
# sample is a negative, VOC 2007 reads the best real precision (0.5) at recall 0:
# the 11-point AP is then 0.500, like the plain AP.
#
# **Lift.** Marketing asks a simpler question: if we call the top K % of the
# clients ranked by score, how many times more subscribers do we reach than by
# calling K % at random? That is the **lift at K %**, the precision in the top K %
# divided by the share of positives, or equivalently the recall in the top K %
# divided by K. **Erratum:** the notes' formula divides "TPR @ K %", which they
# define as the positive rate in the top segment, i.e. the precision; with TPR
# read as recall, as everywhere else, the formula needs K instead of the
# prevalence. On the ten tuples, the top 50 % (five tuples) holds four of the
# five positives:

# %%
for fraction in (0.1, 0.2, 0.5, 1.0):
    top = round(fraction * len(y10))
    print(f"top {fraction:4.0%}: {y10[np.argsort(-p10)][:top].sum()} of {top} tuples positive, "
          f"precision / prevalence = recall / K, lift = {lift_at(y10, p10, fraction):.2f}")
#
# On the bank model, with the chance level (the share of positives: a random
# ranking has that precision everywhere):

# %%
bank_pr = pr_table(y_test, scores)
ap = average_precision_by_hand(y_test, scores)
linear = auc(bank_pr["recall"], bank_pr["precision"])
print(f"AP by hand {ap:.3f}, average_precision_score {average_precision_score(y_test, scores):.3f}, "
      f"trapezoid area under PR {linear:.3f}, chance level {y_test.mean():.3f}")
found = bank_pr[bank_pr["tp"] > 0]  # at least one subscriber found
even = found.loc[(found["precision"] - found["recall"]).abs().idxmin()]
n_subscribers = int(y_test.sum())
print(f"break-even point: threshold {even['threshold']:.4f}, precision {even['precision']:.3f}, "
      f"recall {even['recall']:.3f} (TP {even['tp']:.0f} + FP {even['fp']:.0f} = {even['tp'] + even['fp']:.0f} = P)")
print(f"the P-th highest score (P = {n_subscribers}): {np.sort(scores)[::-1][n_subscribers - 1]:.4f}")
best_t = state["cost_optimal"]["threshold"]
between_two = bank_pr.query("@best_t < threshold < @even.threshold")["threshold"]
print(f"cost-optimal threshold of section 7: {best_t:.4f}; scores strictly between the two: "
      + ", ".join(f"{t:.4f}" for t in between_two))
fig, ax = plt.subplots(figsize=(5, 4.5))
_ = PrecisionRecallDisplay.from_predictions(y_test, scores, name="logistic regression", ax=ax,
                                            plot_chance_level=True)
_ = ax.plot(even["recall"], even["precision"], "ko", label="break-even point")
_ = ax.legend(loc="upper right", fontsize=10)
describe(ax, pr_sentence(y_test, scores, "the logistic regression"))
show(fig, f"Precision-recall curve of the logistic regression on the bank test set, AP {ap:.3f} against a chance "
          f"level of {y_test.mean():.3f}; the black dot is the break-even point at precision {even['precision']:.3f} "
          f"and recall {even['recall']:.3f}")

# %% [markdown]
# The AP is almost three times the chance level: the model ranks subscribers well
# above random, but far from perfectly. The trapezoid area under the PR points
# differs from the AP: a straight line between two PR points is not a precision
# any threshold reaches (precision does not change linearly with recall; Davis &
# Goadrich, 2006), so scikit-learn reports the step sum, built only from
# precisions that are actually reached.
#
# *The break-even point (optional).* The **break-even point** is the threshold
# where precision equals recall (or comes closest, since both move in steps; we
# skip the top thresholds that find no subscriber, where both are 0); it is an
# older one-number summary of the PR curve. Precision TP / (TP + FP) equals recall
# TP / P exactly when TP + FP = P: when exactly as many clients are called as
# there are subscribers. So, without ties, the break-even threshold is the P-th
# highest score, here 0.1884, where 50 of the top 130 clients subscribe
# (precision = recall = 0.385). It is a neighbouring threshold of the
# cost-optimal 0.1877 of section 7 (recall 51/130), with a single score, 0.1878,
# between them; at three decimals both print as 0.188, but they are two different
# points.

# %% [markdown]
# ## 9. ROC vs PR under imbalance
#
# What if the bank had called ten times as many uninterested clients, scored just
# like the ones we have? Repeat every negative of the test set ten times and
# compare both curves.

# %%
is_negative = y_test.to_numpy() == 0
y_many = np.concatenate([y_test.to_numpy(), np.zeros(9 * is_negative.sum(), dtype=int)])
s_many = np.concatenate([scores, np.tile(scores[is_negative], 9)])
for name, y_, s_ in [("test set", y_test, scores), ("negatives x 10", y_many, s_many)]:
    print(f"{name:15s} positives {np.mean(y_):.3f}   ROC AUC {roc_auc_score(y_, s_):.3f}   "
          f"AP {average_precision_score(y_, s_):.3f}")
fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(10, 4.5))
for name, y_, s_, line_style in [("test set", y_test, scores, "-"), ("negatives x 10", y_many, s_many, "--")]:
    RocCurveDisplay.from_predictions(y_, s_, name=name, ax=ax_roc, curve_kwargs={"linestyle": line_style})
    PrecisionRecallDisplay.from_predictions(y_, s_, name=name, ax=ax_pr).line_.set_linestyle(line_style)
_ = ax_roc.set_title("ROC: the same curve")
_ = ax_pr.set_title("PR: precision falls")
_ = ax_pr.legend(loc="upper right")
for name, y_, s_, style_name in [("test set", y_test, scores, "solid"), ("negatives x 10", y_many, s_many, "dashed")]:
    describe(ax_roc, roc_sentence(y_, s_, f"the {name} ({style_name})"))
    describe(ax_pr, pr_sentence(y_, s_, f"the {name} ({style_name})"))
show(fig, f"Left, ROC curves and right, precision-recall curves of the same scores on the test set (solid) and "
          f"with every negative repeated ten times (dashed): the ROC curves coincide (AUC "
          f"{roc_auc_score(y_test, scores):.3f} and {roc_auc_score(y_many, s_many):.3f}), the precision falls (AP "
          f"{average_precision_score(y_test, scores):.3f} against {average_precision_score(y_many, s_many):.3f})")

# %% [markdown]
# The ROC curve and its AUC do not move: TPR is computed among the positives and
# FPR among the negatives, and repeating the negatives changes neither rate.
# Precision divides by *all* predicted positives, so ten times as many negatives
# above the threshold drag it down, and the AP drops from 0.322 to 0.055. When the
# positive class is rare and the errors that matter are false alarms among the
# predicted positives, the PR curve shows what the ROC curve hides; ROC AUC is the
# better summary when one wants a measure of ranking quality that does not depend
# on the class ratio.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("02.imbalance-curve")


# %% [markdown]
# ## 10. Choosing a threshold
#
# A threshold is a business decision. With a cost for each kind of error (correct
# decisions cost 0), the best threshold minimises the total cost. If the scores
# were calibrated probabilities, the answer would be a formula. For one client
# with probability p of subscribing, the decision-theoretic expected cost of a
# call is (1 − p)·C_FP (a wasted call if they do not subscribe) and that of no
# call is p·C_FN (a missed subscriber if they do); call when the first is at most
# the second, that is when p ≥ C_FP / (C_FP + C_FN). This expected cost of one
# decision, averaged over the model's uncertainty about one client, is not the
# "expected cost" of the slider and of the table below, which is the observed
# cost per client on the test set.

# %%
print(f"cost of a false positive {COST_FP:g}, of a false negative {COST_FN:g}: "
      f"p >= {COST_FP / (COST_FP + COST_FN):.3f}")

# %% [markdown]
# Logistic regression's probabilities are only roughly calibrated, so it is
# safer to tune the threshold on data, with **cross-validation**. In three lines
# (notebook 03 treats it in depth): cut the training set into k parts (folds);
# for each fold, fit on the other k − 1 and score on the held-out fold; average
# the k scores. Every score comes from rows the model did not see, and the test
# set is never touched.
#
# `TunedThresholdClassifierCV` does this with 5 folds: it scores each candidate
# threshold on the held-out folds and keeps the best one. The objective is the
# cost **per client**, the same "expected cost" as the slider's, turned into a
# scorer with `make_scorer(..., greater_is_better=False)`, which also passes the
# two costs on to the metric; a second tuner maximises F2 instead.
# `store_cv_results=True` keeps the objective at every candidate threshold.

# %%
# Both metrics are computed from confusion_counts of notebook 01, not with fbeta_score: the tuner
# scores 100 thresholds on each of 5 folds, and fbeta_score validates its inputs on every call,
# which would take longer than the fits themselves. The table below checks F2 with fbeta_score.
def cost_per_client(y_true, y_pred, cost_fp, cost_fn):
    """(cost_fp x FP + cost_fn x FN) / n: the cost per client (correct decisions cost 0)."""
    tp, fp, fn, tn = confusion_counts(y_true, y_pred)
    return (cost_fp * fp + cost_fn * fn) / (tp + fp + fn + tn)


def f2(y_true, y_pred):
    """F-beta with beta = 2 from the confusion counts."""
    return binary_metrics(*confusion_counts(y_true, y_pred), beta=2)["fbeta"]


cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
cost_scorer = make_scorer(cost_per_client, greater_is_better=False, cost_fp=COST_FP, cost_fn=COST_FN)
by_cost = TunedThresholdClassifierCV(bank_model, scoring=cost_scorer, cv=cv, random_state=RANDOM_STATE,
                                     store_cv_results=True).fit(X_train, y_train)
by_f2 = TunedThresholdClassifierCV(bank_model, scoring=make_scorer(f2), cv=cv, random_state=RANDOM_STATE,
                                   store_cv_results=True).fit(X_train, y_train)
test_optimum = state["cost_optimal"]["threshold"]
candidates = {"default": 0.5, "cost, tuned by CV": by_cost.best_threshold_,
              "F2, tuned by CV": by_f2.best_threshold_, "cost formula": COST_FP / (COST_FP + COST_FN),
              "test-set optimum": test_optimum}
candidate_rows = []
for name, t in candidates.items():
    at_t = threshold_state(y_test, scores, t, COST_FP, COST_FN)
    candidate_rows.append({"threshold": t, "recall": at_t["recall"], "precision": at_t["precision"],
                           "F2": fbeta_score(y_test, (scores >= t).astype(int), beta=2),
                           "total cost": at_t["total_cost"], "expected cost per client": at_t["expected_cost"]})
print(pd.DataFrame(candidate_rows, index=list(candidates)).to_string(formatters={"threshold": "{:.4f}".format}))

# %% [markdown]
# On the test set, the threshold tuned for cost by cross-validation, 0.1893, costs
# 484 (0.428 per client) against 562 for the default 0.5: it accepts more false
# positives (cheap calls) to miss fewer subscribers (expensive). The formula's
# threshold, 0.1667, lands close to it, a sign that the probabilities are roughly
# calibrated. Tuning for F2 (recall weighted more than precision) lowers the
# threshold much further, to 0.0679: it finds 0.800 of the subscribers, but with
# these costs it is the most expensive row (675), because F2 knows nothing about
# the price of a call. The last row is the threshold chosen *on the test set
# itself*: its cost, 476, is the lowest by construction, which is exactly why a
# threshold must not be chosen on the data used to report it.
#
# The tuner refits the same logistic regression on the whole training set, so
# its `predict` is exactly "score ≥ `best_threshold_`" on our test scores. Its
# stored objective, averaged over the held-out folds, shows the cost rising
# steeply below the chosen threshold (many wasted calls) and slowly above it
# (missed subscribers), and how much lower F2 puts its best threshold:

# %%
print("by_cost.predict(X_test) equals scores >= best_threshold_:",
      np.array_equal(by_cost.predict(X_test), scores >= by_cost.best_threshold_))
fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
for ax, tuner, sign, label in [(axes[0], by_cost, -1, "cost per client, held-out fold"),
                               (axes[1], by_f2, 1, "F2 on a held-out fold")]:
    _ = ax.plot(tuner.cv_results_["thresholds"], sign * tuner.cv_results_["scores"])
    _ = ax.axvline(tuner.best_threshold_, color="k", ls="--", label=f"best: {tuner.best_threshold_:.4f}")
    _ = ax.set(xlabel="threshold", ylabel=f"{label}\n(mean of 5 folds)")
    _ = ax.legend(fontsize=10)
show(fig, f"Two line charts of TunedThresholdClassifierCV's objective against the threshold, mean of 5 held-out "
          f"folds: left the cost per client, lowest ({-by_cost.best_score_:.3f}) at the dashed line, threshold "
          f"{by_cost.best_threshold_:.4f}; right F2, highest ({by_f2.best_score_:.3f}) at threshold "
          f"{by_f2.best_threshold_:.4f}")

# %% [markdown]
# When the threshold is fixed by a rule rather than tuned, `FixedThresholdClassifier`
# wraps the model so that `predict` uses it. `FrozenEstimator` keeps the fitted
# model as it is (no refit). We still call `fixed.fit(...)`, because fit is the
# step every scikit-learn estimator goes through before `predict` (and the one a
# pipeline or `cross_val_score` will call; scikit-learn 1.9 would also predict
# without it), and `FrozenEstimator` turns that fit into a no-op.

# %%
fixed = FixedThresholdClassifier(FrozenEstimator(bank_model), threshold=COST_FP / (COST_FP + COST_FN))
fixed.fit(X_train, y_train)
print("predict equals scores >= threshold:",
      np.array_equal(fixed.predict(X_test), (scores >= fixed.threshold).astype(int)))
fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
cells = {}
for ax, (name, model) in zip(axes, [("default 0.5", bank_model), (f"fixed {fixed.threshold:.3f}", fixed)]):
    cells[name] = ConfusionMatrixDisplay.from_estimator(model, X_test, y_test, labels=[1, 0],
                                                        display_labels=["subscribed", "no subscription"], ax=ax,
                                                        colorbar=False, cmap="Blues")
    _ = ax.set(title=name, xlabel="predicted", ylabel="actual")
    ax.grid(False)
show(fig, "Two confusion matrices of the bank test set, actual in rows and predicted in columns, 'subscribed' "
          "first: " + "; ".join(f"threshold {name}: TP {m[0, 0]}, FN {m[0, 1]}, FP {m[1, 0]}, TN {m[1, 1]}"
                                for name, m in ((n, d.confusion_matrix) for n, d in cells.items())))

# %% [markdown]
# The wrapped model predicts exactly "score ≥ threshold". The two confusion
# matrices show the trade: the lower threshold turns some false negatives into
# true positives, at the price of many more false positives.

# %% [markdown]
# ## 11. Are the scores probabilities? Calibration
#
# Section 10's formula p ≥ C_FP / (C_FP + C_FN) assumed that a score of 0.2
# means "one client in five like this one subscribes". A model whose scores
# mean what they say is **calibrated**: among all clients scored about 0.2,
# about 20 % subscribe. The ROC curve cannot tell: it uses only the order of
# the scores, and any increasing transformation of them (squaring, halving)
# leaves it unchanged. Calibration is the other half of a probabilistic
# model's quality. The terms of this section are collected in the
# [glossary](glossary.md#Calibration-(notebooks-02-and-04)).
#
# **The reliability diagram by hand.** Cut [0, 1] into 10 bins of equal width;
# in each bin, compare the mean predicted probability with the observed
# frequency of subscribers, and count the clients. A score on an edge goes to
# the bin below it, as in scikit-learn.

# %%
from sklearn.calibration import CalibratedClassifierCV, calibration_curve  # the imports of this section
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.naive_bayes import GaussianNB

from helpers.calibration import brier_decomposition, corp_decomposition, expected_calibration_error, reliability_table
from helpers.figures import show
from helpers.models import bank_preprocessor
from helpers.calibration_plots import plot_reliability

edges = np.linspace(0, 1, 11)
bin_of = np.searchsorted(edges[1:-1], scores)  # bin k holds edges[k] < p <= edges[k + 1] (0 in the first)
by_hand = (pd.DataFrame({"bin": bin_of, "p": scores, "y": y_test.to_numpy()}).groupby("bin")
           .agg(count=("p", "size"), mean_predicted=("p", "mean"), observed_frequency=("y", "mean")))
by_hand.insert(0, "interval", [f"({edges[k]:.1f}, {edges[k + 1]:.1f}]" for k in by_hand.index])
print(by_hand.to_string())
prob_true, prob_pred = calibration_curve(y_test, scores, n_bins=10)
print("equal to calibration_curve(n_bins=10):",
      np.allclose(by_hand["observed_frequency"], prob_true) and np.allclose(by_hand["mean_predicted"], prob_pred))
print("equal to helpers.calibration.reliability_table:",
      np.allclose(reliability_table(y_test, scores)[["mean_predicted", "observed_frequency"]],
                  by_hand[["mean_predicted", "observed_frequency"]]))

# %% [markdown]
# Empty bins are left out, as `calibration_curve` does. Most clients sit in the
# lowest bins, where mean prediction and observed frequency are close; the
# upper bins hold a handful of clients each, so their frequencies are noisy. A
# reliability diagram must show these counts, or a bin of three clients looks
# as convincing as one of eight hundred.
#
# **Two models that rank alike but calibrate differently.** A Gaussian naive
# Bayes model on the same preprocessed columns treats them as independent; the
# one-hot columns are far from independent and far from Gaussian, so it
# multiplies evidence that overlaps and its probabilities are pushed towards 0
# and 1. Its ranking is nearly as good. `plot_reliability`
# (`helpers.calibration_plots`) draws scikit-learn's `CalibrationDisplay`
# for each model with the counts per bin beside it.

# %%
naive_bayes = make_pipeline(bank_preprocessor(), GaussianNB()).fit(X_train, y_train)
nb_scores = naive_bayes.predict_proba(X_test)[:, 1]
two_models = {"logistic regression": scores, "naive Bayes": nb_scores}
for name, s_ in two_models.items():
    print(f"{name:20s} ROC AUC {roc_auc_score(y_test, s_):.3f}   Brier {brier_score_loss(y_test, s_):.4f}   "
          f"mean predicted {s_.mean():.3f} (observed {y_test.mean():.3f})   "
          f"share of scores above 0.9: {np.mean(s_ > 0.9):.3f}")
# side by side, short labels: the figure fits a slide with its text 18 px as projected
fig, (ax_rel, ax_count) = plt.subplots(1, 2, figsize=(12, 5), width_ratios=[1.25, 1])
for (name, s_), marker, line_style, color in zip(two_models.items(), ["o", "s"], ["-", "--"], style.CYCLE):
    plot_reliability(y_test, s_, name, ax=ax_rel, counts_ax=ax_count, marker=marker, linestyle=line_style,
                     color=color)
_ = ax_rel.set(title="test set, 10 uniform bins", xlabel="mean predicted probability", ylabel="observed frequency")
_ = ax_count.set(title="clients per bin (same lines)", ylabel="")
_ = ax_rel.legend(loc="upper left")
nb_table = reliability_table(y_test, nb_scores)
(low_p, low_o), (top_p, top_o) = nb_table[["mean_predicted", "observed_frequency"]].iloc[[0, -1]].to_numpy()
print(f"naive Bayes, lowest bin: predicted {low_p:.3f}, observed {low_o:.3f}; "
      f"top bin: predicted {top_p:.3f}, observed {top_o:.3f}")
show(fig, f"Reliability diagrams of two models with ROC AUC {roc_auc_score(y_test, scores):.3f} and "
          f"{roc_auc_score(y_test, nb_scores):.3f}: the logistic regression stays near the diagonal in its "
          f"crowded bins; naive Bayes lies above it in its lowest bin ({low_p:.3f} predicted, {low_o:.3f} "
          f"observed) and far below it in its top bin ({top_p:.3f} predicted, {top_o:.3f} observed).")

# %% [markdown]
# The two models rank the clients about equally well (ROC AUC 0.714 and
# 0.708), but they do not mean the same by a score. The logistic regression's
# points follow the diagonal where its clients are (its mean prediction, 0.112,
# is close to the observed 0.115). Naive Bayes gives 0.118 of the clients a
# score above 0.9, and in its top bin, where it predicts 0.992 on average,
# only 0.361 subscribe; in its lowest bin it predicts 0.003 where 0.076
# subscribe. Too high at the top, too low at the bottom: it is
# **over-confident**. The counts panel shows where
# each model puts its clients: naive Bayes piles them up at both ends. An AUC
# says nothing about any of this; a reliability diagram does.
#
# **The Brier score decomposed.** The Brier score, mean (p − y)² (notebook 01), mixes
# both qualities. Murphy (1973) splits it on the bins: with n_k clients in bin k,
# mean prediction p̄_k, observed frequency ō_k and the overall frequency ō,
#
# - **reliability** = Σ n_k (p̄_k − ō_k)² / n: the squared distance of the
#   diagram from the diagonal (0 when calibrated; lower is better);
# - **resolution** = Σ n_k (ō_k − ō)² / n: how far the bins' frequencies move
#   away from the base rate, i.e. how well the model separates clients
#   (higher is better);
# - **uncertainty** = ō (1 − ō): the Brier score of always predicting the base
#   rate, a property of the data, the same for every model.
#
# Brier = reliability − resolution + uncertainty holds exactly only if every
# client of a bin got the same prediction. Within a bin the predictions still
# spread around p̄_k, and the formula replaced them by p̄_k: the **within-bin
# term**, the spread of the predictions inside the bins minus twice their
# covariance with the outcomes there (Stephenson et al., 2008), makes the
# **Brier decomposition** exact. `brier_decomposition` computes all of it;
# here by hand for the logistic regression, then both models:

# %%
table_lr = reliability_table(y_test, scores)
n_test, base_rate = len(y_test), y_test.mean()
reliability_lr = np.sum(table_lr["count"] * (table_lr["mean_predicted"] - table_lr["observed_frequency"]) ** 2) / n_test
resolution_lr = np.sum(table_lr["count"] * (table_lr["observed_frequency"] - base_rate) ** 2) / n_test
uncertainty = base_rate * (1 - base_rate)
print(f"by hand: reliability {reliability_lr:.5f} - resolution {resolution_lr:.5f} + uncertainty {uncertainty:.5f}"
      f" = {reliability_lr - resolution_lr + uncertainty:.5f}; Brier {brier_score_loss(y_test, scores):.5f}"
      f" (within-bin term {brier_score_loss(y_test, scores) - (reliability_lr - resolution_lr + uncertainty):.5f})")
decomposition = pd.DataFrame({name: brier_decomposition(y_test, s_) for name, s_ in two_models.items()}).T
decomposition["check"] = (decomposition["reliability"] - decomposition["resolution"] + decomposition["uncertainty"]
                          + decomposition["within_bin"])
print(decomposition[["brier", "reliability", "resolution", "uncertainty", "within_bin", "check"]]
      .to_string(float_format="{:.6f}".format))

# %% [markdown]
# The hand computation gives 0.09114 for the three terms against a Brier score
# of 0.09088: the gap, −0.00026, is the within-bin term, and with it the
# `check` column equals the Brier score for both models. The uncertainty,
# 0.10173, is the same for both: it belongs to the test set. Naive Bayes'
# larger Brier score comes almost entirely from its reliability term, 0.06037
# against 0.00169: bad calibration, not bad ranking. Its resolution is a
# little lower too (0.00918 against 0.01228). Both resolutions are small next
# to the uncertainty: these models separate the clients only modestly, as
# their AUCs of about 0.71 say. The within-bin term is small here because ten
# bins are narrow; it grows with wide bins, and the decomposition must be
# stated with it unless every bin holds a single prediction value. That is
# Murphy's setting: weather forecasts in steps of 10 % take only the values 0.0,
# 0.1, ..., 1.0, and one bin per value (not ten uniform bins, which put 0.0 and
# 0.1 in the same first bin) makes the term vanish.
#
# **Expected calibration error** (**ECE**) summarises the diagram in one number:
# the mean gap |ō_k − p̄_k|, each bin weighted by its share of the clients
# (`expected_calibration_error`). It depends on the bins, which is its weak
# point: more bins mean fewer clients per bin and more noise in each gap;
# equal-count (quantile) bins spread the clients evenly instead of leaving
# the upper bins almost empty.

# %%
ece_rows = {(name, strategy): {f"{k} bins": expected_calibration_error(y_test, s_, k, strategy) for k in (5, 10, 20, 50)}
            for name, s_ in two_models.items() for strategy in ("uniform", "quantile")}
print(pd.DataFrame(ece_rows).T.to_string(float_format="{:.3f}".format))

# %% [markdown]
# For the logistic regression, the ECE grows from 0.011 with 5 uniform bins to
# 0.038 with 50: with more bins each gap is estimated from fewer clients, and
# the noise in the gaps adds up, since their absolute values cannot cancel.
# The binned ECE is biased upwards by noise, the more so the more bins, so part
# of a small ECE is noise: compare models only with the same bins, and read
# small differences with caution. Naive Bayes stays near 0.15 whatever the
# bins: its miscalibration is real, and much larger than the noise.
#
# **Recalibration, inside cross-validation.** A badly calibrated model can be
# repaired by learning a map from its scores to probabilities:
# **Platt scaling** (`method="sigmoid"`) fits a logistic curve
# 1 / (1 + exp(a·s + b)) to the scores, two parameters; **isotonic
# regression** (`method="isotonic"`) fits any non-decreasing step function,
# more flexible, and hungrier for data. The map must be learnt on scores the
# model did not train on, and never on the test set.
# `CalibratedClassifierCV(cv=5, ensemble=False)` gets out-of-fold scores of the
# training set by cross-validation (`cross_val_predict`), fits the map on
# them, and refits the model once on the whole training set; the test set is
# only scored.

# %%
recalibrated = {"naive Bayes": nb_scores}
for method in ("sigmoid", "isotonic"):
    calibrated = CalibratedClassifierCV(naive_bayes, method=method, cv=cv, ensemble=False).fit(X_train, y_train)
    recalibrated[f"naive Bayes + {method}"] = calibrated.predict_proba(X_test)[:, 1]
recalibration = pd.DataFrame({name: {"ROC AUC": roc_auc_score(y_test, s_), "Brier": brier_score_loss(y_test, s_),
                                     "log loss": log_loss(y_test, s_), "ECE (10 bins)": expected_calibration_error(y_test, s_),
                                     "ECE (10 quantile bins)": expected_calibration_error(y_test, s_, 10, "quantile"),
                                     "miscalibration (CORP)": corp_decomposition(y_test, s_)["miscalibration"],
                                     "discrimination (CORP)": corp_decomposition(y_test, s_)["discrimination"],
                                     "bins filled": len(reliability_table(y_test, s_))}
                              for name, s_ in {**recalibrated, "logistic regression": scores}.items()}).T
# two tables, each narrow enough for a slide at 18 px: the scores' losses with CORP's two parts, then the binned ECEs
binned = ["ECE (10 bins)", "ECE (10 quantile bins)", "bins filled"]
print(recalibration.drop(columns=binned).to_string(float_format="{:.4f}".format))
print(recalibration[binned].astype({"bins filled": int}).to_string(float_format="{:.4f}".format))
print(f"naive Bayes scores below 0.01: {np.sum(nb_scores < 0.01)} clients, above 0.99: {np.sum(nb_scores > 0.99)}, "
      f"in between: {np.sum((nb_scores >= 0.01) & (nb_scores <= 0.99))}")
sigmoid_scores = recalibrated["naive Bayes + sigmoid"]
print("sorted by the naive Bayes scores, the sigmoid's scores never decrease:",
      bool(np.all(np.diff(sigmoid_scores[np.argsort(nb_scores)]) >= 0)))
print(f"distinct test scores: naive Bayes {len(np.unique(nb_scores))}, "
      f"isotonic {len(np.unique(recalibrated['naive Bayes + isotonic']))}; highest recalibrated score: "
      f"sigmoid {sigmoid_scores.max():.3f}, isotonic {recalibrated['naive Bayes + isotonic'].max():.3f}")
for label, group in [("below 0.01", nb_scores < 0.01), ("above 0.99", nb_scores > 0.99)]:
    print(f"sigmoid's scores of the clients naive Bayes scored {label}: from {sigmoid_scores[group].min():.3f} "
          f"to {sigmoid_scores[group].max():.3f}")
fig, ax = plt.subplots(figsize=(10.5, 4.8))
for (name, s_), marker, line_style, color in zip(recalibrated.items(), ["s", "^", "D"], ["--", "-", ":"],
                                                 [style.CYCLE[1], style.CYCLE[2], style.CYCLE[4]]):
    plot_reliability(y_test, s_, name, ax=ax, marker=marker, linestyle=line_style, color=color)
_ = ax.set(title="naive Bayes recalibrated inside CV", xlabel="mean predicted probability", ylabel="observed frequency")
_ = ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))  # beside the axes: it hides no point
show(fig, f"Reliability diagrams of naive Bayes before and after recalibration: ECE "
          f"{recalibration.loc['naive Bayes', 'ECE (10 bins)']:.3f} before, "
          f"{recalibration.loc['naive Bayes + sigmoid', 'ECE (10 bins)']:.3f} with Platt scaling and "
          f"{recalibration.loc['naive Bayes + isotonic', 'ECE (10 bins)']:.3f} with isotonic regression; "
          f"the ROC AUC stays {recalibration.loc['naive Bayes', 'ROC AUC']:.3f} with the sigmoid.")

# %% [markdown]
# Platt scaling is an increasing function of the score, so it keeps the order
# of every pair of clients (the check above) and the ROC AUC, 0.7079, exactly.
# Isotonic regression is only non-decreasing: it maps whole ranges of scores
# to one value (1064 distinct test scores become 28), and the ties it creates
# move the AUC a little, to 0.7033. Both repair the probabilities: the Brier
# score falls from 0.1527 to 0.0936 and 0.0916, and the log loss, which
# punishes confident mistakes hardest, from 2.2751 to 0.3263 and 0.3201,
# close to the logistic regression's 0.0909 and 0.3209. Recalibration cannot
# improve the ranking itself.
#
# Naive Bayes has over a thousand distinct scores, but nearly all of them are
# squeezed against 0 or 1 (the counts printed above). Platt scaling is fitted
# here on these probabilities (GaussianNB has no `decision_function`), so a
# logistic curve of them can only tell "near 0" from "near 1": the recalibrated
# scores sit at about two levels (the last two lines), and none reaches one
# half. Platt scaling on the log-odds, log(p / (1 − p)), which spreads the
# piled-up scores out again, is the usual remedy.
#
# **Compare ECEs with care.** With uniform bins the sigmoid's ECE, 0.006, looks
# three times better than the logistic regression's, 0.018. But the
# recalibrated naive Bayes fills only a few of the ten uniform bins ("bins
# filled"), with most clients in the first: few, crowded bins have small gaps
# by construction. With ten equal-count (quantile) bins, which put the same
# number of clients in every bin for both models, the order reverses: the
# quantile bins' ECE (and their reliability term) says the logistic regression
# is the better calibrated. The Brier score agrees, but it cannot settle
# calibration alone: it is reliability − resolution + uncertainty, so it mixes
# in how well the model ranks. A measure with no bins at all separates the two:
# the **CORP decomposition** (Dimitriadis, Gneiting & Jordan, 2021;
# `corp_decomposition`) recalibrates the test scores by isotonic regression and
# calls **miscalibration** what that gains, BS(p) − BS(iso(p)), and
# **discrimination** what the recalibrated scores gain over the base rate. Its
# two columns put the sigmoid's miscalibration (0.0038) nearly level with the
# logistic regression's (0.0034): most of the logistic regression's lower Brier
# score comes from ranking better (discrimination 0.0142 against 0.0119). The
# honest verdict: both are well calibrated on this test set, the logistic
# regression perhaps slightly better.
#
# **Why the cost threshold needs calibrated scores.** The rule "call when
# p ≥ C_FP / (C_FP + C_FN)" is right only where p is the true probability.
# Class weights (notebook 04) are a common way to break it: the same logistic
# regression trained with `class_weight="balanced"` ranks the clients as well,
# but it learns as if half the clients subscribed. The table gives each model's
# total test cost at the formula's threshold 1/6, before and after Platt
# scaling inside CV, next to the threshold tuned by cross-validation in
# section 10 and the test-set optimum.

# %%
formula_threshold = COST_FP / (COST_FP + COST_FN)
weighted = bank_logistic_regression(solver="newton-cholesky", class_weight="balanced").fit(X_train, y_train)
weighted_sigmoid = CalibratedClassifierCV(weighted, method="sigmoid", cv=cv, ensemble=False).fit(X_train, y_train)
at_formula = {"logistic regression": scores, **recalibrated,
              "balanced class weights": weighted.predict_proba(X_test)[:, 1],
              "balanced class weights + sigmoid": weighted_sigmoid.predict_proba(X_test)[:, 1]}
cost_rows = {}
for name, s_ in at_formula.items():
    at_t = threshold_state(y_test, s_, formula_threshold, COST_FP, COST_FN)
    cost_rows[f"{name}, t = {formula_threshold:.4f}"] = {
        "ROC AUC": roc_auc_score(y_test, s_), "ECE": expected_calibration_error(y_test, s_),
        "recall": at_t["recall"], "total cost": at_t["total_cost"]}
for name, t in [("logistic regression, tuned by CV", by_cost.best_threshold_),
                ("logistic regression, test-set optimum", test_optimum)]:
    at_t = threshold_state(y_test, scores, t, COST_FP, COST_FN)
    cost_rows[f"{name}, t = {t:.4f}"] = {"ROC AUC": roc_auc_score(y_test, scores),
                                          "ECE": expected_calibration_error(y_test, scores),
                                          "recall": at_t["recall"], "total cost": at_t["total_cost"]}
print(pd.DataFrame(cost_rows).T.to_string(float_format="{:.3f}".format))

# %% [markdown]
# The calibrated logistic regression at the formula's threshold costs 493,
# close to the threshold tuned by cross-validation (484) and to the test-set
# optimum (476), which could not be known in advance. The class-weighted
# model ranks as well (ROC AUC 0.711), yet at the same threshold it calls
# almost everybody (recall 0.969) and costs 935: its scores are far too high
# (ECE 0.294), so the formula cuts at the wrong client. Platt scaling inside
# cross-validation brings it back to 487. Naive Bayes shows the other side:
# despite an ECE of 0.151 it costs 492 at the formula's threshold, and
# recalibrating it changes little (497 and 502): the formula needs correct
# probabilities *near the threshold*, and naive Bayes' errors are at the
# extremes. Differences of a few units are within the noise of one test set
# of 1131 clients. So: use C_FP / (C_FP + C_FN) on calibrated scores (check
# the reliability diagram, recalibrate inside cross-validation if needed), or
# tune the threshold on data, which works whatever the calibration.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("02.calibration")


# %% [markdown]
# ## 12. More than two classes: one-vs-rest and one-vs-one (optional)
#
# A ROC curve needs a positive class. With c classes there are two ways to get
# binary problems (the notes say "n", but it is the number of **classes** c, not of
# samples):
# - **one-vs-rest (OvR)**: c curves, class k against all the others, scored with
#   column k of `predict_proba`;
# - **one-vs-one (OvO)**: c(c − 1)/2 pairs of classes; for pair (a, b) keep only the
#   samples of a and b, compute the AUC of a against b and of b against a, and
#   average them (Hand & Till, 2001).
#
# The notes use the iris flowers. With all four measurements the classes are
# almost perfectly separated (first line below), so we keep only the two sepal
# measurements, where versicolor and virginica overlap. As in the notes, the split
# is not stratified, so the test classes have different sizes. We split the sample
# indices once and use them for both sets of columns.

# %%
iris = load_iris()
X_iris, y_iris = iris.data[:, :2], iris.target
idx_train, idx_test = train_test_split(np.arange(len(y_iris)), random_state=RANDOM_STATE)
yi_train, yi_test = y_iris[idx_train], y_iris[idx_test]
iris_model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_iris[idx_train], yi_train)
proba_iris = iris_model.predict_proba(X_iris[idx_test])
four = make_pipeline(StandardScaler(), LogisticRegression()).fit(iris.data[idx_train], yi_train)
print(f"OvR macro AUC with all four measurements: "
      f"{roc_auc_score(yi_test, four.predict_proba(iris.data[idx_test]), multi_class='ovr'):.3f}")
classes, counts = np.unique(yi_test, return_counts=True)
c = len(classes)
print("test samples per class:", dict(zip(iris.target_names.tolist(), counts.tolist())))
for n_classes in (c, 10):
    print(f"c = {n_classes:2d} classes: one-vs-rest makes {n_classes} binary problems, "
          f"one-vs-one {n_classes * (n_classes - 1) // 2}")

# %% [markdown]
# **One-vs-rest by hand.** One AUC per class, then three averages: *macro* (plain
# mean, every class equal), *weighted* (by the number of test samples of each
# class) and *micro* (pool all c × n (label, score) pairs into one binary problem).

# %%
ovr = np.array([auc_rank(yi_test == k, proba_iris[:, k], pos_label=True) for k in classes])
print(pd.Series(ovr, index=iris.target_names, name="OvR AUC").to_string())
onehot = label_binarize(yi_test, classes=classes)
shares = counts / counts.sum()  # the weights of the weighted average
print("class shares:", ", ".join(f"{name} {k}/{counts.sum()} = {w:.3f}"
                                 for name, k, w in zip(iris.target_names, counts, shares)))
ovr_by_hand = {"macro": ovr.mean(), "weighted": np.sum(ovr * shares),
               "micro": auc_rank(onehot.ravel(), proba_iris.ravel())}
for average, value in ovr_by_hand.items():
    library = roc_auc_score(yi_test, proba_iris, multi_class="ovr", average=average)
    print(f"OvR {average:8s} by hand {value:.4f}   roc_auc_score {library:.4f}")
notes_weighted = np.sum(ovr * shares) / c
print(f"the notes' weighted formula (divides again by c): {notes_weighted:.4f}")

# %% [markdown]
# Setosa is perfectly separated; versicolor and virginica overlap, and their AUCs
# pull the macro average down. The weighted average weights each class by its
# share of the test samples, 13/38, 16/38 and 9/38: virginica, the class with
# the lowest AUC, counts least, so the weighted average (0.8852) is slightly
# above the macro one (0.8812). The micro average pools all (label, score) pairs
# into one problem, where the many easy "not this class" samples dominate. Each
# by-hand value equals scikit-learn's.
#
# **Erratum: a multiclass ROC can be drawn.** The notes say it cannot; it takes
# one curve per class, each class against the rest (column k of `predict_proba`),
# and the micro-averaged curve of the pooled (label, score) pairs, whose area is
# the micro AUC above:

# %%
fig, ax = plt.subplots(figsize=(5.5, 5))
for k, name in zip(classes, iris.target_names):
    RocCurveDisplay.from_predictions(yi_test == k, proba_iris[:, k], pos_label=True, name=f"{name} vs rest",
                                     ax=ax)
RocCurveDisplay.from_predictions(onehot.ravel(), proba_iris.ravel(), name="micro-average", ax=ax,
                                 curve_kwargs={"linestyle": ":", "color": "black"}, plot_chance_level=True)
_ = ax.legend(loc="lower right", fontsize=10)
_ = ax.set(title="iris (sepal measurements), one-vs-rest", xlabel="FPR", ylabel="TPR")
for k, name in zip(classes, iris.target_names):
    describe(ax, roc_sentence(yi_test == k, proba_iris[:, k], f"{name} vs rest", pos_label=True))
describe(ax, roc_sentence(onehot.ravel(), proba_iris.ravel(), "the micro-average (dotted black)"))
show(fig, f"One-vs-rest ROC curves of the {len(classes)} iris classes and their micro-average in one panel: AUC "
          + ", ".join(f"{name} {roc_auc_score(yi_test == k, proba_iris[:, k]):.3f}"
                      for k, name in zip(classes, iris.target_names))
          + f", micro-average {roc_auc_score(onehot.ravel(), proba_iris.ravel()):.3f}")

# %% [markdown]
# Setosa's curve goes straight to the top-left corner; the versicolor and
# virginica curves are the hard ones. A macro-averaged *curve* would need the
# per-class curves interpolated on a common FPR grid; the macro *AUC* is simply
# the mean of the per-class areas.

# %% [markdown]
# **Erratum**: the notes' multiclass ROC AUC slide writes the
# weighted OvR average (Provost & Domingos, 2000) as Σ p(j)·AUC(j, rest_j) / c;
# the weights p(j) already sum to 1, so dividing by c gives the last, wrong line
# (0.2951 instead of 0.8852).

# %% [markdown]
# **One-vs-one by hand.** For each pair of classes, keep the samples of the two
# classes and average the AUCs of the two directions.

# %%
pairs = []
for a in range(c):
    for b in range(a + 1, c):
        keep = (yi_test == a) | (yi_test == b)
        a_vs_b = auc_rank(yi_test[keep] == a, proba_iris[keep, a], pos_label=True)
        b_vs_a = auc_rank(yi_test[keep] == b, proba_iris[keep, b], pos_label=True)
        pairs.append({"pair": f"{iris.target_names[a]} / {iris.target_names[b]}", "A(a|b)": a_vs_b,
                      "A(b|a)": b_vs_a, "mean": (a_vs_b + b_vs_a) / 2, "samples": keep.sum()})
ovo = pd.DataFrame(pairs).set_index("pair")
print(ovo.to_string())
for average, value in [("macro", ovo["mean"].mean()),
                       ("weighted", np.average(ovo["mean"], weights=ovo["samples"]))]:
    library = roc_auc_score(yi_test, proba_iris, multi_class="ovo", average=average)
    print(f"OvO {average:8s} by hand {value:.4f}   roc_auc_score {library:.4f}")
notes_n_ij = ovo["samples"] / 2  # the notes' n_ij = (n_i + n_j) / 2
print(f"the notes' weights n_ij / n sum to {notes_n_ij.sum() / counts.sum():.3f} for c = {c}; "
      f"in general to (c - 1) / 2, e.g. {(10 - 1) / 2:.1f} for c = 10")

# %% [markdown]
# Each pair's AUC is the mean of its two directions, which can differ because
# they use different probability columns. Only the versicolor / virginica pair is
# hard. The macro average is the plain mean of the three pairs, the weighted one
# weights each pair by its number of samples; both equal `roc_auc_score` with
# `multi_class="ovo"`. *The notes' weights (optional).* The notes' second multiclass slide divides
# Σ n_ij·R_ij by n with n_ij = (n_i + n_j)/2; those weights sum to (c − 1)·n/2,
# which is n only for c = 3, whereas `np.average` divides by the sum of the
# weights and is right for any c. As scikit-learn's documentation notes, the macro OvO
# average is insensitive to class imbalance, while OvR is not even with macro
# averaging, because the class sizes change what "the rest" contains.

# %% [markdown]
# ## 13. Comparing two classifiers
#
# A random forest on the same bank data, against the logistic regression: both
# curves on shared axes, with the AUC and AP in the legends.

# %%
forest = make_pipeline(
    make_column_transformer((OneHotEncoder(handle_unknown="ignore"), categorical), remainder="passthrough"),
    RandomForestClassifier(n_estimators=100, min_samples_leaf=5, random_state=RANDOM_STATE)).fit(X_train, y_train)
fig, (ax_roc, ax_pr) = plt.subplots(1, 2, figsize=(11, 4.8))
summary, precision_by_k = {}, {}
models = [("logistic regression", bank_model), ("random forest", forest)]
for i, (name, model) in enumerate(models):
    model_scores = model.predict_proba(X_test)[:, 1]
    last = i == len(models) - 1  # draw the chance level once
    RocCurveDisplay.from_predictions(y_test, model_scores, name=name, ax=ax_roc, plot_chance_level=last)
    PrecisionRecallDisplay.from_predictions(y_test, model_scores, name=name, ax=ax_pr, plot_chance_level=last)
    summary[name] = {"ROC AUC": roc_auc_score(y_test, model_scores),
                     "AP": average_precision_score(y_test, model_scores),
                     "recall at FPR <= 0.1": roc_table(y_test, model_scores).query("fpr <= 0.1")["tpr"].max()}
    # The PR curve's precision for recall in ((k - 1)/P, k/P]: the row where the k-th subscriber enters.
    model_pr = pr_table(y_test, model_scores)
    first_row = np.searchsorted(model_pr["tp"].to_numpy(), np.arange(1, n_subscribers + 1))
    precision_by_k[name] = model_pr["precision"].to_numpy()[first_row]
_ = ax_roc.legend(loc="lower right", fontsize=10)  # below the chance line
_ = ax_pr.legend(loc="upper right", fontsize=10)  # above the chance level
for name, model in models:
    describe(ax_roc, roc_sentence(y_test, model.predict_proba(X_test)[:, 1], f"the {name}"))
    describe(ax_pr, pr_sentence(y_test, model.predict_proba(X_test)[:, 1], f"the {name}"))
show(fig, "Left ROC curves, right precision-recall curves of two models on the bank test set: "
          + "; ".join(f"{name}: ROC AUC {values['ROC AUC']:.3f}, AP {values['AP']:.3f}"
                      for name, values in summary.items()))
pd.DataFrame(summary).T

# %% [markdown]
# Where do the PR curves cross? For each recall step ((k − 1)/P, k/P], compare the
# precision the two curves show there, and list the stretches of recall where the
# logistic regression is the more precise:

# %%
lr_better = precision_by_k["logistic regression"] > precision_by_k["random forest"]
edges = np.flatnonzero(np.diff(np.concatenate([[0], lr_better.astype(int), [0]]))).reshape(-1, 2)
for start, end in edges:  # steps start, ..., end - 1, i.e. recall from start/P to end/P
    print(f"recall {start / n_subscribers:.3f} to {end / n_subscribers:.3f}")
longest = edges[np.argmax(edges[:, 1] - edges[:, 0])]
print(f"{len(edges)} stretches, {lr_better.mean():.3f} of the recall axis in all; the longest from "
      f"{longest[0] / n_subscribers:.3f} to {longest[1] / n_subscribers:.3f}")


def tpr_at(fpr_grid, y, model_scores):
    """The ROC curve's TPR at each FPR of the grid: the best TPR of a threshold with FPR <= it."""
    table = roc_table(y, model_scores)
    return table["tpr"].to_numpy()[np.searchsorted(table["fpr"].to_numpy(), fpr_grid, side="right") - 1]


fpr_grid = np.linspace(0, 1, 1001)
tpr_grid = {name: tpr_at(fpr_grid, y_test, model.predict_proba(X_test)[:, 1]) for name, model in models}
forest_above = tpr_grid["random forest"] > tpr_grid["logistic regression"]
forest_below = tpr_grid["random forest"] < tpr_grid["logistic regression"]
print(f"on {fpr_grid.size} FPRs from 0 to 1 the forest's ROC curve is above on {forest_above.mean():.3f}, below on "
      f"{forest_below.mean():.3f} and level on {1 - forest_above.mean() - forest_below.mean():.3f} of them")

# %% [markdown]
# The forest's ROC curve lies above the logistic regression's on most of the FPR
# axis (0.802 of a 1,001-point grid), below it on 0.118, and all three numbers
# favour it. The PR curves, however, cross again and again:
# the logistic regression is the more precise in 8 short stretches of recall,
# 0.200 of the recall axis in all, the longest from 0.269 to 0.338 and another
# from 0.138 to 0.162, both visible in the figure. A single summary
# hides such crossings, so compare the models in the region where you will
# operate: if the bank can afford to call at most one in ten of the uninterested
# clients (FPR ≤ 0.1), the last column is the comparison that counts.
#
# **How precise is one AUC?** On 1131 test clients with 130 subscribers, an AUC
# is itself an estimate. A bootstrap gives it a confidence interval: resample the
# subscribers and the non-subscribers with replacement (keeping their numbers),
# recompute the AUC, 1,000 times, and take the middle 95 % of the values
# (`bootstrap_auc_interval` in `helpers.roc`):

# %%
auc_intervals = {}
for name, model in models:
    interval = auc_intervals[name] = bootstrap_auc_interval(y_test, model.predict_proba(X_test)[:, 1],
                                                            n_rounds=1000, random_state=RANDOM_STATE)
    print(f"{name:20s} ROC AUC {interval['auc']:.3f}, 95 % bootstrap interval "
          f"[{interval['low']:.3f}, {interval['high']:.3f}], standard error {interval['standard_error']:.3f}")

# %% [markdown]
# Each interval reaches about 0.05 on either side of its AUC (standard errors
# 0.026 and 0.024), and the two overlap widely, [0.663, 0.764] and
# [0.696, 0.788]. But overlapping intervals are not a test: the two AUCs are
# measured on the *same* 1131 clients, and a client who is hard for one model
# is usually hard for the other. Their errors are correlated, so the difference
# of the two AUCs is much less uncertain than the two intervals suggest.
# (Notebook 03 pairs cross-validation folds, refitting the models each time: a
# different question, about the training procedure. Here the two fitted models
# are fixed and only the test clients vary.)
#
# **Two AUCs on one test set: DeLong's test and the paired bootstrap.** The
# *paired* bootstrap resamples the clients once per round, the same clients for
# both models, and recomputes the *difference* of the AUCs. DeLong, DeLong &
# Clarke-Pearson (1988) compute its variance without resampling, from the
# Mann-Whitney reading of section 4: each positive gets a *placement value*, the
# share of negatives it outranks (ties count one half), and each negative the
# share of positives that outrank it; the AUC is the mean of either. Their
# sample covariances between the two models, S10 over the P positives and S01
# over the N negatives, give Var(AUC_A − AUC_B) = (S10_AA + S10_BB − 2 S10_AB) / P +
# (S01_AA + S01_BB − 2 S01_AB) / N, and z = difference / SE is compared with the
# normal distribution. The covariance terms are what pairing gains. By hand
# first, then `delong_test` and `paired_bootstrap_auc_difference` (in `helpers.roc`):

# %%
scores_forest = forest.predict_proba(X_test)[:, 1]
scores_logreg = bank_model.predict_proba(X_test)[:, 1]
positive = y_test.to_numpy() == 1
placements = {}
for name, model_scores in (("random forest", scores_forest), ("logistic regression", scores_logreg)):
    pos, neg = model_scores[positive], model_scores[~positive]
    beats = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])  # P x N comparisons
    placements[name] = (beats.mean(axis=1), beats.mean(axis=0))  # V10 (positives), V01 (negatives)
v10 = np.array([placements[name][0] for name in placements])
v01 = np.array([placements[name][1] for name in placements])
contrast = np.array([1, -1])
se_by_hand = np.sqrt(contrast @ np.cov(v10) @ contrast / positive.sum() + contrast @ np.cov(v01) @ contrast
                     / (~positive).sum())
delong = delong_test(y_test, scores_forest, scores_logreg)
paired = paired_bootstrap_auc_difference(y_test, scores_forest, scores_logreg, n_rounds=1000,
                                         random_state=RANDOM_STATE)
unpaired_se = np.sqrt(sum(interval["standard_error"] ** 2 for interval in auc_intervals.values()))  # above
print(f"AUC forest {delong.auc_a:.3f} - logistic regression {delong.auc_b:.3f} = {delong.difference:.3f}")
print(f"DeLong: SE by hand {se_by_hand:.4f}, delong_test {delong.standard_error:.4f}, z = {delong.z:.2f}, "
      f"p = {delong.p_value:.3f}, 95 % interval [{delong.ci_low:.4f}, {delong.ci_high:.4f}]")
print(f"paired bootstrap (1,000 rounds): SE {paired['standard_error']:.4f}, "
      f"95 % interval [{paired['low']:.3f}, {paired['high']:.3f}]")
other_seeds = [paired_bootstrap_auc_difference(y_test, scores_forest, scores_logreg, n_rounds=1000,
                                               random_state=seed) for seed in range(1, 6)]
print("the paired bootstrap's 2.5 % end with five other seeds: "
      + ", ".join(f"{result['low']:+.4f}" for result in other_seeds))
print(f"unpaired SE, as if the two AUCs were independent: {unpaired_se:.4f}")
print(f"correlation of the two AUCs' placement values: positives {np.corrcoef(v10)[0, 1]:.2f}, "
      f"negatives {np.corrcoef(v01)[0, 1]:.2f}")

# %% [markdown]
# The hand computation and the helper agree, and DeLong's standard error (0.0153)
# is close to the paired bootstrap's (0.0161): two routes to the same quantity.
# The bootstrap's figures carry Monte-Carlo error: with another seed, 1,000
# rounds move its interval's ends by a few thousandths, enough to make an end
# touch 0 or not: the five other seeds all put the lower end just above 0, where
# seed 0 puts it just below. DeLong's formula has no such noise. Both are less than half the unpaired SE, because the two models'
# placement values are strongly correlated. The difference of 0.030 is
# borderline: DeLong's p is just above 0.05 (the stable reading) and both 95 %
# intervals reach 0 here. The
# honest summary is "the forest ranks better on this test set, by about 0.03 AUC,
# a difference one test set of 130 subscribers cannot quite confirm", not "the
# intervals overlap, so they are equal". DeLong's test is what clinical
# reviewers ask for; the paired bootstrap works for any metric where no formula
# exists: `paired_bootstrap_auc_difference(..., metric=...)` takes a function of
# the labels and one model's scores (the end of this section uses it).
#
# **Two classifiers' labels: McNemar's test.** For hard labels (each model's
# prediction at its threshold) the paired test is McNemar's (1947). Clients both
# models get right, or both get wrong, say nothing about which is better; only the
# *discordant* clients count: b, those only the forest gets right, and c, those
# only the logistic regression gets right. If the two were equally accurate,
# each discordant client would be a fair coin, so b follows a Binomial(b + c, ½)
# and the exact two-sided **p-value** (the probability, if the two were equally
# accurate, of a split at least as uneven as the one observed) is
# 2 P(X ≤ min(b, c)). At the default
# threshold 0.5, by hand, with `mcnemar_test` (in `helpers.metrics`) and with
# scipy's binomial test:

# %%
right_forest = forest.predict(X_test) == y_test.to_numpy()
right_logreg = bank_model.predict(X_test) == y_test.to_numpy()
b_only_forest, c_only_logreg = int(np.sum(right_forest & ~right_logreg)), int(np.sum(~right_forest & right_logreg))
p_by_hand = min(1.0, 2 * stats.binom.cdf(min(b_only_forest, c_only_logreg), b_only_forest + c_only_logreg, 0.5))
mcnemar = mcnemar_test(y_test, forest.predict(X_test), bank_model.predict(X_test))
print(f"accuracy forest {right_forest.mean():.4f}, logistic regression {right_logreg.mean():.4f}; "
      f"both right {mcnemar.both_right}, both wrong {mcnemar.both_wrong}")
print(f"discordant: only the forest right b = {b_only_forest}, only the logistic regression right c = "
      f"{c_only_logreg}")
print(f"exact p by hand {p_by_hand:.3f}, mcnemar_test {mcnemar.p_value:.3f}, scipy binomtest "
      f"{stats.binomtest(b_only_forest, b_only_forest + c_only_logreg).pvalue:.3f}")

# %% [markdown]
# Out of 1131 clients only the discordant few carry information about the
# difference in accuracy, and they split too evenly to show one: McNemar's test
# finds no difference in accuracy at the default threshold, whatever the AUCs
# say. The two tests answer different questions: DeLong's compares rankings over
# all thresholds, McNemar's the labels at one. Restricted to the positives, the
# same test compares two recalls (sensitivities) measured on the same patients,
# the paired counterpart of 01's recall interval; on the negatives it compares
# two specificities. (With many discordant pairs the
# chi-square form (|b − c| − 1)² / (b + c) approximates the exact test;
# `statsmodels.stats.contingency_tables.mcnemar` has both.)
#
# **Partial AUC: the region where you operate.** If the bank can call at most
# one uninterested client in ten, only the part of the ROC curve with FPR ≤ 0.1
# matters. Its area is at most 0.1; `roc_auc_score(..., max_fpr=0.1)` returns it
# standardised by McClish (1989) so that 0.5 is chance and 1 is perfect:
# 0.5 (1 + (A − A_chance) / (A_max − A_chance)), with A_chance = 0.1² / 2 and
# A_max = 0.1:

# %%
max_fpr = 0.1
for name, model_scores in (("random forest", scores_forest), ("logistic regression", scores_logreg)):
    table = roc_table(y_test, model_scores)
    fpr_points, tpr_points = table["fpr"].to_numpy(), table["tpr"].to_numpy()
    inside = fpr_points <= max_fpr
    fpr_cut = np.append(fpr_points[inside], max_fpr)  # the curve up to FPR 0.1, closed at exactly 0.1
    tpr_cut = np.append(tpr_points[inside], np.interp(max_fpr, fpr_points, tpr_points))
    area = auc_trapezoid(fpr_cut, tpr_cut)
    chance, best = max_fpr**2 / 2, max_fpr
    print(f"{name:20s} partial area {area:.4f}, standardised by hand {0.5 * (1 + (area - chance) / (best - chance)):.4f}, "
          f"roc_auc_score(max_fpr=0.1) {roc_auc_score(y_test, model_scores, max_fpr=max_fpr):.4f}, "
          f"full AUC {roc_auc_score(y_test, model_scores):.4f}")

# %% [markdown]
# The standardised partial AUC keeps the ranking of the two models, with a
# smaller gap (0.6329 against 0.6232, where the full AUCs differ by 0.030): on
# average over the low-FPR region, the two models are closer than over the whole
# curve. That does not contradict the table's recall at FPR ≤ 0.1, where the gap
# is larger (0.454 against 0.408): the partial AUC averages the recall over every
# FPR up to the budget, while a bank that spends its whole budget operates at FPR
# 0.1 and should compare the recalls there. Report partial AUCs with their FPR
# range. No DeLong formula covers either comparison; the paired bootstrap does,
# with the metric passed in (`recall_at_fpr` is in `helpers.roc`):

# %%
budget_metrics = {"partial AUC (FPR <= 0.1)": lambda labels, s_: roc_auc_score(labels, s_, max_fpr=max_fpr),
                  "recall at FPR <= 0.1": partial(recall_at_fpr, max_fpr=max_fpr)}
for metric_name, metric in budget_metrics.items():
    paired_metric = paired_bootstrap_auc_difference(y_test, scores_forest, scores_logreg, n_rounds=1000,
                                                    random_state=RANDOM_STATE, metric=metric)
    print(f"{metric_name}: forest - logistic regression = {paired_metric['difference']:+.4f}, paired bootstrap "
          f"95 % interval [{paired_metric['low']:+.3f}, {paired_metric['high']:+.3f}]")

# %% [markdown]
# Both intervals are wide and contain 0: on 130 subscribers, neither the
# budget-region ranking nor the recall at the budget tells the two models apart
# with confidence. The recall at one FPR is the noisier of the two, since it
# rests on the few clients near one threshold.
#
# **Beyond the AUC (further reading).** Three tools put the costs back into the
# comparison. *Decision curves* (Vickers & Elkin, 2006) plot a model's
# **net benefit**, TP/n − FP/n × t/(1 − t), against the threshold probability t a
# decision maker would accept, next to "call everyone" and "call no one"; they
# are standard in clinical prediction. *Cost curves* (Drummond & Holte, 2006)
# plot expected cost against the operating conditions (class shares and cost
# ratio) and read off where each model is cheapest. Hand (2009) showed that the
# AUC averages the misclassification cost over a distribution of cost ratios
# that depends on the model itself, so two models' AUCs weigh the costs
# differently; his **H-measure** fixes that distribution in advance. Flach,
# Hernández-Orallo & Ferri (ICML 2011) answer that the AUC does have a coherent
# cost reading, as the expected cost when the threshold is drawn uniformly
# from the scores, so the two views weigh different questions.

# %% [markdown]
# ## Practice
#
# Six graded exercises. Write your code where it says `YOUR CODE HERE`, then run
# the test cell below it: the visible tests give feedback, and further hidden tests
# are used for the grade. Do not use scikit-learn's metric functions, `calibration_curve`
# or the course's `helpers` (`helpers.roc`, `helpers.calibration`, `helpers.metrics`)
# inside your answers (you may use them to check yourself). Inputs may be lists or
# tuples as well as arrays: start with `np.asarray`.

# %% [markdown]
# **Exercise 1 (2 points).** Write `roc_point(y_true, y_score, threshold)` returning
# the pair `(fpr, tpr)` of the classifier "positive when score ≥ threshold".
# Labels are 0 and 1, and both classes are present.

# %% nbgrader={"grade": false, "grade_id": "ex1-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def roc_point(y_true, y_score, threshold):
    ### BEGIN SOLUTION
    y_true, predicted = np.asarray(y_true), np.asarray(y_score) >= threshold
    tp = np.sum(predicted & (y_true == 1))
    fp = np.sum(predicted & (y_true == 0))
    return fp / np.sum(y_true == 0), tp / np.sum(y_true == 1)
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex1-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

import numpy as np
from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.exercises import functions_called

_used = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve",
                           "confusion_matrix", "helpers") if name in inspect.getsource(roc_point)]
_used += functions_called(roc_point)  # a course or scikit-learn function called by name
assert not _used, f"do not use scikit-learn's metric functions or the course's helpers in the answer: count yourself ({_used})"
try:
    fpr_055, tpr_055 = roc_point(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.55)
except (TypeError, AttributeError, IndexError) as error:
    raise AssertionError(f"inputs may be lists or tuples (they are tuples here): start with np.asarray ({error!r})") from None
assert np.isclose(fpr_055, 0.2) and np.isclose(tpr_055, 0.8), \
    (f"at 0.55 the ten tuples give the pair (fpr, tpr) = (1/5, 4/5), FPR = FP / negatives and TPR = TP / positives; "
     f"got ({fpr_055}, {tpr_055}). Is 0.55 itself positive?")
assert np.allclose(roc_point(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.95), (0, 0)), "above every score: (0, 0)"
### BEGIN HIDDEN TESTS
_used_h = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve", "confusion_matrix", "helpers") if name in inspect.getsource(roc_point)]
_used_h += functions_called(roc_point)  # a course or scikit-learn function called by name
assert not _used_h, f"do not use scikit-learn's metric functions or helpers in the answer: count yourself ({_used_h})"
_y_list, _s_tuple = [0, 1, 1, 0, 1, 0], (0.2, 0.6, 0.5, 0.5, 0.9, 0.1)
try:
    _from_lists_h = roc_point(_y_list, _s_tuple, 0.5)
except Exception as error:
    raise AssertionError(f"inputs may be lists or tuples: start with np.asarray ({error!r})") from None
assert np.allclose(_from_lists_h, roc_point(np.array(_y_list), np.array(_s_tuple), 0.5)), \
    "inputs may be lists or tuples: the same result as with NumPy arrays (start with np.asarray)"
from helpers.roc import roc_table

rng = np.random.default_rng(11)
y_h, s_h = rng.integers(0, 2, 300), rng.integers(0, 20, 300) / 20
y_h[:2] = [0, 1]
for t in [0.0, 0.3, 0.33, 0.5, 0.95, 2.0]:
    row = roc_table(y_h, s_h).query("threshold >= @t").iloc[-1]
    assert np.allclose(roc_point(y_h, s_h, t), (row["fpr"], row["tpr"])), \
        '300 random examples: a score >= the threshold is positive; (FPR, TPR) = (FP / negatives, TP / positives)'
assert np.allclose(roc_point([1, 0], [0.3, 0.3], 0.3), (1, 1)), \
    'a score equal to the threshold is predicted positive: both examples are, so (fpr, tpr) = (1, 1)'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2 (3 points).** Write `auc_by_pairs(y_true, y_score)`: the share of
# (positive, negative) pairs in which the positive has the higher score, a tie
# counting one half. Labels are 0 and 1, and both classes are present.

# %% nbgrader={"grade": false, "grade_id": "ex2-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def auc_by_pairs(y_true, y_score):
    ### BEGIN SOLUTION
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1][:, None], y_score[y_true == 0][None, :]
    return float(((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (pos.size * neg.size))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex2-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import inspect

import numpy as np
from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.exercises import functions_called

_used = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve",
                           "confusion_matrix", "helpers") if name in inspect.getsource(auc_by_pairs)]
_used += functions_called(auc_by_pairs)  # a course or scikit-learn function called by name
assert not _used, f"do not use scikit-learn's metric functions or the course's helpers in the answer: count yourself ({_used})"
try:
    auc_ten = auc_by_pairs(ROC_TEN_LABELS, ROC_TEN_SCORES)
except (TypeError, AttributeError, IndexError) as error:
    raise AssertionError(f"inputs may be lists or tuples (they are tuples here): start with np.asarray ({error!r})") from None
assert np.isclose(auc_ten, 0.76), f"the ten tuples: 19 of 25 (positive, negative) pairs; got {auc_ten}"
assert np.isclose(auc_by_pairs([1, 0], [0.4, 0.4]), 0.5), "a tie counts one half"
### BEGIN HIDDEN TESTS
_used_h = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve", "confusion_matrix", "helpers") if name in inspect.getsource(auc_by_pairs)]
_used_h += functions_called(auc_by_pairs)  # a course or scikit-learn function called by name
assert not _used_h, f"do not use scikit-learn's metric functions or helpers in the answer: count yourself ({_used_h})"
_y_list, _s_tuple = [0, 1, 1, 0, 1, 0], (0.2, 0.6, 0.5, 0.5, 0.9, 0.1)
try:
    _from_lists_h = auc_by_pairs(_y_list, _s_tuple)
except Exception as error:
    raise AssertionError(f"inputs may be lists or tuples: start with np.asarray ({error!r})") from None
assert np.allclose(_from_lists_h, auc_by_pairs(np.array(_y_list), np.array(_s_tuple))), \
    "inputs may be lists or tuples: the same result as with NumPy arrays (start with np.asarray)"
from sklearn.metrics import roc_auc_score

rng = np.random.default_rng(12)
for n in [5, 40, 200]:
    y_h, s_h = rng.integers(0, 2, n), rng.integers(0, 6, n) / 5
    y_h[:2] = [0, 1]
    assert np.isclose(auc_by_pairs(y_h, s_h), roc_auc_score(y_h, s_h)), \
        'random data: the share of (positive, negative) pairs ranked right, a tie counting one half'
assert np.isclose(auc_by_pairs([0, 0, 1], [0.9, 0.8, 0.1]), 0.0), \
    'every positive scored below every negative: AUC 0'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3 (3 points).** Write `cheapest_threshold(y_true, y_score, cost_fp, cost_fn)`
# returning the threshold of least total cost `cost_fp * FP + cost_fn * FN`. The
# candidates are `np.inf` (nothing positive) and every distinct score; when several
# cost the same, return the highest.

# %% nbgrader={"grade": false, "grade_id": "ex3-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    ### BEGIN SOLUTION
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        predicted = y_score >= t
        cost = cost_fp * np.sum(predicted & (y_true == 0)) + cost_fn * np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex3-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import inspect

import numpy as np
from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.exercises import functions_called

_used = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve",
                           "confusion_matrix", "helpers") if name in inspect.getsource(cheapest_threshold)]
_used += functions_called(cheapest_threshold)  # a course or scikit-learn function called by name
assert not _used, f"do not use scikit-learn's metric functions or the course's helpers in the answer: count yourself ({_used})"
try:
    threshold_ten = cheapest_threshold(ROC_TEN_LABELS, ROC_TEN_SCORES, 1, 1)
except (TypeError, AttributeError, IndexError) as error:
    raise AssertionError(f"inputs may be lists or tuples (they are tuples here): start with np.asarray ({error!r})") from None
assert threshold_ten == 0.55, f"equal costs: FP + FN is least (2) at the threshold 0.55; got {threshold_ten}"
assert cheapest_threshold(ROC_TEN_LABELS, ROC_TEN_SCORES, 1, 5) == 0.5, "a missed positive costs 5: 0.5 costs 4"
assert cheapest_threshold([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6], 1, 1) == 0.9, \
    "0.9 and 0.7 both cost 1: on a tie return the highest threshold"
assert cheapest_threshold([0, 1], [0.9, 0.1], 2, 1) == np.inf, \
    "calling nobody (threshold np.inf) costs 1, less than any score: return np.inf"
assert cheapest_threshold([1, 0, 0], [0.7, 0.7, 0.2], 1, 1) == np.inf, \
    ("the two scores of 0.7 are tied: the threshold 0.7 calls both (cost 1, as much as calling nobody), so the "
     "answer is np.inf; try each distinct score as the threshold, not one example at a time")
### BEGIN HIDDEN TESTS
_used_h = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve", "confusion_matrix", "helpers") if name in inspect.getsource(cheapest_threshold)]
_used_h += functions_called(cheapest_threshold)  # a course or scikit-learn function called by name
assert not _used_h, f"do not use scikit-learn's metric functions or helpers in the answer: count yourself ({_used_h})"
_y_list, _s_tuple = [0, 1, 1, 0, 1, 0], (0.2, 0.6, 0.5, 0.5, 0.9, 0.1)
try:
    _from_lists_h = cheapest_threshold(_y_list, _s_tuple, 1, 3)
except Exception as error:
    raise AssertionError(f"inputs may be lists or tuples: start with np.asarray ({error!r})") from None
assert np.allclose(_from_lists_h, cheapest_threshold(np.array(_y_list), np.array(_s_tuple), 1, 3)), \
    "inputs may be lists or tuples: the same result as with NumPy arrays (start with np.asarray)"
from helpers.roc import threshold_state

assert cheapest_threshold(ROC_TEN_LABELS, ROC_TEN_SCORES, 100, 1) == 0.8, \
    'the ten examples with an FP costing 100 and an FN 1: the cheapest threshold is 0.8'
assert cheapest_threshold((1, 1, 0, 0), (0.2, 0.2, 0.9, 0.9), 1, 1) == np.inf, \
    'here predicting nothing positive is cheapest: np.inf is a candidate threshold'
rng = np.random.default_rng(13)
for cost_fp, cost_fn in [(1, 1), (1, 3), (2, 1), (0.5, 7)]:
    y_h, s_h = rng.integers(0, 2, 150), rng.integers(0, 30, 150) / 30
    y_h[:2] = [0, 1]
    expected = threshold_state(y_h, s_h, 0.5, cost_fp, cost_fn)["cost_optimal"]["threshold"]
    assert cheapest_threshold(y_h, s_h, cost_fp, cost_fn) == expected, \
        'random scores: the threshold with the lowest cost_fp * FP + cost_fn * FN (the highest on a tie)'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 4 (2 points).** A campaign must reach at least a given share of the
# subscribers. Write `precision_at_recall(y_true, y_score, min_recall)` returning
# the highest precision among the thresholds (distinct scores) whose recall is at
# least `min_recall` (0 < `min_recall` ≤ 1).

# %% nbgrader={"grade": false, "grade_id": "ex4-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def precision_at_recall(y_true, y_score, min_recall):
    ### BEGIN SOLUTION
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best = 0.0
    for t in set(y_score.tolist()):
        predicted = y_score >= t
        tp = np.sum(predicted & (y_true == 1))
        if tp / np.sum(y_true == 1) >= min_recall:
            best = max(best, tp / np.sum(predicted))
    return float(best)
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex4-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

import numpy as np
from helpers.datasets import ROC_TEN_LABELS, ROC_TEN_SCORES
from helpers.exercises import functions_called

_used = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve",
                           "confusion_matrix", "helpers") if name in inspect.getsource(precision_at_recall)]
_used += functions_called(precision_at_recall)  # a course or scikit-learn function called by name
assert not _used, f"do not use scikit-learn's metric functions or the course's helpers in the answer: count yourself ({_used})"
try:
    precision_08 = precision_at_recall(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.8)
except (TypeError, AttributeError, IndexError) as error:
    raise AssertionError(f"inputs may be lists or tuples (they are tuples here): start with np.asarray ({error!r})") from None
assert np.isclose(precision_08, 0.8), "recall >= 0.8: the best threshold is 0.55 with precision 4/5"
assert np.isclose(precision_at_recall(ROC_TEN_LABELS, ROC_TEN_SCORES, 1.0), 5 / 9), \
    "all five positives: down to 0.50, precision 5/9"
assert np.isclose(precision_at_recall(ROC_TEN_LABELS, ROC_TEN_SCORES, 0.6), 0.8), \
    "recall >= 0.6 is reached at 0.60 (precision 0.75), but 0.55 does better (0.8)"
assert np.isclose(precision_at_recall([1, 0, 1, 0], [0.9, 0.9, 0.5, 0.1], 0.5), 2 / 3), \
    ("the two scores of 0.9 are tied: a threshold takes both or neither (precision 1/2 at 0.9), so the best "
     "with recall >= 0.5 is 2/3 at 0.5; try each distinct score as the threshold, not each rank")
### BEGIN HIDDEN TESTS
_used_h = [name for name in ("sklearn", "metrics", "roc_auc_score", "roc_curve", "precision_recall_curve", "confusion_matrix", "helpers") if name in inspect.getsource(precision_at_recall)]
_used_h += functions_called(precision_at_recall)  # a course or scikit-learn function called by name
assert not _used_h, f"do not use scikit-learn's metric functions or helpers in the answer: count yourself ({_used_h})"
_y_list, _s_tuple = [0, 1, 1, 0, 1, 0], (0.2, 0.6, 0.5, 0.5, 0.9, 0.1)
try:
    _from_lists_h = precision_at_recall(_y_list, _s_tuple, 0.5)
except Exception as error:
    raise AssertionError(f"inputs may be lists or tuples: start with np.asarray ({error!r})") from None
assert np.allclose(_from_lists_h, precision_at_recall(np.array(_y_list), np.array(_s_tuple), 0.5)), \
    "inputs may be lists or tuples: the same result as with NumPy arrays (start with np.asarray)"
from sklearn.metrics import precision_recall_curve

rng = np.random.default_rng(14)
y_h, s_h = rng.integers(0, 2, 400), rng.integers(0, 50, 400) / 50
y_h[:2] = [0, 1]
precision_h, recall_h, _ = precision_recall_curve(y_h, s_h)
for r in [0.05, 0.3, 0.5, 0.9, 1.0]:
    assert np.isclose(precision_at_recall(y_h, s_h, r), precision_h[:-1][recall_h[:-1] >= r].max()), \
        '400 random scores: the highest precision among the thresholds whose recall is at least min_recall'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 5 (3 points).** Write `calibration_error(y_true, y_prob, n_bins)`, the
# expected calibration error of section 11 with `n_bins` bins of equal width on
# [0, 1]. A probability p belongs to the bin (k / n_bins, (k + 1) / n_bins] (so a
# probability on an edge belongs to the bin below it), except p = 0, which belongs to
# the first bin. Each non-empty bin adds (its number of samples / all samples) ×
# |observed frequency of label 1 − mean probability|; an empty bin adds nothing.
# Labels are 0 and 1 (one class alone is allowed); return a float.

# %% nbgrader={"grade": false, "grade_id": "ex5-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def calibration_error(y_true, y_prob, n_bins):
    ### BEGIN SOLUTION
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    bin_of = np.searchsorted(edges[1:-1], y_prob, side="left")  # the first inner edge >= p
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex5-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import inspect

import numpy as np
from helpers.exercises import functions_called

_used = [name for name in ("sklearn", "calibration_curve", "helpers", "expected_calibration_error")
         if name in inspect.getsource(calibration_error)]
_used += functions_called(calibration_error)  # a course or scikit-learn function called by name
assert not _used, f"do not use calibration_curve or helpers.calibration in the answer: bin and count yourself ({_used})"


def _ece(y_true, y_prob, n_bins):
    """Call the answer; a crash on an edge case becomes a hint."""
    try:
        value = calibration_error(y_true, y_prob, n_bins)
    except (TypeError, AttributeError) as error:
        raise AssertionError(f"inputs may be lists or tuples (they are tuples here): start with np.asarray "
                             f"({error!r})") from None
    except IndexError as error:
        raise AssertionError(f"a bin index is out of range ({error!r}): p = 1 belongs to the last bin, "
                             f"p = 0 to the first") from None
    except ZeroDivisionError as error:
        raise AssertionError(f"an empty bin adds nothing: skip it ({error!r})") from None
    except ValueError as error:
        raise AssertionError(f"calibration_error raised {error!r}: labels are 0 and 1, and one class alone is "
                             f"allowed (every label 1, or every label 0): do not reject it") from None
    assert isinstance(value, float), f"return a float; got {type(value).__name__}"
    return value


Y6, P6 = (0, 0, 1, 1, 1, 0), (0.1, 0.2, 0.3, 0.7, 0.9, 0.8)
ece_6 = _ece(Y6, P6, 2)
assert np.isclose(ece_6, 2 / 15), \
    (f"six samples, 2 bins: (3 |1/3 - 0.2| + 3 |2/3 - 0.8|) / 6 = 2/15 = 0.1333; got {ece_6}. "
     "Take the absolute gap |observed - predicted| in each bin: the two gaps have opposite signs")
ece_4 = _ece((1, 1, 1, 0), (0.1, 0.7, 0.9, 0.8), 2)
assert np.isclose(ece_4, (0.9 + 3 * (0.8 - 2 / 3)) / 4), \
    (f"bins of 1 and 3 samples with gaps 0.9 and 0.133: (1 x 0.9 + 3 x 0.133) / 4 = 0.325; got {ece_4}. "
     "Weight each bin's gap by its share of the samples, not each bin equally")
ece_empty = _ece(Y6, P6, 10)
assert np.isfinite(ece_empty) and np.isclose(ece_empty, 2.2 / 6), \
    (f"with 10 bins each of the six samples is alone in its bin and the other bins are empty: an empty bin adds "
     f"nothing, and the error is the mean of |y - p|, 2.2 / 6; got {ece_empty}")
ece_one = _ece((0, 1), (1.0, 0.2), 4)
assert np.isclose(ece_one, 0.9), f"p = 1 belongs to the last bin (0.75, 1]: (1 + 0.8) / 2 = 0.9; got {ece_one}"
ece_zero = _ece((1, 0), (0.0, 0.9), 4)
assert np.isclose(ece_zero, 0.95), f"p = 0 belongs to the first bin [0, 0.25]: (1 + 0.9) / 2 = 0.95; got {ece_zero}"
ece_edge = _ece((0, 1), (0.5, 0.75), 2)
assert np.isclose(ece_edge, 0.375), \
    (f"with 2 bins, 0.5 lies on the edge and belongs to the bin below it, [0, 0.5]: (0.5 + 0.25) / 2 = 0.375; "
     f"got {ece_edge}")
ece_one_class = _ece((1, 1), (0.3, 0.9), 2)
assert np.isclose(ece_one_class, 0.4), \
    f"one class alone is allowed: every label 1, gaps 0.7 and 0.1 in two bins, each 1/2: 0.4; got {ece_one_class}"
### BEGIN HIDDEN TESTS
_used_h = [name for name in ("sklearn", "calibration_curve", "helpers", "expected_calibration_error")
           if name in inspect.getsource(calibration_error)]
_used_h += functions_called(calibration_error)  # a course or scikit-learn function called by name
assert not _used_h, f"do not use calibration_curve or helpers.calibration in the answer: bin and count yourself ({_used_h})"
assert np.isclose(_ece([0, 1, 1], [0.25, 1.0, 0.5], 4), (0.25 + 0.5 + 0.0) / 3), \
    "lists, p = 1 in the last bin and 0.25, 0.5 on edges (in the bin below): gaps 0.25, 0.5 and 0, each 1/3"
from helpers.calibration import expected_calibration_error

rng = np.random.default_rng(15)
for n, n_bins in [(50, 1), (200, 3), (500, 7), (80, 15)]:
    y_h, p_h = rng.integers(0, 2, n), rng.random(n)
    y_h[:2] = [0, 1]
    assert np.isclose(_ece(y_h, p_h, n_bins), expected_calibration_error(y_h, p_h, n_bins)), \
        'random probabilities: the sum over bins of (bin share) * |mean label - mean probability|'
for n_bins in (4, 8):
    y_h, p_h = rng.integers(0, 2, 120), rng.integers(0, 9, 120) / 8  # many probabilities on the edges
    y_h[:2] = [0, 1]
    assert np.isclose(_ece(y_h, p_h, n_bins), expected_calibration_error(y_h, p_h, n_bins)), \
        'probabilities on the bin edges: an edge belongs to the bin below it (p = 0 to the first, p = 1 to the last)'
assert np.isclose(_ece([1, 1, 1], [0.2, 0.6, 1.0], 5), (0.8 + 0.4 + 0) / 3), \
    'one class alone: gaps 0.8, 0.4 and 0 in three bins, each weighted 1/3'  # one class alone
assert np.isclose(_ece([0, 0, 0], [0.0, 0.5, 0.9], 2), (2 * 0.25 + 0.9) / 3), \
    'every label 0 (one class alone is allowed): 0 and 0.5 in the first bin (gap 0.25, 2 of 3), 0.9 in the second'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 6 (2 points).** Write `mcnemar_p_value(y_true, y_pred_a, y_pred_b)`,
# the exact two-sided p-value of McNemar's test of section 13 for two
# classifiers' labels on the same samples. Count b, the samples only A gets
# right, and c, those only B gets right (the other samples do not count); the
# p-value is 2 P(X ≤ min(b, c)) for X ~ Binomial(b + c, 1/2), at most 1, and 1.0
# when there is no discordant sample. Labels may be any values, given as lists or
# arrays; return a float. You may use `math.comb` or `scipy.stats.binom`, but
# not `binomtest` or `helpers`.

# %% nbgrader={"grade": false, "grade_id": "ex6-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    ### BEGIN SOLUTION
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    right_a, right_b = y_pred_a == y_true, y_pred_b == y_true
    b, c = int(np.sum(right_a & ~right_b)), int(np.sum(~right_a & right_b))
    n = b + c
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return float(min(1.0, 2 * tail))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex6-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect
import math

import numpy as np
from helpers.exercises import functions_called

_source_6 = inspect.getsource(mcnemar_p_value)
_helpers_6 = functions_called(mcnemar_p_value, ("helpers",))  # mcnemar_test called by name
assert "binomtest" not in _source_6 and "helpers" not in _source_6 and not _helpers_6, \
    "compute the p-value yourself from b and c (math.comb or scipy.stats.binom), not with binomtest or helpers"


def _mcnemar(*labels):
    """Call the answer; a crash becomes a hint."""
    try:
        value = mcnemar_p_value(*labels)
    except ZeroDivisionError as error:
        raise AssertionError(f"no discordant sample (b + c = 0): return 1.0 instead of dividing ({error!r})") from None
    except ValueError as error:
        raise AssertionError(f"labels may be words: compare them as they are, without converting them to numbers "
                             f"({error!r})") from None
    assert isinstance(value, float), f"return a float; got {type(value).__name__}"
    return value


Y8 = np.array([1, 1, 1, 0, 0, 0, 1, 0])
A8 = np.array([1, 1, 0, 0, 0, 1, 1, 0])  # right on samples 0, 1, 3, 4, 6, 7
B8 = np.array([1, 0, 0, 1, 1, 0, 1, 0])  # right on samples 0, 5, 6, 7
p_8 = _mcnemar(Y8, A8, B8)
assert not math.isclose(p_8, 5 / 16), \
    "the test is two-sided: double the tail probability, 2 P(X <= min(b, c)), here 2 x 5/16"
assert math.isclose(p_8, 10 / 16), \
    (f"only A right on samples 1, 3, 4 (b = 3), only B right on sample 5 (c = 1); samples both get right or both "
     f"get wrong do not count: 2 P(X <= 1) for X ~ Binomial(4, 1/2) = 10/16 = 0.625; got {p_8}")
p_tie = _mcnemar([1, 1, 0, 0, 1], [1, 1, 1, 1, 0], [0, 0, 0, 0, 0])
assert math.isclose(p_tie, 1.0), \
    f"b = c = 2: 2 P(X <= 2) = 2 x 11/16 exceeds 1, and a p-value is at most 1: cap it; got {p_tie}"
p_none = _mcnemar([0, 1, 1], [0, 1, 0], [0, 1, 0])
assert p_none == 1.0, f"the two classifiers never disagree (b + c = 0): return 1.0; got {p_none}"
p_lists = _mcnemar(Y8.tolist(), A8.tolist(), B8.tolist())
assert math.isclose(p_lists, 10 / 16), \
    f"inputs may be lists: convert them with np.asarray before comparing them element by element; got {p_lists}"
p_words = _mcnemar(["yes", "no", "no"], ["yes", "yes", "no"], ["no", "yes", "yes"])
assert math.isclose(p_words, 0.5), \
    f"labels may be words (compare them, do not assume 0 and 1): b = 2, c = 0, so 2 x P(X <= 0) = 2 x 1/4; got {p_words}"
### BEGIN HIDDEN TESTS
_source_6h = inspect.getsource(mcnemar_p_value)
_helpers_6h = functions_called(mcnemar_p_value, ("helpers",))  # mcnemar_test called by name
assert "binomtest" not in _source_6h and "helpers" not in _source_6h and not _helpers_6h, \
    "compute the p-value yourself from b and c (math.comb or scipy.stats.binom), not with binomtest or helpers"
from scipy.stats import binomtest

rng = np.random.default_rng(6)
for n in (20, 200, 1000):
    y_h = rng.integers(0, 2, n)
    a_h = np.where(rng.random(n) < 0.8, y_h, 1 - y_h)
    b_h = np.where(rng.random(n) < 0.7, y_h, 1 - y_h)
    only_a, only_b = np.sum((a_h == y_h) & (b_h != y_h)), np.sum((a_h != y_h) & (b_h == y_h))
    expected_h = binomtest(int(only_a), int(only_a + only_b)).pvalue
    got_h = _mcnemar(y_h, a_h, b_h)
    assert math.isclose(got_h, expected_h, rel_tol=1e-9), (
        f"on {n} samples where only A is right {only_a} times and only B {only_b} times, the exact two-sided "
        f"p-value is {expected_h:.6g}; got {got_h!r}: count only the discordant samples (one right, the other "
        f"wrong), take twice the smaller binomial tail with p = 1/2, and cap the result at 1 (with NumPy counts, "
        f"2 ** n overflows past n = 62: use Python ints)")
got_h = _mcnemar(np.ones(12), np.ones(12), np.zeros(12))
assert math.isclose(got_h, 2 / 2**12), (
    f"A is right and B wrong on all 12 samples (b = 12, c = 0): the p-value is 2 * 0.5**12 = {2 / 2**12:.6g}; "
    f"got {got_h!r}: the two-sided p-value is twice the tail")
got_h = _mcnemar(["a"] * 4, ["a", "b", "a", "b"], ["b", "a", "b", "a"])
assert got_h == 1.0, (
    f"with string labels, A and B are each right alone twice (b = c = 2): the p-value is 1.0; got {got_h!r}: "
    f"compare each prediction with y_true, whatever the labels are")
got_h = _mcnemar(["cat", "dog", "cat", "bird"], ["cat", "dog", "dog", "bird"], ["cat", "dog", "dog", "bird"])
assert got_h == 1.0, (
    f"A and B agree on every sample (b + c = 0: no discordant sample): return 1.0; got {got_h!r}")
got_h = _mcnemar([2, 2, 5, 5, 5, 2], [2, 2, 5, 5, 5, 5], [5, 5, 2, 2, 2, 2])
assert math.isclose(got_h, 14 / 64), (
    f"labels 2 and 5 as lists: only A right on samples 0-4 (b = 5), only B right on sample 5 (c = 1): "
    f"2 P(X <= 1) for X ~ Binomial(6, 1/2) = 2 x 7/64 = 0.21875; got {got_h!r}: convert lists with np.asarray and "
    f"compare the labels as they are")
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - A classifier with scores is a family of classifiers, one per threshold. Sort by
#   score and sweep: each threshold gives TP, FP, TN, FN, and the points
#   (FPR, TPR) make the ROC curve; the notes' row 9 has TN = 1, FN = 0.
# - AUC is the area under that curve (trapezoids) and the share of correctly
#   ordered (positive, negative) pairs (ranks, ties one half): 0.76 on the ten
#   tuples. Gini = 2·AUC − 1 is twice the area between the curve and the
#   diagonal; AUC itself is 0.5 plus that area.
# - `roc_curve` starts at threshold `inf` and drops collinear points unless
#   `drop_intermediate=False`; score with the positive class's column
#   `predict_proba(X)[:, 1]`, or the AUC turns into 1 − AUC, and never with hard
#   labels (that gives the balanced accuracy). `RocCurveDisplay.from_estimator`
#   picks the column itself; `from_predictions` trusts the one you pass.
# - The PR curve and average precision look at the positive class only and react
#   to the class ratio; the ROC curve does not. Use both on imbalanced data.
# - Choose a threshold on training data (`TunedThresholdClassifierCV`, by cost or
#   F-beta) or fix it by a rule (`FixedThresholdClassifier`); a threshold chosen
#   on the test set gives an optimistic result. The "expected cost" reported here
#   is the observed cost per client on the test set; the decision-theoretic
#   expected cost of one call gives the rule p ≥ C_FP / (C_FP + C_FN).
# - A score is a probability only if the model is calibrated: among clients scored
#   about p, a share p is positive. The reliability diagram (with its counts) shows
#   it; two models with the same AUC can differ widely. Brier = reliability −
#   resolution + uncertainty + a within-bin term; the ECE depends on the binning.
#   Compare ECEs only on the same bins and with models that fill them alike (or
#   use quantile bins); the Brier score mixes calibration with ranking, and the
#   CORP decomposition measures miscalibration with no bins. Recalibrate with `CalibratedClassifierCV`
#   (Platt scaling or isotonic regression) inside cross-validation: Platt's
#   increasing map keeps the ranking, isotonic's non-decreasing steps can tie
#   scores and move the AUC a little; on a badly calibrated model both improve the
#   Brier score and the log loss (on a well calibrated one fitted on less data they
#   can make them worse). The cost formula needs correct probabilities near its
#   threshold; check them, or tune the threshold on data.
# - Multiclass AUC: one-vs-rest (c curves; macro, weighted, micro) or one-vs-one
#   (c(c − 1)/2 pairs; macro, weighted), c being the number of classes.
# - Two models on one test set are compared by a paired test, not by overlapping
#   intervals: DeLong's test or the paired bootstrap for AUCs, McNemar's exact test
#   for labels. The partial AUC (`max_fpr`) compares them where you operate.
#
# **Next:** `03_cross_validation` replaces the single train/test split by
# cross-validation, and attaches an uncertainty to scores such as these AUCs.
