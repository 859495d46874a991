# %% [markdown]
# # 01 · Metrics for evaluation
#
# Every term is defined in the course [glossary](glossary.md).
#
# A model is only as good as the number we use to judge it, and the wrong number
# can make a useless model look excellent. This first notebook of the course builds
# the vocabulary every later notebook relies on: what a confusion matrix counts,
# which ratio answers which question, how to weigh a missed case against a false
# alarm, and how scikit-learn names all of these. The next notebook,
# `02_roc_by_hand`, moves from one decision threshold to all of them at once.
#
# **You will learn**
# - to start every evaluation from a baseline (majority class, mean predictor);
# - to read a binary confusion matrix and compute accuracy, recall, precision,
#   specificity, NPV, FPR, FNR, balanced accuracy and G-mean by hand and with the library;
# - why accuracy misleads on imbalanced data, and how costs of false negatives and
#   false positives decide which metric matters;
# - F1 and F-beta, and how the ranking of two classifiers flips as beta moves;
# - confidence intervals for proportion metrics (Wilson, Clopper-Pearson), and
#   precision and NPV at another prevalence;
# - Cohen's kappa and the Matthews correlation coefficient, their paradoxes and
#   the weighted kappa for ordered classes;
# - per-class metrics and micro, macro and weighted averages for several classes;
# - likelihood ratios (LR+, LR−, DOR) and string labels with `pos_label`;
# - log loss and the Brier score for probabilities, for two and more classes;
# - regression metrics (MAE, MSE, RMSE, MAPE, R², RMSLE, RAE, RRSE), residual plots
#   and asymmetric costs;
# - scoring strings, the `neg_` convention and custom scorers in cross-validation.
#
# Clustering has metrics of its own (silhouette, adjusted Rand index, ...), which
# are outside this course: every model here learns from labelled data.
#
# **Prerequisites**: Python and NumPy, fitting a scikit-learn estimator
# (`fit`, `predict`, `predict_proba`), and what a train/test split is.
#
# **Time**: about 68 minutes of teaching (alone: reading and running), and 45 minutes
# for the exercises. Sections marked "(optional)" are deep-dives you can skip on a first
# pass.
#
# Throughout, a confusion matrix has the **actual** class in the rows and the
# **predicted** class in the columns, as in scikit-learn. Where the lecture notes
# that this course is built from contain a mistake, the notebook says so where it
# uses the example: students comparing with the slides should know which number
# to trust.

# %%
import math

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
from imblearn import metrics as imb_metrics  # imbalanced-learn's metrics (G-mean, specificity)
from sklearn import metrics  # scikit-learn's metrics
from sklearn.compose import make_column_transformer
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (KFold, StratifiedKFold, cross_val_score, cross_validate, permutation_test_score,
                                     train_test_split)
from sklearn.pipeline import make_pipeline
from scipy import stats
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from helpers import datasets, style
from helpers.figures import show
# the course's hand-computed metrics (helpers/metrics.py)
from helpers.metrics import (asymmetric_cost, binary_metrics, confusion_counts, describe_fbeta_state, fbeta_state,
                             kappa_by_hand, npv_scorer, per_class_metrics, predictive_values_at_prevalence,
                             proportion_interval, ranking_flip_beta, regression_metrics, specificity_scorer)
from helpers.style import NEGATIVE, NEUTRAL, POSITIVE
from helpers.validation import divide
from helpers.widgets import fbeta_explorer

style.use()
RANDOM_STATE = 0


def labels_from_counts(tp, fp, fn, tn):
    """Label arrays (1 = positive) that produce the given confusion counts."""
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


# %% [markdown]
# `labels_from_counts` turns a confusion matrix from the slides back into one label
# per sample, so that every count-based example can also be fed to scikit-learn,
# which works on labels.

# %% [markdown]
# ## 1. Start from a baseline
#
# Before judging a model, ask what a model that learned nothing would score. For
# classification that is *always predict the majority class*; for regression,
# *always predict the mean of the training targets*. scikit-learn calls these
# `DummyClassifier` and `DummyRegressor`. We use the two course datasets: bank
# clients who did or did not subscribe to a term deposit (the `duration` column is
# dropped: it is only known after the call, so it leaks the answer), and the
# hourly output of a power plant.

# %%
X_bank, y_bank = datasets.load_bank_marketing()
X_train, X_test, y_train, y_test = train_test_split(
    X_bank, y_bank, test_size=0.25, stratify=y_bank, random_state=RANDOM_STATE)

categorical = X_bank.select_dtypes(exclude="number").columns
numeric = X_bank.select_dtypes(include="number").columns
bank_model = make_pipeline(
    make_column_transformer((OneHotEncoder(handle_unknown="ignore"), categorical),
                            (StandardScaler(), numeric)),
    LogisticRegression(max_iter=1000))

majority = DummyClassifier(strategy="most_frequent").fit(X_train, y_train)
bank_model.fit(X_train, y_train)
print(f"share of subscribers in the test set : {y_test.mean():.3f}")
print(f"majority-class baseline, accuracy    : {majority.score(X_test, y_test):.3f}")
print(f"logistic regression, accuracy        : {bank_model.score(X_test, y_test):.3f}")

# %% [markdown]
# About one client in nine subscribed, so predicting "no" for everybody is right
# for the other eight: the baseline's accuracy is one minus the share of
# subscribers. The logistic regression beats it by less than one point.
# Is that a good model? Accuracy cannot tell: we need metrics that look at the
# subscribers separately. The regression baseline tells a different story.
# (Later notebooks build the same bank pipeline with
# `helpers.models.bank_logistic_regression()`.)

# %%
X_power, y_power = datasets.load_power_plant()
Xp_train, Xp_test, yp_train, yp_test = train_test_split(
    X_power, y_power, test_size=0.25, random_state=RANDOM_STATE)
mean_predictor = DummyRegressor(strategy="mean").fit(Xp_train, yp_train)
linear = LinearRegression().fit(Xp_train, yp_train)
for name, model in [("mean predictor", mean_predictor), ("linear regression", linear)]:
    rmse = metrics.root_mean_squared_error(yp_test, model.predict(Xp_test))
    print(f"{name:<18s} RMSE = {rmse:6.2f} MW   R² = {model.score(Xp_test, yp_test):9.6f}")

# %% [markdown]
# (RMSE is the typical size of an error, in MW; R² is 1 for perfect predictions and
# 0 for the mean predictor. Section 10 defines both.)
# The mean predictor misses the plant's output by about 17 MW (the spread of the
# target itself) and its R² is slightly *below* zero: on new data the training mean
# is not quite the test mean. The linear model cuts the error by a factor of almost
# four. A baseline turns a bare "RMSE = 4.53 MW" into "almost four times smaller
# than the error of knowing nothing".
#
# A baseline answers "what does knowing nothing score?"; a **chance level**
# answers "could a score this good arise by luck?". `permutation_test_score`
# shuffles the target (breaking any link between features and target), scores the
# model on the shuffled data by cross-validation, 100 times, and compares the real
# cross-validated score with that distribution. (Cross-validation, in three lines:
# cut the data into k parts, called folds; fit on k − 1 of them and score on the
# held-out one, k times; average the k scores. Notebook 03 treats it in depth.)

# %%
kfold = KFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
real_r2, permuted_r2, p_value = permutation_test_score(LinearRegression(), X_power, y_power, cv=kfold,
                                                       scoring="r2", n_permutations=100,
                                                       random_state=RANDOM_STATE)
print(f"cross-validated R² of the linear model      : {real_r2:.4f}")
print(f"R² with a shuffled target, 100 permutations : mean {permuted_r2.mean():.4f}, "
      f"largest {permuted_r2.max():.4f}")
print(f"p-value (share of permutations at least as good, counting the real one): {p_value:.4f}")

# %% [markdown]
# With the target shuffled, the linear model scores an R² just below 0, the level
# of the mean predictor, and never comes near the real 0.9286. The p-value,
# 1/101 = 0.0099, is the smallest 100 permutations can give: no shuffle beat the
# real model. The permuted scores are themselves cross-validated, so whatever a
# flexible model fits to shuffled noise does not carry over to the held-out folds:
# their distribution stays centred on the baseline. What changes with few samples
# or many features is its *width*: the luckiest shuffles score well above the
# baseline, so a real score must clear a higher bar before it means anything. The
# test's null hypothesis is "the target does not depend on the features at all"
# (Ojala & Garriga, 2010), not "the model is no better than the baseline".

# %% [markdown]
# ## 2. The binary confusion matrix
#
# With two classes, one is the class of interest, the **positive** class (the
# buyer, the patient with cancer, the subscriber). Every prediction falls in one of
# four cells:
#
# | actual / predicted | predicted positive | predicted negative |
# |---|---|---|
# | **actual positive** | TP (true positive) | FN (false negative, a miss) |
# | **actual negative** | FP (false positive, a false alarm) | TN (true negative) |
#
# The lecture notes' first example predicts whether a customer buys a computer.

# %%
buy = datasets.BUY_COMPUTER
print(buy)
print(f"actual buyers {buy.tp + buy.fn}, actual non-buyers {buy.fp + buy.tn}, "
      f"predicted buyers {buy.tp + buy.fp}, total {sum(buy)}")

# %% [markdown]
# Of 7,000 real buyers the classifier misses 46 (lost customers); of 3,000
# non-buyers it wrongly targets 412 (wasted sales calls). scikit-learn builds the
# same matrix from labels. Mind its order: `confusion_matrix` sorts the labels, so
# with 0/1 labels the **negative class comes first** and `.ravel()` returns
# `(tn, fp, fn, tp)`, not the `(tp, fp, fn, tn)` of our helper.

# %%
y_true_buy, y_pred_buy = labels_from_counts(*buy)
cm_buy = metrics.confusion_matrix(y_true_buy, y_pred_buy)
print(cm_buy)
print("sklearn ravel (tn, fp, fn, tp):", cm_buy.ravel().tolist())
print("helpers (tp, fp, fn, tn)      :", list(confusion_counts(y_true_buy, y_pred_buy)))

# %% [markdown]
# Same four numbers, two orders (ours reads the slide's matrix column by column:
# TP and FP in the "predicted positive" column, then FN and TN). Passing `labels=[1, 0]` to `confusion_matrix`
# puts the positive class first, as on the slides. For a picture, use
# scikit-learn's `ConfusionMatrixDisplay`.

# %%
fig, ax = plt.subplots(figsize=(4, 3.5))
_ = metrics.ConfusionMatrixDisplay.from_predictions(
    y_true_buy, y_pred_buy, labels=[1, 0], display_labels=["buys", "does not buy"],
    values_format="d", colorbar=False, ax=ax)
_ = ax.set(title="buy_computer", xlabel="predicted", ylabel="actual")
ax.grid(False)
cm_buy = metrics.confusion_matrix(y_true_buy, y_pred_buy, labels=[1, 0])
show(fig, f"Confusion matrix of buy_computer, actual class in rows and predicted in columns, 'buys' first: "
          f"TP {cm_buy[0, 0]:,}, FN {cm_buy[0, 1]:,}, FP {cm_buy[1, 0]:,}, TN {cm_buy[1, 1]:,}; the diagonal "
          f"holds {cm_buy[0, 0] + cm_buy[1, 1]:,} correct predictions")

# %% [markdown]
# The diagonal holds the correct predictions (6,954 + 2,588); of the errors, the
# 412 false alarms outnumber the 46 misses by almost nine to one.

# %% [markdown]
# ## 3. Accuracy and the imbalance trap
#
# Accuracy is the share of correct predictions, (TP + TN) / all. It treats every
# sample alike, which is exactly its weakness when one class is rare. The notes'
# cancer example has 300 patients with cancer among 10,000.

# %%
cancer = datasets.CANCER
cancer_metrics = binary_metrics(*cancer)
print(f"accuracy = ({cancer.tp} + {cancer.tn}) / {sum(cancer)} = {cancer_metrics['accuracy']:.3f}")
print(f"the notes print {datasets.NOTES_CANCER_ACCURACY:.1%}")
nobody = datasets.Counts(tp=0, fp=0, fn=cancer.tp + cancer.fn, tn=cancer.fp + cancer.tn)
never_cancer = binary_metrics(*nobody)
print(f"accuracy of 'nobody has cancer' = {never_cancer['accuracy']:.3f}, its recall = {never_cancer['recall']:.3f}")
y_true_never, y_pred_never = labels_from_counts(*nobody)
print(f"its precision 0/0: by hand {never_cancer['precision']}, scikit-learn with zero_division=np.nan "
      f"{metrics.precision_score(y_true_never, y_pred_never, zero_division=np.nan)}")

# %% [markdown]
# **Erratum.** The slide gives the accuracy as 96.4 %; the correct value is
# 9,650 / 10,000 = 96.5 %, as printed above.
#
# The classifier looks excellent at 96.5 %, yet a rule that declares *nobody* ill
# scores 97.0 % while finding none of the 300 patients. On imbalanced data accuracy
# mostly measures the majority class. The remedy is to look at each class
# separately, as the picture does:

# %%
trap = pd.DataFrame({"the classifier": cancer_metrics, "'nobody has cancer'": never_cancer}).loc[
    ["accuracy", "recall", "specificity"]]
fig, ax = plt.subplots(figsize=(6.5, 3.4))
trap.T.plot.barh(ax=ax, color=[NEUTRAL, POSITIVE, NEGATIVE], width=0.75)
for container in ax.containers:
    ax.bar_label(container, fmt="%.3f", padding=3)
ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
_ = ax.set(xlim=(0, 1.2), xlabel="score", title="Two cancer screenings: accuracy hides the patients")
show(fig, "Horizontal bar chart of accuracy, recall and specificity for two cancer screenings, each bar labelled "
          "with its value: " + "; ".join(f"{who}: " + ", ".join(f"{metric} {trap.loc[metric, who]:.3f}"
                                                               for metric in trap.index) for who in trap.columns))

# %% [markdown]
# Both bars of accuracy are near the top; the recall bars (the patients found)
# tell the two rules apart: 0.300 against 0.000. Specificity, the healthy
# majority's recall, is near 1 for both.
#
# The notes make the same point with three classifiers of equal accuracy on data
# with 90 % negatives. Here are three such classifiers on 100 samples, 10 of them
# positive:

# %%
same_accuracy = pd.DataFrame({name: binary_metrics(*counts) for name, counts in datasets.SAME_ACCURACY.items()}).T
print(same_accuracy[["accuracy", "recall", "precision", "f1", "balanced_accuracy"]].to_string(
    float_format="{:.3f}".format))

# %% [markdown]
# All three score 0.900 accuracy, and their reports could hardly differ more: the
# first finds no positive (its precision is 0/0, undefined), the second finds half
# of them with half of its alarms right, the third finds every positive at the
# price of ten false alarms (recall 1.000, precision 0.500). Which one is best
# depends on the costs of the two errors (section 5), not on accuracy.
#
# **Erratum.** One set of notes says the precision of a classifier that predicts
# nothing positive is 100 %. It is 0/0, undefined: our helpers return NaN, and
# scikit-learn warns and returns 0 unless its `zero_division` argument (0, 1 or
# `np.nan`) says otherwise.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.
# After a wrong answer, try another, or open "Show the answer".

# %% tags=["nbval-ignore-output"]
from helpers.widgets import concept_check  # ungraded concept checks with instant feedback

concept_check("01.imbalance")


# %% [markdown]
# ## 4. The metric zoo, by hand and with the library
#
# Each ratio divides one cell by a row total (what *is* true) or a column total
# (what was *predicted*):
#
# | metric | formula | question it answers |
# |---|---|---|
# | recall, sensitivity, TPR | TP / (TP + FN) | of the actual positives, how many did we find? |
# | specificity, TNR | TN / (TN + FP) | of the actual negatives, how many did we clear? |
# | precision, PPV | TP / (TP + FP) | when we say positive, how often are we right? |
# | NPV | TN / (TN + FN) | when we say negative, how often are we right? |
# | FPR = 1 − specificity | FP / (FP + TN) | false-alarm rate among negatives |
# | FNR = 1 − recall | FN / (FN + TP) | miss rate among positives |
# | balanced accuracy | (recall + specificity) / 2 | accuracy if both classes were equally large |
# | G-mean | √(recall × specificity) | high only if *both* classes are recognised |
#
# **Erratum.** One slide writes "Specificity (NPV)" as if they were one metric.
# They are not: specificity divides by the actual negatives (a row), NPV by the
# predicted negatives (a column).

# %%
tp, fp, fn, tn = cancer
recall, specificity = tp / (tp + fn), tn / (tn + fp)
print(f"by the formulas: recall {recall:.4f}, specificity {specificity:.4f}, precision {tp / (tp + fp):.4f}, "
      f"NPV {tn / (tn + fn):.4f}, G-mean {math.sqrt(recall * specificity):.4f}")
zoo = ["recall", "specificity", "precision", "npv", "fpr", "fnr", "fdr", "balanced_accuracy", "g_mean"]
print(pd.Series({name: cancer_metrics[name] for name in zoo}).round(4).to_string())

# %% [markdown]
# The cancer classifier finds only 30 % of the patients (recall), and when it
# raises an alarm it is right 39 % of the time (precision), while specificity and
# NPV are around 98-99 %: all its good news concerns the healthy majority. Balanced
# accuracy (0.6428) and G-mean (0.5438) expose the weak positive class that
# accuracy hid. The false discovery rate FDR = FP / (TP + FP) = 1 − precision is
# the share of alarms that are false (one of the notes prints it as FP/FP, which is
# always 1).
#
# The same numbers from the libraries, computed on the labels. scikit-learn has
# no specificity or NPV function, but they are the recall and the precision of the
# *negative* class (`pos_label=0`); only the G-mean needs imbalanced-learn.
# The labels here are words, `"cancer"` and `"healthy"`, as in most real data:
# then every function must be told which one is positive with `pos_label` (with
# 0/1 labels it defaults to 1), including our `confusion_counts`.

# %%
y_true_c, y_pred_c = labels_from_counts(*cancer)  # 1 / 0, used again in sections 7 and 8
words = np.array(["healthy", "cancer"])
y_true_w, y_pred_w = words[y_true_c], words[y_pred_c]  # the same labels as words
print("confusion_counts with pos_label='cancer':", confusion_counts(y_true_w, y_pred_w, pos_label="cancer"))
library = {
    "recall": metrics.recall_score(y_true_w, y_pred_w, pos_label="cancer"),
    "specificity": metrics.recall_score(y_true_w, y_pred_w, pos_label="healthy"),
    "precision": metrics.precision_score(y_true_w, y_pred_w, pos_label="cancer"),
    "npv": metrics.precision_score(y_true_w, y_pred_w, pos_label="healthy"),
    "balanced_accuracy": metrics.balanced_accuracy_score(y_true_w, y_pred_w),
    "g_mean": imb_metrics.geometric_mean_score(y_true_w, y_pred_w, pos_label="cancer", average="binary"),
}
comparison = pd.DataFrame({"by hand": {k: cancer_metrics[k] for k in library}, "library": library})
comparison["equal"] = np.isclose(comparison["by hand"], comparison["library"], rtol=0, atol=1e-12)
print(comparison.round(4).to_string())
rates = metrics.confusion_matrix(y_true_w, y_pred_w, labels=["cancer", "healthy"], normalize="true")
print("rows normalised, [[recall, FNR], [FPR, specificity]]:", rates.round(4).tolist())
try:
    metrics.recall_score(y_true_w, y_pred_w)  # no pos_label: scikit-learn cannot guess
except ValueError as error:
    print("without pos_label:", str(error).split(".")[0])

# %% [markdown]
# Every hand-computed value agrees with the library, and normalising the rows of
# the confusion matrix gives recall, FNR, FPR and specificity in one call
# (`normalize="pred"` would give the column ratios: precision and NPV on the
# diagonal). With word labels, forgetting `pos_label` is an error, not a silent
# guess: a good reason to pass it every time.
#
# **Likelihood ratios.** Medicine summarises a test by how much a result changes
# the odds of disease: LR+ = TPR / FPR (how much a positive result raises the
# odds), LR− = FNR / TNR (how much a negative result lowers them), and the
# diagnostic odds ratio DOR = LR+ / LR− (the notes write LR− as "IR−").
# scikit-learn's `class_likelihood_ratios` returns the first two:

# %%
lr_plus, lr_minus = metrics.class_likelihood_ratios(y_true_w, y_pred_w, labels=["healthy", "cancer"])
print(f"LR+ by hand {cancer_metrics['lr_plus']:.2f}, scikit-learn {lr_plus:.2f}")
print(f"LR- by hand {cancer_metrics['lr_minus']:.3f}, scikit-learn {lr_minus:.3f}")
print(f"DOR = LR+ / LR- = {cancer_metrics['dor']:.2f}")

# %% [markdown]
# A positive result multiplies the odds of cancer by about 21 (LR+ = 20.79), a
# large effect, but a negative result only multiplies them by 0.710: with 70 % of
# the patients missed, a negative test barely reassures. The DOR (29.27) folds
# both into one number and, like accuracy, hides which of the two is weak.
# (`class_likelihood_ratios` takes the positive class as the second of `labels`.)
#
# **The same test at another prevalence.** Recall and specificity are rates
# *within* a class (a row of the matrix), so they do not change with how common
# the patients are, *provided the ill and the healthy themselves look the same*
# in the new setting; precision and NPV mix the two rows and change with the
# prevalence even then. The proviso often fails: a referral clinic sees more
# advanced disease, which is easier to detect, so its recall is higher (the
# **spectrum effect**; Leeflang et al., CMAJ 2013). The table below assumes it
# holds.
# Bayes' rule in odds form says how: post-test odds = pre-test odds × LR, with
# LR+ after a positive result and LR− after a negative one. The same classifier
# (recall 0.3000 and specificity 0.9856, as above) in a screening population where 1 in 1,000 is
# ill, in the notes' clinic (3 %), and in a referral clinic:

# %%
r_cancer, s_cancer, lr_cancer = cancer_metrics["recall"], cancer_metrics["specificity"], cancer_metrics["lr_plus"]
for prevalence in (0.001, cancer_metrics["prevalence"], 0.10, 0.30):
    at = predictive_values_at_prevalence(r_cancer, s_cancer, prevalence)
    pre_odds = prevalence / (1 - prevalence)
    post_odds = pre_odds * lr_cancer
    print(f"prevalence {prevalence:5.3f}: pre-test odds {pre_odds:.4f} x LR+ {lr_cancer:.2f} = post-test odds "
          f"{post_odds:.4f}, i.e. precision {post_odds / (1 + post_odds):.3f} (formula {at['precision']:.3f}); "
          f"NPV {at['npv']:.4f}")
print(f"at the test set's own prevalence the formula gives back the counts' precision {cancer_metrics['precision']:.3f}")

# %% [markdown]
# The classifier does not change, yet when one person in a thousand is ill only
# about 2 % of its alarms are right (precision 0.020), against 0.391 in the notes'
# clinic and 0.899 where three patients in ten are ill; the NPV moves the other way. A precision, F1 or accuracy
# measured on one test set holds only at that test set's prevalence; recall,
# specificity and the likelihood ratios travel, as long as the cases in the new
# setting look like those of the test set. Notebook 02 meets the same fact
# as "the ROC curve does not move with the prevalence, the precision-recall curve
# does".
#
# **How sure is a recall? Confidence intervals for a proportion.** Recall,
# specificity, precision, NPV and accuracy are proportions of *counts*: recall is
# TP successes out of TP + FN trials. A test set is one sample of clients, so the
# recall it shows is an estimate, and with few positives a rough one. A **95 %
# confidence interval** is a range computed from the test set by a rule chosen
# so that, over many test sets drawn from the same population, 95 % of the
# intervals built this way contain the true value. What varies is the test set
# (and so the interval); the fitted model and its true recall are fixed. The
# share of intervals that do contain the truth is the rule's **coverage**; a
# good rule's coverage is close to the 95 % it claims. Two conditions: the
# interval covers the sampling of the test set for this one fitted model, not
# the training; and precision's interval takes its denominator, the number of
# predicted positives, as given, although it is random too. Balanced accuracy,
# G-mean, F1, MCC and kappa are not proportions of a count: for them, bootstrap
# the test rows (resample them with replacement, recompute, take the middle 95 %,
# as 02 §13 does for the AUC). The textbook interval
# p ± z√(p(1 − p)/n) (Wald's) is too narrow for small n or p near 0 or 1, and
# collapses to [0, 0] when no positive is found. Two intervals do better:
#
# - **Wilson's** (1927) *score* interval keeps every proportion the normal test would not
#   reject: (p + z²/2n ± z√(p(1 − p)/n + z²/4n²)) / (1 + z²/n), with z = 1.96 for
#   95 %. Its coverage is close to 95 % on average; it is the usual default
#   (Brown, Cai & DasGupta, 2001).
# - **Clopper-Pearson's** (1934) "exact" interval inverts the binomial test itself:
#   its ends are quantiles of Beta distributions. It covers *at least* 95 % for
#   every true proportion, so it is wider (conservative).
#
# The bank model of section 1, at its default threshold, on its 1131 test clients,
# by hand for the recall and then for the four ratios with
# `helpers.metrics.proportion_interval`, checked against scipy's
# `binomtest(k, n).proportion_ci`:

# %%
bank_counts = datasets.Counts(*confusion_counts(y_test, bank_model.predict(X_test)))
print(f"{len(y_test)} test clients, {bank_counts.tp + bank_counts.fn} of them subscribers")
k_found, n_subscribers = bank_counts.tp, bank_counts.tp + bank_counts.fn
p_hat, z = k_found / n_subscribers, stats.norm.ppf(0.975)
centre = (p_hat + z**2 / (2 * n_subscribers)) / (1 + z**2 / n_subscribers)
half = z * math.sqrt(p_hat * (1 - p_hat) / n_subscribers + z**2 / (4 * n_subscribers**2)) / (1 + z**2 / n_subscribers)
wald = z * math.sqrt(p_hat * (1 - p_hat) / n_subscribers)
print(f"recall {k_found}/{n_subscribers} = {p_hat:.3f}: Wilson by hand [{centre - half:.3f}, {centre + half:.3f}], "
      f"Wald [{p_hat - wald:.3f}, {p_hat + wald:.3f}]")
proportions = {"recall": (bank_counts.tp, bank_counts.tp + bank_counts.fn),
               "precision": (bank_counts.tp, bank_counts.tp + bank_counts.fp),
               "specificity": (bank_counts.tn, bank_counts.tn + bank_counts.fp),
               "npv": (bank_counts.tn, bank_counts.tn + bank_counts.fn)}
interval_rows = {}
for name, (k, n) in proportions.items():
    wilson, exact = proportion_interval(k, n), proportion_interval(k, n, method="clopper-pearson")
    scipy_ci = {method: stats.binomtest(k, n).proportion_ci(method=method) for method in ("wilson", "exact")}
    interval_rows[name] = {"k": k, "n": n, "estimate": wilson.estimate, "Wilson": f"[{wilson.low:.3f}, {wilson.high:.3f}]",
                           "Clopper-Pearson": f"[{exact.low:.3f}, {exact.high:.3f}]",
                           "= scipy": np.allclose([wilson.low, wilson.high, exact.low, exact.high],
                                                  [scipy_ci["wilson"].low, scipy_ci["wilson"].high,
                                                   scipy_ci["exact"].low, scipy_ci["exact"].high])}
print(pd.DataFrame(interval_rows).T.to_string(formatters={"estimate": "{:.3f}".format}))

# %% [markdown]
# The hand formula and the helper agree, and both agree with scipy. The recall
# of 0.154 is compatible with anything from about one subscriber in ten to more
# than one in five: the 130 subscribers of one test set cannot pin it down
# better. Precision rests on even fewer predictions (32), so its interval is the
# widest; specificity and NPV rest on a thousand clients and are tight.
# Clopper-Pearson's intervals are a little wider than Wilson's, as promised.
# Report a proportion metric with its interval and its counts ("recall 20/130 =
# 0.154, 95 % Wilson interval [0.102, 0.226]"), and do not read much into
# differences smaller than the interval. Comparing two classifiers on the *same*
# test set needs a paired test instead (McNemar's, notebook 02 §13).

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("01.interval")


# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("01.which-metric")


# %% [markdown]
# ## 5. What does a mistake cost?
#
# A false negative and a false positive are rarely equally bad:
#
# - **medicine**: a missed cancer (FN) delays treatment; a false alarm (FP) costs
#   an unnecessary, stressful follow-up. Favour recall.
# - **loans**: approving a client who defaults (FP, if "repays" is positive) loses
#   money; rejecting a good client (FN) loses business. The bank sets the balance.
# - **mail-out**: a brochure to a household that does not respond (FP) costs
#   postage; not mailing a household that would have bought (FN) loses a sale,
#   usually the larger loss. Favour recall.
#
# The notes compare two cancer classifiers on the same 10,000 patients: **A** is
# lenient (high recall), **B** strict (high precision).

# %%
two = {"A (high recall)": datasets.HIGH_RECALL, "B (high precision)": datasets.HIGH_PRECISION}
two_table = pd.DataFrame({name: binary_metrics(*counts) for name, counts in two.items()}).T
print(two_table[["accuracy", "recall", "precision", "specificity"]].round(4).to_string())

# %% [markdown]
# B looks better on accuracy, precision and specificity, A on recall. Which one to
# deploy depends on what each kind of mistake costs. With a false alarm costing 1
# and a miss costing c, the total cost is FP + c · FN:

# %%
def total_cost(counts, cost_fp, cost_fn):
    """Total cost of a classifier's mistakes."""
    return cost_fp * counts.fp + cost_fn * counts.fn


for cost_fn in [1, 2, 10]:
    costs = {name: total_cost(counts, cost_fp=1, cost_fn=cost_fn) for name, counts in two.items()}
    cheaper = min(costs, key=costs.get)
    print(f"FN cost = {cost_fn:>2d} x FP cost: cost A = {costs['A (high recall)']:>4d}, "
          f"cost B = {costs['B (high precision)']:>4d} -> {cheaper} is cheaper")
a, b = two.values()
print(f"break-even: c = (FP_A - FP_B) / (FN_B - FN_A) = {a.fp - b.fp} / {b.fn - a.fn} = {(a.fp - b.fp) / (b.fn - a.fn):.3f}")

# %% [markdown]
# B has the higher accuracy (0.9745 against 0.9560) because it raises few alarms,
# but it misses 250 of the 300 patients. When a miss and a false alarm cost the
# same, B is cheaper; as soon as a miss costs more than about 1.8 false alarms, A
# is. In medicine a miss costs far more, so A is the better choice, although
# accuracy ranks it second. Choosing a metric is choosing these costs.

# %% [markdown]
# ## 6. F1 and F-beta
#
# F1 combines precision P and recall R by their **harmonic** mean,
# F1 = 2PR / (P + R). The harmonic mean stays close to the *smaller* of the two, so
# a classifier cannot hide a poor recall behind a high precision. F-beta treats
# recall as β times as important as precision (in the weighted harmonic mean recall
# gets weight β² and precision 1, hence the β² next to FN below):
#
# $$F_\beta = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R} = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}.$$
#
# β > 1 favours recall, β < 1 favours precision. (One of the notes writes
# "α < 1" where it means β < 1.) The count form on the right is what scikit-learn
# computes; it gives 0 rather than 0/0 when there are no true positives.

# %%
rows = {}
for name, counts in two.items():
    y_t, y_p = labels_from_counts(*counts)
    rows[name] = {f"F{beta:g} by hand": binary_metrics(*counts, beta=beta)["fbeta"] for beta in (0.5, 1, 2)}
    rows[name].update({f"F{beta:g} sklearn": metrics.fbeta_score(y_t, y_p, beta=beta) for beta in (0.5, 1, 2)})
print(pd.DataFrame(rows).T.round(4).to_string())

# %% [markdown]
# The values match the notes' spreadsheet (F1 = 0.56 and 0.2817, F2 = 0.7368 and
# 0.1992, F0.5 = 0.4516 and 0.4808) and scikit-learn. A wins at β = 1 and β = 2, but
# B wins at β = 0.5: somewhere between 0.5 and 1 the ranking flips. Setting the two
# count forms equal and solving for β gives
# β² = (TP_B·FP_A − TP_A·FP_B) / (TP_A·FN_B − TP_B·FN_A):

# %%
flip = ranking_flip_beta(datasets.HIGH_RECALL, datasets.HIGH_PRECISION)
numerator, denominator = b.tp * a.fp - a.tp * b.fp, a.tp * b.fn - b.tp * a.fn
print(f"beta² = {numerator} / {denominator} = {numerator / denominator:.4f}")
print(f"A and B have equal F-beta at beta = {flip:.4f}")
print(describe_fbeta_state(fbeta_state(flip)))

# %% [markdown]
# Below β ≈ 0.533 precision counts so much that the strict classifier B wins; above
# it, recall dominates and the lenient A wins. Drag the slider to watch the
# iso-F-beta curves (all the precision-recall pairs with the same F-beta) rotate
# around the two classifiers. The dashed curve through each classifier is its own
# iso-F-beta curve: the classifier on the outer (higher) dashed curve ranks first,
# and the two dashed curves coincide at the flip. The text under the plot names
# the leader.
#
# **By keyboard:** Tab reaches a slider; the arrow keys (and Page Up, Page Down,
# Home, End) move it, and a short line above the figure says what changed while
# the panel keeps every number. To leave a slider or a number box, press Escape:
# it returns to the notebook (command mode, where the arrow keys move between
# cells; the course's explorers add this, plain ipywidgets keep the key). Tab or
# Shift+Tab moves to the next or previous control.

# %% tags=["nbval-ignore-output"]
fbeta_explorer()

# %% [markdown]
# The slider draws through `fbeta_state`, a plain function; calling it for a few
# values of β prints the numbers the slider shows (and lets the tests check them):

# %%
for beta in [0.25, 0.5, 1.0, 2.0, 5.0]:
    print(describe_fbeta_state(fbeta_state(beta)))

# %% [markdown]
# As β grows, each classifier's F-beta moves towards its recall (0.9333 for A and
# 0.1667 for B in the table of section 5); as β shrinks, towards its precision
# (0.4000 and 0.9091). F-beta is a dial between the two.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("01.fbeta")


# %% [markdown]
# ## 7. Agreement beyond chance: Cohen's kappa and MCC
#
# Cohen's kappa compares the observed agreement between the actual and the
# predicted classes, $p_o$ (the diagonal share), with the agreement expected by
# chance if the two were independent, $p_e = \sum_i p_i$ where $p_i$ is the share
# of class $i$ in the rows times its share in the columns:
# $\kappa = (p_o - p_e) / (1 - p_e)$. The notes' three-class example:

# %%
kappa_cm = np.array(datasets.KAPPA_MATRIX)
print(kappa_cm)
kappa = kappa_by_hand(kappa_cm)
erratum = pd.DataFrame({"notes": list(datasets.NOTES_KAPPA_P_I) + [datasets.NOTES_KAPPA_P_E],
                        "correct": list(kappa["p_i"]) + [kappa["p_e"]]},
                       index=["p_0", "p_1", "p_2", "p_e"])
print(erratum.round(4).to_string())
print(f"p_o = {kappa['p_o']:.4f}, p_e = {kappa['p_e']:.4f}, kappa = {kappa['kappa']:.4f}")
actual = np.repeat(np.arange(3), kappa_cm.sum(axis=1))
predicted = np.concatenate([np.repeat(np.arange(3), row) for row in kappa_cm])
print(f"sklearn cohen_kappa_score = {metrics.cohen_kappa_score(actual, predicted):.4f}")
print(f"sum of the notes' p_i = {sum(datasets.NOTES_KAPPA_P_I):.4f}")

# %% [markdown]
# **Erratum.** The notes get $p_o = 0.8619$ right and write the right products
# (row total × column total / 210²), but evaluate all three wrongly: class 0 has 100
# actual and 91 predicted samples, so $p_0 = 100 \cdot 91 / 210^2 = 0.2063$, not
# 0.2021. Their $p_e = 0.4352$ is not even the sum of their own $p_i$; the correct
# $p_e$ is 0.4456. Their final κ ≈ 0.75 is right only by coincidence; the exact value is 0.7509,
# which scikit-learn's `cohen_kappa_score` confirms (it handles several classes; the
# notes' claim that kappa needs another package is outdated).
#
# How good is a kappa of 0.75? Only by convention: Landis & Koch (1977) call
# 0.61-0.80 "substantial" and above 0.80 "almost perfect" agreement, Fleiss
# (1981) calls above 0.75 "excellent" and below 0.40 "poor". These scales are
# conventions without a derivation; report kappa with its matrix, not only its
# label. The **Matthews correlation coefficient** is the correlation between actual
# and predicted labels, using all four cells:
# MCC = (TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)).

# %%
print(f"cancer: MCC by hand = {cancer_metrics['mcc']:.4f}, sklearn = {metrics.matthews_corrcoef(y_true_c, y_pred_c):.4f}")
print(f"cancer: kappa by hand = {cancer_metrics['kappa']:.4f}, sklearn = {metrics.cohen_kappa_score(y_true_c, y_pred_c):.4f}")

# %% [markdown]
# Both agree with the library, and both put the 96.5 %-accurate cancer classifier
# where it belongs: around 0.32 on a scale where 0 is chance, 1 is perfect and
# negative values are worse than chance (MCC ranges from −1 to 1).
#
# **Kappa's paradoxes, and where kappa and MCC part (optional).** Kappa corrects
# for the agreement expected by chance, and that chance agreement depends on the
# class shares. Two classifiers with the same 90 % agreement can therefore get
# very different kappas (the *prevalence paradox*; Feinstein & Cicchetti, 1990),
# and kappa and MCC, equal when the two marginals are symmetric, part when the
# classifier predicts the positive class much more or less often than it
# occurs (Chicco, Warrens & Jurman, 2021, recommend MCC for that reason):

# %%
paradox = {"balanced classes": datasets.Counts(tp=45, fp=5, fn=5, tn=45),
           "rare negatives": datasets.Counts(tp=85, fp=5, fn=5, tn=5),
           "predicts positive rarely": datasets.Counts(tp=10, fp=0, fn=40, tn=50)}
paradox_table = pd.DataFrame({name: binary_metrics(*counts) for name, counts in paradox.items()}).T
print(paradox_table[["accuracy", "prevalence", "kappa", "mcc"]].to_string(float_format="{:.3f}".format))
ordinal_true, ordinal_pred = actual, predicted  # the three-class example, read as ordered grades 0 < 1 < 2
print(f"three classes: MCC {metrics.matthews_corrcoef(ordinal_true, ordinal_pred):.4f}, kappa "
      f"{metrics.cohen_kappa_score(ordinal_true, ordinal_pred):.4f}, quadratic weighted kappa "
      f"{metrics.cohen_kappa_score(ordinal_true, ordinal_pred, weights='quadratic'):.4f}")

# %% [markdown]
# The first two rows agree on 90 % of the samples, but when 90 % of them are
# positive, chance alone would agree on most of them and kappa falls from 0.800
# to 0.444. In the third row the classifier predicts positive for 10 samples out
# of 50 positives: kappa (0.200) punishes the lopsided marginals more than MCC
# (0.333). `matthews_corrcoef` and `cohen_kappa_score` both take several classes
# (the multiclass MCC of Gorodkin, 2004). For **ordered** classes (grades,
# severity levels) an error of two steps is worse than one: the **quadratic
# weighted kappa** (`weights="quadratic"`) charges each disagreement by the square
# of its distance. On the notes' matrix it is a little lower than the plain kappa
# (0.7083 against 0.7509): the five samples of class 0 predicted as class 2 are two
# steps off and weigh four times as much as a one-step error.

# %% [markdown]
# **Concept check** (ungraded): pick an answer; the feedback explains why each option is right or wrong.

# %% tags=["nbval-ignore-output"]
concept_check("01.kappa")


# %% [markdown]
# ## 8. More than two classes
#
# With $m$ classes, each class in turn plays the positive class against all the
# others (one-vs-rest), giving its own TP, FP, FN, TN and its own recall,
# precision, specificity and so on. The notes' 8-sample example:

# %%
y8_true, y8_pred = np.array(datasets.EIGHT_TRUE), np.array(datasets.EIGHT_PRED)
cm8 = metrics.confusion_matrix(y8_true, y8_pred)
fig, ax = plt.subplots(figsize=(3.8, 3.4))
_ = metrics.ConfusionMatrixDisplay(cm8, display_labels=["class 0", "class 1", "class 2"]).plot(
    ax=ax, colorbar=False, values_format="d")
_ = ax.set(title="the 8-sample example", xlabel="predicted", ylabel="actual")
ax.grid(False)
show(fig, f"Confusion matrix of the 8-sample example with three classes, actual in rows and predicted in columns: "
          + "; ".join(f"actual class {i}: " + ", ".join(str(v) for v in row) for i, row in enumerate(cm8))
          + f"; {np.trace(cm8)} of {cm8.sum()} on the diagonal")
tp8 = np.diag(cm8)                 # each class's hits
fp8 = cm8.sum(axis=0) - tp8        # predicted as the class, but another class
fn8 = cm8.sum(axis=1) - tp8        # the class, predicted as another
tn8 = cm8.sum() - tp8 - fp8 - fn8  # everything else
print("one-vs-rest TP, FP, FN, TN per class:", tp8.tolist(), fp8.tolist(), fn8.tolist(), tn8.tolist())
eight = per_class_metrics(y8_true, y8_pred)
print(eight.round(4).to_string())

# %% [markdown]
# Class 0 is always recognised (recall 1) but also attracts a sample of class 1
# (precision 0.6667); classes 1 and 2 are each recognised once in three. The three
# averages answer different questions:
#
# - **macro**: the plain mean over classes; every class counts the same, however rare;
# - **weighted**: the mean weighted by each class's support (its number of actual
#   samples), divided by the number of samples;
# - **micro**: pool the TP, FP, FN of all classes, then compute the metric once;
#   every *sample* counts the same. The micro specificity and NPV (0.75 here) pool
#   the true negatives of every class the same way.
#
# **Errata.** The slides' 8-sample numbers, next to the correct ones. The
# weighted lines divide by the number of samples (8), not by the number of
# classes, and each metric weights its *own* per-class values (the notes'
# weighted-specificity formula writes NPV, though its numbers are the
# specificities).

# %%
eight_errata = pd.DataFrame({
    "notes": [datasets.NOTES_EIGHT_GMEAN_0, datasets.NOTES_EIGHT_WEIGHTED_F1, datasets.NOTES_EIGHT_WEIGHTED_GMEAN],
    "correct": [eight.loc[0, "g_mean"], eight.loc["weighted", "f1"], eight.loc["weighted", "g_mean"]],
    "why": ["√(recall 1 × specificity 0.8333); the notes' own macro line uses 0.9129",
            "(0.8·2 + 0.3333·3 + 0.4·3) / 8 = 3.8 / 8",
            "4.716576 / 8, rounded"],
}, index=["G-mean of class 0", "weighted F1", "weighted G-mean"])
print(eight_errata.to_string(formatters={"notes": "{:.4f}".format, "correct": "{:.4f}".format}))
print(metrics.classification_report(y8_true, y8_pred, digits=4))

# %% [markdown]
# scikit-learn's `classification_report` agrees on recall, precision and F1, with
# all three averages (its "accuracy" line is the micro average). It has no
# specificity, NPV or G-mean per class: those are the columns our
# `per_class_metrics` adds.
#
# For **single-label** data every sample has exactly one actual and one predicted
# class, so each error is one FP (for the predicted class) and one FN (for the
# actual class): micro precision = micro recall = micro F1 = accuracy, 0.5 here.
# This does *not* hold for multilabel data, where a sample can have several classes.
# The notes' multilabel example (rows are samples, columns classes):

# %%
multilabel_true = np.array([[0, 1, 0], [0, 1, 1], [1, 0, 1], [0, 0, 1], [0, 0, 0]])
multilabel_pred = np.array([[0, 1, 1], [0, 1, 1], [0, 1, 0], [0, 0, 0], [1, 0, 1]])
micro = metrics.precision_recall_fscore_support(multilabel_true, multilabel_pred, average="micro")
print(f"multilabel micro precision {micro[0]:.3f}, recall {micro[1]:.3f}, F1 {micro[2]:.3f}")
print(f"exact-match accuracy {metrics.accuracy_score(multilabel_true, multilabel_pred):.3f}")

# %% [markdown]
# With multilabel data micro precision (0.429) and micro recall (0.500) differ,
# and neither equals the share of samples with every label right (0.200).
#
# Multilabel data have a fourth average, **samples**: compute precision and
# recall for each *sample* (which of its labels were found, which of its
# predicted labels are right), then average over the samples. The fourth sample
# has no predicted label and the fifth no true label, so one of their ratios is
# 0/0; `zero_division=np.nan` leaves those out of the average:

# %%
samples = metrics.precision_recall_fscore_support(multilabel_true, multilabel_pred, average="samples",
                                                  zero_division=np.nan)
hits = (multilabel_true & multilabel_pred).sum(axis=1)  # labels right, sample by sample
# divide gives nan, without a warning, where a sample has no predicted (or no true) label
print("per-sample precision:", np.round(divide(hits, multilabel_pred.sum(axis=1)), 3).tolist())
print("per-sample recall   :", np.round(divide(hits, multilabel_true.sum(axis=1)), 3).tolist())
print(f"multilabel samples-average precision {samples[0]:.3f}, recall {samples[1]:.3f}, F1 {samples[2]:.3f}")

# %% [markdown]
# Per sample the precisions are 0.5, 1, 0, undefined (nan) and 0, with mean
# 0.375; the recalls 1, 1, 0, 0 and undefined, with mean 0.500. The samples average answers "for
# a typical sample, how many of its labels are right?", the micro average "over
# all (sample, label) pairs".
#
# **Two macro-F1s.** One of the notes defines macro-F1 as the harmonic mean of macro
# precision and macro recall. scikit-learn's `f1_score(average="macro")` is the
# mean of the per-class F1 values. They are different numbers:

# %%
macro_p, macro_r = eight.loc["macro", "precision"], eight.loc["macro", "recall"]
print(f"harmonic mean of macro P and macro R : {2 * macro_p * macro_r / (macro_p + macro_r):.4f}")
print(f"mean of per-class F1 (scikit-learn)  : {metrics.f1_score(y8_true, y8_pred, average='macro'):.4f}")

# %% [markdown]
# The harmonic mean of the averages (0.5263) is higher than the average of the
# per-class F1 values (0.5111): the two cannot be compared, so always say which one
# you report.

# %% [markdown]
# **G-mean, three definitions.** With several classes "the G-mean" can mean
# three different computations, and they give different numbers:
#
# 1. the notes' (and our table's): √(recall × specificity) for each class
#    (one-vs-rest), then the macro or weighted average of those per-class values;
# 2. imbalanced-learn's `geometric_mean_score(average="macro")` or `"weighted"`:
#    √(average recall × average specificity), the square root of the product
#    of the averages, not the average of the square roots;
# 3. imbalanced-learn's default for several classes (`average="multiclass"`): the
#    geometric mean of the per-class *recalls*, no specificity at all.

# %%
g_means = pd.DataFrame({
    "macro": [eight.loc["macro", "g_mean"],
              imb_metrics.geometric_mean_score(y8_true, y8_pred, average="macro")],
    "weighted": [eight.loc["weighted", "g_mean"],
                 imb_metrics.geometric_mean_score(y8_true, y8_pred, average="weighted")],
}, index=["1. average of per-class G-means (notes, per_class_metrics)",
          "2. imblearn: sqrt(average recall x average specificity)"])
print(g_means.to_string(float_format="{:.4f}".format))
print(f"3. imblearn default, geometric mean of the recalls: "
      f"{imb_metrics.geometric_mean_score(y8_true, y8_pred):.4f}")
print("imblearn average=None, the per-class G-means of definition 1:",
      np.round(imb_metrics.geometric_mean_score(y8_true, y8_pred, average=None), 4).tolist())

# %% [markdown]
# Definition 1 gives 0.6255 (macro) and 0.5896 (weighted); imbalanced-learn's
# averages give 0.6431 and 0.6055, because the square root of an average is not
# the average of square roots; its default, with the recalls of classes 1 and 2
# at 1/3 each, gives (1 · 1/3 · 1/3)^(1/3) = 0.4807. With `average=None`
# imbalanced-learn returns the per-class values of definition 1. Say which
# G-mean you report; this course's `per_class_metrics` uses definition 1.
#
# The notes' second multiclass example diagnoses 25 patients as having
# Coronavirus, Flu (spelled "Flue" in the notes) or nothing ("Ok"):

# %%
print(metrics.confusion_matrix(datasets.FLU_TRUE, datasets.FLU_PRED))
flu = per_class_metrics(datasets.FLU_TRUE, datasets.FLU_PRED)
print(flu.round(3).to_string())
report = (pd.DataFrame(metrics.classification_report(datasets.FLU_TRUE, datasets.FLU_PRED, output_dict=True)).T
          .drop(index="accuracy").rename(index={"macro avg": "macro", "weighted avg": "weighted"},
                                         columns={"f1-score": "f1"}))
columns = ["precision", "recall", "f1"]
print("agrees with classification_report:", np.allclose(report[columns], flu.loc[report.index, columns]))

# %% [markdown]
# Flu, the largest class, is the one the classifier handles worst (recall 0.2):
# the second row of the matrix shows six of its ten patients diagnosed with
# Coronavirus. Macro recall (0.511)
# weighs the small Coronavirus class as much as Flu; weighted recall (0.480)
# equals the accuracy, as it always does for single-label data.

# %% [markdown]
# ## 9. Scoring probabilities: log loss and Brier score (optional)
#
# Metrics on labels ignore *how sure* the model was. For a predicted probability
# $p_i$ of the positive class and a label $y_i \in \{0, 1\}$:
#
# $$\text{log loss} = -\frac{1}{n}\sum_i \big[y_i \log p_i + (1-y_i)\log(1-p_i)\big], \qquad
# \text{Brier} = \frac{1}{n}\sum_i (p_i - y_i)^2.$$
#
# Both are losses (lower is better). We score the bank model's probabilities on the
# test set and compare with a model that always predicts the training share of
# subscribers.

# %%
p_model = bank_model.predict_proba(X_test)[:, 1]
p_prior = np.full(len(y_test), y_train.mean())
y = y_test.to_numpy()
for name, p in [("logistic regression", p_model), ("constant prior", p_prior)]:
    log_loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    brier = np.mean((p - y) ** 2)
    print(f"{name:<20s} log loss {log_loss:.4f} (sklearn {metrics.log_loss(y, p):.4f})   "
          f"Brier {brier:.4f} (sklearn {metrics.brier_score_loss(y, p):.4f})")
brier_both_classes = np.mean((p_model - y) ** 2 + ((1 - p_model) - (1 - y)) ** 2)
print(f"Brier summed over both classes (Brier's original, the notes'): {brier_both_classes:.4f}, "
      f"sklearn scale_by_half=False {metrics.brier_score_loss(y, p_model, scale_by_half=False):.4f}")

# %% [markdown]
# The model's probabilities beat the constant prior on both losses, though not by
# much (the Brier score drops by about a tenth): the bank data are hard to predict
# without the call duration.
#
# **Erratum.** The log loss needs its minus sign (one slide drops it). Without it the
# value is the average log-likelihood: negative, and *higher* (closer to 0) for a
# better model, a score to maximise rather than a loss to minimise.
#
# **Two Brier conventions.** One slide's Brier score sums the squared errors over
# *both* classes, (p − y)² + ((1 − p) − (1 − y))². That is not a mistake: it is
# Brier's original (1950) definition, which runs from 0 to 2, and scikit-learn
# computes it with `brier_score_loss(..., scale_by_half=False)`. For two classes
# scikit-learn's default halves it, (p − y)², from 0 to 1, the form most papers
# use. The last line shows the two agree and that the original is exactly twice
# the default: compare Brier scores only within one convention.
#
# **Several classes.** Both losses extend to c classes: the log loss is the mean
# of −log(probability given to the true class), and the Brier score sums the
# squared errors over the c probabilities of each sample (the notes' formula).
# A small example with three classes:

# %%
animals = ["bird", "cat", "dog"]
y_animal = np.array(["bird", "cat", "dog", "dog"])
p_animal = np.array([[0.70, 0.20, 0.10], [0.10, 0.60, 0.30], [0.20, 0.30, 0.50], [0.05, 0.05, 0.90]])
true_column = np.searchsorted(animals, y_animal)  # the column of each sample's true class
print("probability given to the true class:", p_animal[np.arange(len(y_animal)), true_column].tolist())
print("its -log, sample by sample:", np.round(-np.log(p_animal[np.arange(len(y_animal)), true_column]), 2).tolist())
print(f"multiclass log loss by hand {-np.mean(np.log(p_animal[np.arange(4), true_column])):.4f}, "
      f"sklearn {metrics.log_loss(y_animal, p_animal, labels=animals):.4f}")
onehot_animal = (y_animal[:, None] == np.array(animals)).astype(float)
print(f"multiclass Brier by hand {np.mean(np.sum((p_animal - onehot_animal) ** 2, axis=1)):.4f}, "
      f"sklearn {metrics.brier_score_loss(y_animal, p_animal, labels=animals):.4f}")

# %% [markdown]
# The columns of the probability matrix follow `labels` (alphabetical, like a
# classifier's `classes_`). The third sample, a dog given only 0.5, costs
# −log 0.5 = 0.69 and the first, a bird given 0.7, costs 0.36 (second line): the log loss
# punishes low confidence in the truth, without bound as it tends to 0.
#
# **Loss function or evaluation metric?** A *loss function* is what the training
# algorithm minimises: logistic regression minimises the log loss (plus a
# penalty) because it is smooth and can be differentiated. An *evaluation metric*
# is what we report and decide with: recall, cost, F1, the Brier score. They can
# coincide (log loss is both), but need not: a model trained on log loss is often
# judged by recall at a threshold, because that is what the application values.

# %% [markdown]
# ## 10. Regression metrics
#
# For a numeric target, with errors $e_i = y_i - \hat y_i$ and the mean $\bar y$:
#
# | metric | formula | note |
# |---|---|---|
# | MAE | mean of \|e\| | in the target's unit, robust to outliers |
# | MSE, RMSE | mean of e², its square root | punish large errors more |
# | MAPE | mean of \|e / y\| | relative; explodes near y = 0 (scikit-learn returns a fraction, not %) |
# | R² | 1 − Σe² / Σ(y − ȳ)² | 1 is perfect, 0 is the mean predictor, **negative** is worse than the mean |
# | RMSLE | RMSE of log(1 + y) | relative errors; under-predicting costs more |
# | RAE | Σ\|e\| / Σ\|y − ȳ\| | absolute error relative to the mean predictor |
# | RRSE | √(Σe² / Σ(y − ȳ)²) | = √(1 − R²) |
#
# The linear model on the power plant, by hand and with scikit-learn:

# %%
yp_pred = linear.predict(Xp_test)
by_hand = regression_metrics(yp_test, yp_pred)
sklearn_regression = {
    "mae": metrics.mean_absolute_error(yp_test, yp_pred),
    "mse": metrics.mean_squared_error(yp_test, yp_pred),
    "rmse": metrics.root_mean_squared_error(yp_test, yp_pred),
    "mape": metrics.mean_absolute_percentage_error(yp_test, yp_pred),
    "r2": metrics.r2_score(yp_test, yp_pred),
    "rmsle": metrics.root_mean_squared_log_error(yp_test, yp_pred),
}
print(pd.DataFrame({"by hand": by_hand, "sklearn": sklearn_regression}).round(5).to_string())

# %% [markdown]
# The model misses by 3.6 MW on average (MAE), under 1 % of the output (MAPE about
# 0.008), and explains about 93 % of the variance (R²). scikit-learn has no RAE or
# RRSE (the NaN cells); both compare with the mean predictor, so values below 1 mean
# "better than the mean". **Erratum.** A metric the notes call "RSE" carries a
# square root: that is the *root* relative squared error, RRSE.
#
# R² is not a percentage between 0 and 100 %. One set of notes defines it as
# SSR/SST (explained over total sum of squares), which is never negative, yet its
# own example returns −3. The definition scikit-learn uses, and the one that
# matches that example, is 1 − SSE/SST:

# %%
for name, (t, p) in {"worked example": datasets.R2_EXAMPLE, "perfect": datasets.R2_PERFECT,
                     "mean predictor": datasets.R2_MEAN_PREDICTOR, "reversed": datasets.R2_REVERSED}.items():
    t, p = np.array(t, dtype=float), np.array(p, dtype=float)
    ssr_over_sst = np.sum((p - t.mean()) ** 2) / np.sum((t - t.mean()) ** 2)
    print(f"{name:<15s} R² by hand {regression_metrics(t, p)['r2']:8.4f}   sklearn {metrics.r2_score(t, p):8.4f}"
          f"   the notes' SSR/SST {ssr_over_sst:6.4f}")

# %% [markdown]
# Predicting [3, 2, 1] for [1, 2, 3] is four times worse than predicting the mean,
# hence R² = −3; the notes' SSR/SST would give it a perfect 1.0000. The notes' plot
# of RMSLE against MSE shows why RMSLE suits targets spanning orders of magnitude:
# its penalty depends only on the ratio (1 + ŷ) / (1 + y), so halving the truth
# costs as much as doubling it, and for the same absolute error an under-prediction
# costs more than an over-prediction.

# %%
truth = 10_000
predictions = np.linspace(0, 30_000, 151)
log_error = np.abs(np.log1p(truth) - np.log1p(predictions))
squared_error = (truth - predictions) ** 2 / 1e7
fig, ax = plt.subplots(figsize=(5.5, 3.5))
ax.plot(predictions, log_error, label="log error |log(1+y) − log(1+ŷ)|")
ax.plot(predictions, squared_error, label="squared error / 10⁷")
ax.axvline(truth, color="0.6", ls=":")
ax.legend()
_ = ax.set(xlabel="prediction ŷ", ylabel="error", ylim=(0, 10), title="true value y = 10,000")
half, double = np.argmin(np.abs(predictions - truth / 2)), np.argmin(np.abs(predictions - 2 * truth))
show(fig, f"Line chart of two errors against the prediction from 0 to {predictions[-1]:,.0f} for a true value of "
          f"{truth:,} (dotted vertical line): the squared error / 10^7 is a parabola, {squared_error[half]:.1f} at "
          f"{predictions[half]:,.0f} and at {truth * 1.5:,.0f}; the log error rises to {log_error[0]:.1f} at 0, is "
          f"{log_error[half]:.2f} at half the truth and {log_error[double]:.2f} at double it")

# %% [markdown]
# The squared error is symmetric around the truth; the log error rises steeply
# towards ŷ = 0 and flattens for over-predictions.
#
# **Look at the residuals.** One number cannot say *where* a regression model
# errs. scikit-learn's `PredictionErrorDisplay` plots the residuals y − ŷ
# against the predictions (left) or the truth against the predictions (right);
# a good model leaves a shapeless band around 0 (left) or the diagonal (right).

# %%
fig, (ax_res, ax_pred) = plt.subplots(1, 2, figsize=(10, 4))
_ = metrics.PredictionErrorDisplay.from_predictions(yp_test, yp_pred, kind="residual_vs_predicted", ax=ax_res,
                                                    random_state=RANDOM_STATE)
_ = metrics.PredictionErrorDisplay.from_predictions(yp_test, yp_pred, kind="actual_vs_predicted", ax=ax_pred,
                                                    random_state=RANDOM_STATE)
_ = ax_res.set(title="residuals y − ŷ (MW)", xlabel="predicted output ŷ (MW)", ylabel="residual (MW)")
_ = ax_pred.set(title="truth against prediction", xlabel="predicted output ŷ (MW)", ylabel="actual output y (MW)")
residuals = yp_test - yp_pred
low, high = np.percentile(residuals, [2.5, 97.5])
show(fig, f"Two scatter plots of a random subsample of the linear model's {len(yp_test):,} test predictions: left, "
          f"residuals y − ŷ against the prediction, a shapeless band around 0 (95% of all residuals between "
          f"{low:.0f} and {high:+.0f} MW); right, truth against prediction, along the dashed diagonal")
print(f"mean residual {residuals.mean():+.3f} MW; share of under-predictions (y > ŷ) {np.mean(residuals > 0):.3f}")

# %% [markdown]
# The residuals form a band around 0 across the whole range of predictions. The
# mean residual (−0.076 MW) is close to 0 and about half of the predictions are
# too low (0.489), so the linear model is not biased overall.
#
# **When over- and under-predicting cost differently.** MAE and RMSE charge both
# directions alike. A utility that promises output it cannot deliver
# (over-prediction) may pay a penalty several times larger than the value of
# the output it failed to sell (under-prediction). Pricing each MW of
# over-prediction at 3 and each MW of under-prediction at 1
# (`asymmetric_cost` in `helpers.metrics`), and shifting the predictions down by
# a constant, trades one error for the other:

# %%
best_shift = np.quantile(residuals, 1 / (1 + 3))  # the 25th percentile of y - ŷ
shifts = {f"{shift:+.0f} MW": shift for shift in (0.0, -1.0, -2.0, -3.0, -4.0, -5.0)}
shifts[f"{best_shift:+.3f} MW (best)"] = best_shift
cost_rows = {name: asymmetric_cost(yp_test, yp_pred + shift, cost_over=3, cost_under=1)
             for name, shift in shifts.items()}
print(pd.DataFrame(cost_rows).T.rename(columns={"mean_cost": "mean cost", "over": "mean over-prediction",
                                                "under": "mean under-prediction"}).to_string(
    float_format="{:.3f}".format))
print(f"best constant shift: the {1 / (1 + 3):.2f} quantile of the residuals, {best_shift:+.3f} MW")

# %% [markdown]
# Predicting a little less than the model says lowers the asymmetric cost,
# although it raises the MAE (the sum of the last two columns), until the cost
# rises again. With costs 3 : 1 the best constant shift moves the predictions
# to the 0.25 quantile of the residuals, so that a quarter of the errors are
# over-predictions (the last rows); a metric that matches the real costs picks
# it directly. That is the regression version of choosing a threshold by cost
# (notebook 02).

# %% [markdown]
# ## 11. Scoring strings, `neg_` and custom scorers
#
# Cross-validation and hyperparameter searches take a `scoring` argument: a string
# naming a built-in scorer, a scorer object, or a dict of several. Every scorer
# follows one rule: **greater is better**. Losses therefore appear negated, with a
# `neg_` prefix. (`sklearn.metrics.SCORERS` no longer exists; `get_scorer_names()`
# lists the strings.) Below, `cross_val_score` runs the 5-fold cross-validation
# of section 1 (`kfold`) and returns one score per fold; notebook 03 explains the
# folds in detail.

# %%
names = metrics.get_scorer_names()
examples = ["neg_mean_absolute_error", "neg_root_mean_squared_error", "recall_macro", "roc_auc_ovr"]
print(f"{len(names)} scorer names, including {examples}: {set(examples) <= set(names)}")
scores = cross_val_score(LinearRegression(), X_power, y_power, cv=kfold, scoring="neg_root_mean_squared_error")
print("neg_root_mean_squared_error per fold:", np.round(scores, 3))
print(f"RMSE = {-scores.mean():.3f} MW")

# %% [markdown]
# The scores are negative RMSEs: a search that maximises them minimises the error.
# The folds agree within about a tenth of a MW, and their mean is close to the
# hold-out RMSE of section 1.
# Flip the sign to report them. (The old `mean_squared_error(squared=False)` is
# gone; use `root_mean_squared_error`.)
#
# For metrics scikit-learn lacks, or for another positive class, wrap a metric
# function with `make_scorer`: `make_scorer(recall_score, pos_label=0)` scores the
# recall of the negative class, which is the specificity, and
# `make_scorer(precision_score, pos_label=0)` the NPV. The course's
# `specificity_scorer` and `npv_scorer` wrap its own `specificity_score` and
# `npv_score` the same way. All of them run inside `cross_validate` on the bank data:

# %%
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=RANDOM_STATE)
scoring = {
    "recall": "recall",
    "precision": "precision",
    "specificity": specificity_scorer,
    "recall_of_class_0": metrics.make_scorer(metrics.recall_score, pos_label=0),
    "npv": npv_scorer,
    "precision_of_class_0": metrics.make_scorer(metrics.precision_score, pos_label=0),
    "balanced_accuracy": "balanced_accuracy",
}
cv_results = cross_validate(bank_model, X_bank, y_bank, cv=cv, scoring=scoring)
cv_table = pd.DataFrame({name: cv_results[f"test_{name}"] for name in scoring})
print(cv_table.agg(["mean", "std"]).round(3).to_string())

# %% [markdown]
# Specificity and the recall of class 0 are the same numbers, as are the NPV and the
# precision of class 0, as they must be. The
# model recognises almost every non-subscriber (specificity near 0.99) but only
# about one subscriber in seven (recall 0.138): at the default threshold of 0.5 it behaves
# like a cautious version of the majority baseline. Notebook 02 shows how moving
# that threshold trades one for the other. Scorers that need probabilities use
# `make_scorer(..., response_method="predict_proba")` (the old `needs_proba`
# argument is gone).

# %% [markdown]
# ## Practice
#
# Five graded exercises. Write your code where it says `YOUR CODE HERE`, then run
# the test cell below it: the visible tests give feedback, and further hidden tests
# are used for the grade. Do not call scikit-learn's metric functions or the
# course's `helpers` inside your answers (use them to check yourself).
#
# **Exercise 1 (2 points).** Write `specificity_and_npv(tp, fp, fn, tn)` returning
# the pair `(specificity, npv)`. When a denominator is zero, return `float("nan")`
# for that value.

# %% nbgrader={"grade": false, "grade_id": "ex1-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def specificity_and_npv(tp, fp, fn, tn):
    ### BEGIN SOLUTION
    specificity = tn / (tn + fp) if tn + fp else float("nan")
    npv = tn / (tn + fn) if tn + fn else float("nan")
    return specificity, npv
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex1-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

from helpers.exercises import functions_called

_used1 = [name for name in ("sklearn", "helpers") if name in inspect.getsource(specificity_and_npv)]
_used1 += functions_called(specificity_and_npv)  # a course or scikit-learn function called by name
assert not _used1, f"compute both values yourself from the four counts, without scikit-learn's metric functions or the course's helpers ({_used1})"
spec, npv = specificity_and_npv(tp=6954, fp=412, fn=46, tn=2588)
assert math.isclose(spec, 2588 / 3000), f"specificity of buy_computer should be TN / (TN + FP); got {spec}"
assert math.isclose(npv, 2588 / 2634), f"NPV of buy_computer should be TN / (TN + FN); got {npv}"
try:
    zero_negatives = specificity_and_npv(5, 0, 0, 0)
    only_npv_zero = specificity_and_npv(5, 2, 0, 0)
except ZeroDivisionError:
    raise AssertionError("a denominator is zero: check it before dividing and return float('nan') "
                         "for that value") from None
assert all(map(math.isnan, zero_negatives)), "no actual and no predicted negatives: return nan for both values"
assert only_npv_zero[0] == 0 and math.isnan(only_npv_zero[1]), \
    f"only NPV's denominator is zero (TN + FN = 0): specificity 0 / 2 = 0 and NPV nan; got {only_npv_zero}"
### BEGIN HIDDEN TESTS
_used1_h = [name for name in ("sklearn", "helpers") if name in inspect.getsource(specificity_and_npv)]
_used1_h += functions_called(specificity_and_npv)  # a course or scikit-learn function called by name
assert not _used1_h, f"compute both values yourself from the four counts, without scikit-learn's metric functions or the course's helpers ({_used1_h})"
try:
    zero_fp_tn = specificity_and_npv(3, 0, 4, 0)
except ZeroDivisionError:
    raise AssertionError("TN + FP = 0 here: check a denominator before dividing and return float('nan') "
                         "for that value only") from None
spec, npv = specificity_and_npv(90, 140, 210, 9560)
assert math.isclose(spec, 9560 / 9700) and math.isclose(npv, 9560 / 9770), \
    'specificity = TN / (TN + FP) and NPV = TN / (TN + FN), from counts in the order (tp, fp, fn, tn)'
spec, npv = zero_fp_tn
assert math.isnan(spec) and npv == 0, \
    'no actual negatives (TN + FP = 0): specificity is nan; NPV = 0 / (0 + 4) is 0, not nan'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2 (2 points).** Write `fbeta_from_counts(tp, fp, fn, beta)` with the
# count form of F-beta, the one scikit-learn uses. It is 0 when TP = 0 but
# FP + FN > 0; when TP = FP = FN = 0 the denominator is zero: return
# `float("nan")` then.

# %% nbgrader={"grade": false, "grade_id": "ex2-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def fbeta_from_counts(tp, fp, fn, beta):
    ### BEGIN SOLUTION
    b2 = beta**2
    denominator = (1 + b2) * tp + b2 * fn + fp
    return (1 + b2) * tp / denominator if denominator else float("nan")
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex2-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

from helpers.exercises import functions_called

_used2 = [name for name in ("sklearn", "helpers") if name in inspect.getsource(fbeta_from_counts)]
_used2 += functions_called(fbeta_from_counts)  # a course or scikit-learn function called by name
assert not _used2, f"compute F-beta yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used2})"
assert math.isclose(fbeta_from_counts(280, 420, 20, beta=1), 0.56), "F1 of classifier A should be 0.56"
assert math.isclose(fbeta_from_counts(280, 420, 20, beta=2), 0.7368421052631579), "check the weight of FN (beta squared)"
try:
    no_tp = fbeta_from_counts(0, 3, 4, beta=1)
except ZeroDivisionError:
    raise AssertionError("no true positive: precision and recall are 0, so 2PR/(P+R) divides by zero; "
                         "use the count form (1 + b²)TP / ((1 + b²)TP + b²FN + FP)") from None
assert no_tp == 0, "no true positive: F-beta is 0 (use the count form, not 2PR/(P+R))"
try:
    no_counts = fbeta_from_counts(0, 0, 0, beta=1)
except ZeroDivisionError:
    raise AssertionError("TP = FP = FN = 0: the denominator is zero; return float('nan') instead of dividing") from None
assert math.isnan(no_counts), f"TP = FP = FN = 0: return float('nan'); got {no_counts}"
### BEGIN HIDDEN TESTS
_used2_h = [name for name in ("sklearn", "helpers") if name in inspect.getsource(fbeta_from_counts)]
_used2_h += functions_called(fbeta_from_counts)  # a course or scikit-learn function called by name
assert not _used2_h, f"compute F-beta yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used2_h})"
try:
    no_tp_h, no_counts_h = fbeta_from_counts(0, 0, 4, beta=2), fbeta_from_counts(0, 0, 0, beta=2)
except ZeroDivisionError:
    raise AssertionError("TP = 0 (with or without FN): use the count form (1 + b²)TP / ((1 + b²)TP + b²FN + FP) "
                         "and return float('nan') when its denominator is 0") from None
assert math.isclose(fbeta_from_counts(50, 5, 250, beta=0.5), 0.4807692307692308), \
    'beta = 0.5 weighs precision more: (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)'
assert no_tp_h == 0, \
    'TP = 0 with some FN: F-beta is 0 (the count form never divides 0 by 0 here)'
assert math.isnan(no_counts_h), \
    'TP = FP = FN = 0: F-beta is undefined, return nan'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3 (3 points).** Write `macro_and_weighted_f1(y_true, y_pred)` returning
# the pair `(macro_f1, weighted_f1)`, computed from per-class counts (one-vs-rest),
# with the classes that appear in `y_true` or `y_pred`. Weighted means weighted by
# each class's number of actual samples. Labels may be numbers or strings.

# %% nbgrader={"grade": false, "grade_id": "ex3-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def macro_and_weighted_f1(y_true, y_pred):
    ### BEGIN SOLUTION
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    classes = np.unique(np.concatenate([y_true, y_pred]))
    f1, support = [], []
    for c in classes:
        tp = np.sum((y_true == c) & (y_pred == c))
        fp = np.sum((y_true != c) & (y_pred == c))
        fn = np.sum((y_true == c) & (y_pred != c))
        f1.append(2 * tp / (2 * tp + fp + fn))
        support.append(np.sum(y_true == c))
    return float(np.mean(f1)), float(np.average(f1, weights=support))
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex3-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import inspect

from helpers.exercises import functions_called

assert "f1_score" not in inspect.getsource(macro_and_weighted_f1) and \
    "precision_recall_fscore_support" not in inspect.getsource(macro_and_weighted_f1), \
    "compute the F1 scores yourself from the counts (not with metrics.f1_score)"
_used3 = [name for name in ("sklearn", "helpers") if name in inspect.getsource(macro_and_weighted_f1)]
_used3 += functions_called(macro_and_weighted_f1)  # a course or scikit-learn function called by name
assert not _used3, f"compute the F1 scores yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used3})"
macro_f1, weighted_f1 = macro_and_weighted_f1([0, 0, 1, 1, 1, 2, 2, 2], [0, 0, 0, 1, 2, 1, 1, 2])
assert math.isclose(macro_f1, (0.8 + 1 / 3 + 0.4) / 3), f"macro F1 of the 8-sample example is 0.5111; got {macro_f1}"
assert math.isclose(weighted_f1, 3.8 / 8), \
    f"weight each class's F1 by its number of actual samples (in y_true), then divide by the 8 samples: 0.475; got {weighted_f1}"
assert np.allclose(macro_and_weighted_f1([0, 0, 1, 1], [0, 2, 1, 1]), (5 / 9, 5 / 6)), \
    "a class seen only in y_pred counts too (its F1 is 0): take the classes of y_true and y_pred"
try:
    string_f1 = macro_and_weighted_f1(list("aabbc"), list("abbcc"))
except TypeError as error:
    raise AssertionError(f"labels may be strings: find the classes with np.unique, not range ({error})") from None
assert np.allclose(string_f1, (11 / 18, 3 / 5)), "labels may be strings: 'a', 'b', 'c' give F1 2/3, 1/2, 2/3"
### BEGIN HIDDEN TESTS
assert "f1_score" not in inspect.getsource(macro_and_weighted_f1) and \
    "precision_recall_fscore_support" not in inspect.getsource(macro_and_weighted_f1), \
    "compute the F1 scores yourself from the counts (not with scikit-learn's metric functions)"
_used3_h = [name for name in ("sklearn", "helpers") if name in inspect.getsource(macro_and_weighted_f1)]
_used3_h += functions_called(macro_and_weighted_f1)  # a course or scikit-learn function called by name
assert not _used3_h, f"compute the F1 scores yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used3_h})"
rng = np.random.default_rng(7)
t, p = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
assert math.isclose(macro_and_weighted_f1(t, p)[0], metrics.f1_score(t, p, average="macro")), \
    "macro F1 is the plain mean of each class's F1 (4 classes, 200 random labels)"
assert math.isclose(macro_and_weighted_f1(t, p)[1], metrics.f1_score(t, p, average="weighted")), \
    "weighted F1 weighs each class's F1 by its number of ACTUAL samples (its support in y_true)"
assert np.allclose(macro_and_weighted_f1([5, 5, 6, 6], [5, 7, 6, 8]),
                   (metrics.f1_score([5, 5, 6, 6], [5, 7, 6, 8], average="macro"),
                    metrics.f1_score([5, 5, 6, 6], [5, 7, 6, 8], average="weighted"))), "a class seen only in y_pred counts"
t_s, p_s = ["cat", "dog", "dog", "eel", "cat"], ["dog", "dog", "cat", "eel", "cat"]
assert np.allclose(macro_and_weighted_f1(t_s, p_s),
                   (metrics.f1_score(t_s, p_s, average="macro"), metrics.f1_score(t_s, p_s, average="weighted"))), \
        'labels may be strings: the classes are those in y_true and y_pred'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 4 (3 points).** Write `cohen_kappa(cm)` for a square confusion matrix
# (a list of lists or an array, rows = actual), returning κ.

# %% nbgrader={"grade": false, "grade_id": "ex4-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def cohen_kappa(cm):
    ### BEGIN SOLUTION
    cm = np.asarray(cm, dtype=float)
    n = cm.sum()
    p_o = np.trace(cm) / n
    p_e = np.sum(cm.sum(axis=0) * cm.sum(axis=1)) / n**2
    return (p_o - p_e) / (1 - p_e)
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex4-tests", "locked": true, "points": 3, "schema_version": 3, "solution": false, "task": false}
import inspect

source_kappa = inspect.getsource(cohen_kappa)
assert "kappa_by_hand" not in source_kappa and "cohen_kappa_score" not in source_kappa, \
    "write kappa yourself (not with kappa_by_hand or cohen_kappa_score)"
try:
    kappa_value = cohen_kappa([[90, 5, 5], [1, 90, 9], [0, 9, 1]])
except (AttributeError, TypeError) as error:
    raise AssertionError(f"cm may be a list of lists: convert it with np.asarray first ({error})") from None
except (ValueError, IndexError) as error:
    raise AssertionError(f"cm may have any number of classes (here 3): use all its rows and columns, "
                         f"not the four cells of a 2 x 2 matrix ({error!r})") from None
assert abs(kappa_value - 0.7509) < 1e-4, f"kappa of the notes' matrix is 0.7509 (not the slides' p_e); got {kappa_value}"
assert math.isclose(cohen_kappa(np.eye(3) * 4), 1.0), \
    "perfect agreement (a diagonal matrix) gives kappa 1: compute kappa from cm, not the example's numbers"
### BEGIN HIDDEN TESTS
assert "kappa_by_hand" not in inspect.getsource(cohen_kappa) and \
    "cohen_kappa_score" not in inspect.getsource(cohen_kappa), \
    "write kappa yourself (not with kappa_by_hand or cohen_kappa_score)"
try:
    kappa_cancer = cohen_kappa([[90, 210], [140, 9560]])
except (AttributeError, TypeError) as error:
    raise AssertionError(f"cm may be a list of lists: convert it with np.asarray first ({error})") from None
assert math.isclose(kappa_cancer, metrics.cohen_kappa_score(*labels_from_counts(90, 140, 210, 9560))), \
    "kappa of the notes' cancer matrix: (p_o - p_e) / (1 - p_e), p_e from the row AND column shares"
_cm3_h = np.array([[5, 1, 0], [2, 6, 1], [0, 3, 7]])
try:
    _kappa3_h = cohen_kappa(_cm3_h.tolist())
except Exception as error:
    raise AssertionError(f"cohen_kappa on a 3 x 3 list of lists raised {error!r}: cm may have any number of "
                         "classes; convert it with np.asarray and use all its rows and columns") from None
assert math.isclose(_kappa3_h, metrics.cohen_kappa_score(np.repeat([0, 0, 0, 1, 1, 1, 2, 2, 2], _cm3_h.ravel()),
                                                         np.repeat([0, 1, 2] * 3, _cm3_h.ravel()))), \
    'kappa of a 3 x 3 matrix: p_o from the whole diagonal, p_e from every row and column share'
assert math.isclose(cohen_kappa(np.eye(4) * 5), 1.0), \
    'a diagonal 4-class matrix is perfect agreement: kappa = 1'
assert math.isclose(cohen_kappa(np.array([[3, 1], [2, 4]])), metrics.cohen_kappa_score(*labels_from_counts(3, 2, 1, 4))), \
    'kappa of [[3, 1], [2, 4]]: (p_o - p_e) / (1 - p_e), p_e from the row and column shares of cm'
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 5 (2 points).** A shop chooses between two mail-out campaigns, A and B,
# each predicted by a classifier with confusion counts `(tp, fp, fn, tn)`. A brochure
# sent to a household that does not buy (an FP) costs `cost_fp` euros; a buyer who
# gets no brochure (an FN) loses `cost_fn` euros of profit (2 € and 30 € in the first
# test, other amounts in the others). Write
# `cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn)` returning the string
# `"A"` or `"B"`, whichever has the lower total cost `cost_fp * FP + cost_fn * FN`
# (`"A"` on a tie).

# %% nbgrader={"grade": false, "grade_id": "ex5-answer", "locked": false, "schema_version": 3, "solution": true, "task": false}
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    ### BEGIN SOLUTION
    cost_a = cost_fp * counts_a[1] + cost_fn * counts_a[2]
    cost_b = cost_fp * counts_b[1] + cost_fn * counts_b[2]
    return "A" if cost_a <= cost_b else "B"
    ### END SOLUTION


# %% nbgrader={"grade": true, "grade_id": "ex5-tests", "locked": true, "points": 2, "schema_version": 3, "solution": false, "task": false}
import inspect

from helpers.exercises import functions_called

_used5 = [name for name in ("sklearn", "helpers") if name in inspect.getsource(cheaper_classifier)]
_used5 += functions_called(cheaper_classifier)  # a course or scikit-learn function called by name
assert not _used5, f"compute both costs yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used5})"
choice = cheaper_classifier((400, 900, 100, 8600), (150, 50, 350, 9450), cost_fp=2, cost_fn=30)
assert isinstance(choice, str), f'return the string "A" or "B"; got {choice!r}'
assert choice == "A", ("counts are (tp, fp, fn, tn), cost_fp multiplies FP and cost_fn multiplies FN: "
                       "A costs 2*900 + 30*100 = 4800, B costs 2*50 + 30*350 = 10600")
assert cheaper_classifier((400, 900, 100, 8600), (150, 50, 350, 9450), cost_fp=1, cost_fn=1) == "B", \
    "use the cost_fp and cost_fn arguments, not the example's 2 € and 30 €: at 1 € each, A costs 1000 and B 400"
assert cheaper_classifier((10, 4, 2, 84), (10, 2, 3, 85), cost_fp=1, cost_fn=2) == "A", \
    'both cost 8: on a tie return "A"'
### BEGIN HIDDEN TESTS
_used5_h = [name for name in ("sklearn", "helpers") if name in inspect.getsource(cheaper_classifier)]
_used5_h += functions_called(cheaper_classifier)  # a course or scikit-learn function called by name
assert not _used5_h, f"compute both costs yourself from the counts, without scikit-learn's metric functions or the course's helpers ({_used5_h})"
assert isinstance(cheaper_classifier((5, 1, 2, 9), (5, 2, 1, 9), cost_fp=1, cost_fn=5), str), \
    'return the string "A" or "B"'
assert cheaper_classifier((280, 420, 20, 9280), (50, 5, 250, 9695), cost_fp=1, cost_fn=1) == "B", \
    "at 1 € each: A costs 420 + 20 = 440, B 5 + 250 = 255 (use the cost arguments)"
assert cheaper_classifier((280, 420, 20, 9280), (50, 5, 250, 9695), cost_fp=0.5, cost_fn=12) == "A", \
    "cost_fp = 0.5 multiplies FP, cost_fn = 12 multiplies FN: A costs 450, B 3002.5"
assert cheaper_classifier((50, 5, 250, 9695), (280, 420, 20, 9280), cost_fp=12, cost_fn=0.5) == "A", \
    "cost_fp = 12 multiplies FP (counts[1]), cost_fn = 0.5 multiplies FN (counts[2]): A costs 185, B 5050"
assert cheaper_classifier((1, 1, 1, 1), (1, 1, 1, 1), cost_fp=3, cost_fn=4) == "A", 'equal costs: return "A"'
assert cheaper_classifier((0, 6, 0, 4), (0, 0, 3, 7), cost_fp=1, cost_fn=2) == "A", 'both cost 6: on a tie return "A"'
### END HIDDEN TESTS

# %% [markdown]
# ## Summary
#
# - Start from a baseline: the majority class or the mean tells what "learned
#   nothing" scores.
# - Accuracy hides a rare class; recall, precision, specificity and NPV look at the
#   rows and columns of the confusion matrix one at a time, and balanced accuracy,
#   G-mean, MCC and kappa summarise both classes.
# - The costs of false negatives and false positives decide the metric: F-beta
#   with β > 1 for recall-heavy problems, β < 1 for precision-heavy ones, or the
#   expected cost itself.
# - With several classes, report per-class values and say which average you use:
#   macro (classes equal), weighted (by support) or micro (samples equal).
# - Compare with a chance level too: `permutation_test_score` shows what the
#   model scores when the target carries no information.
# - Every proportion metric is an estimate from counts: report it with its counts
#   and a Wilson (or Clopper-Pearson) interval; 95 % of intervals built this way
#   contain the true value. Precision and NPV hold only at the test set's
#   prevalence; recall, specificity and the likelihood ratios travel when the
#   cases look alike in the new setting (the spectrum effect says when not).
# - Probabilities deserve log loss or the Brier score (two conventions: say which);
#   regression has MAE, RMSE, MAPE, R² (which can be negative), RMSLE, RAE and
#   RRSE, plus residual plots and, when over- and under-prediction cost
#   differently, an asymmetric cost.
# - In scikit-learn every scorer is "greater is better"; losses are `neg_`, and
#   `make_scorer` turns any metric into a scorer for cross-validation.
#
# **Next:** `02_roc_by_hand` varies the decision threshold and draws ROC and
# precision-recall curves by hand.
