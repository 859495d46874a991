"""Concept checks: ungraded multiple-choice questions with instant feedback.

Each check explains why every option is right or wrong, so a student who
picks a wrong answer learns why that answer is wrong, and can try another:
the right answer is not given away by a wrong choice, only by picking it or by
opening "Show the answer" (:func:`reveal_answer`, offered after a wrong choice).
:func:`check_answer` is the pure function behind the widget
(``helpers.widgets.concept_check``); ``CHECKS`` holds the course's questions,
keyed ``"NN.name"`` by the notebook that asks them.
"""

from __future__ import annotations

from typing import NamedTuple

from markdown_it import MarkdownIt

from helpers.validation import check_int

# CommonMark with raw HTML off: whatever HTML a text holds is shown as text, never run.
_INLINE = MarkdownIt("commonmark", {"html": False})


class ConceptCheck(NamedTuple):
    """A question, its options, the index of the right one and why each option is right or wrong."""

    question: str
    options: tuple[str, ...]
    answer: int
    why: tuple[str, ...]


def validate_check(check: ConceptCheck) -> ConceptCheck:
    """Refuse a malformed check (fewer than 2 options, a missing explanation, a bad answer index)."""
    if not isinstance(check, ConceptCheck):
        raise ValueError(f"check must be a ConceptCheck; got {type(check).__name__}")
    if not check.question.strip():
        raise ValueError("the question is empty")
    if len(check.options) < 2:
        raise ValueError(f"a concept check needs at least 2 options; got {len(check.options)}")
    if len(set(check.options)) != len(check.options):
        raise ValueError("two options have the same text")
    if len(check.why) != len(check.options):
        raise ValueError(f"every option needs its explanation: {len(check.options)} options, "
                         f"{len(check.why)} explanations")
    check_int(check.answer, "answer", 0, len(check.options) - 1)
    return check


# What a wrong choice adds to its explanation: the answer is the student's to find (or to ask for).
SHOW_ANSWER = "Show the answer"
TRY_AGAIN = f"Try another option, or open \u201c{SHOW_ANSWER}\u201d."


def _known(check: ConceptCheck | str) -> ConceptCheck:
    """``check`` itself (validated), or the course's check of that key."""
    if isinstance(check, str):
        if check not in CHECKS:
            raise ValueError(f"unknown concept check {check!r}; known: {sorted(CHECKS)}")
        check = CHECKS[check]
    return validate_check(check)


def check_answer(check: ConceptCheck | str, choice) -> dict:
    """Feedback for one choice: ``{"correct", "feedback", "answered"}``.

    ``check`` is a :class:`ConceptCheck` or a key of ``CHECKS``; ``choice`` is
    the index of the chosen option or ``None`` (nothing picked yet). A wrong
    choice is told why it is wrong and invited to try again; it is not told the
    right answer (that is :func:`reveal_answer`, for the student who asks).
    """
    check = _known(check)
    if choice is None:
        return {"answered": False, "correct": False, "feedback": "Pick an option to see why it is right or wrong."}
    choice = check_int(choice, "choice", 0, len(check.options) - 1)
    if choice == check.answer:
        return {"answered": True, "correct": True, "feedback": f"Right. {check.why[choice]}"}
    return {"answered": True, "correct": False, "feedback": f"Not quite. {check.why[choice]} {TRY_AGAIN}"}


def reveal_answer(check: ConceptCheck | str) -> str:
    """The right answer and why, for a student who opens "Show the answer" after a wrong choice."""
    check = _known(check)
    return f"The answer is \u201c{check.options[check.answer]}\u201d: {check.why[check.answer]}"


def inline_html(text: str) -> str:
    """A question's, option's or feedback's inline markdown (code spans, emphasis) as HTML, with every other
    character escaped (raw HTML is shown as text): ``"Why is `best_score_` <high>?"`` gives
    ``"Why is <code>best_score_</code> &lt;high&gt;?"``."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str; got {type(text).__name__}")
    return _INLINE.renderInline(text)


def checks_for(notebook: str) -> list[str]:
    """The keys of the checks a notebook (``"01"``, ``"02"``, ...) asks, in order."""
    return [key for key in CHECKS if key.split(".")[0] == notebook]


CHECKS: dict[str, ConceptCheck] = {
    # ------------------------------------------------------------------ 01 metrics
    "01.imbalance": ConceptCheck(
        "A screening test is right for 99% of 10,000 patients, and 1% of them are ill. "
        "What do you need before calling it good?",
        ("Nothing: 99% accuracy is excellent",
         "Its recall on the ill patients and the majority-class baseline",
         "Its training accuracy"),
        1,
        ("Predicting \u201chealthy\u201d for everyone is also 99% accurate and finds no ill patient: "
         "accuracy hides the minority class.",
         "The baseline says what 99% is worth here (nothing more than always saying \u201chealthy\u201d), "
         "and recall says how many ill patients it finds.",
         "Training accuracy measures memory, not how the test does on new patients."),
    ),
    "01.which-metric": ConceptCheck(
        "A bank mails an offer; each letter costs money and an uninterested client costs the letter. "
        "Which number tells how many letters reach interested clients?",
        ("Recall", "Precision", "Specificity", "Negative predictive value"),
        1,
        ("Recall is the share of interested clients that get a letter, not the share of letters that "
         "are well spent.",
         "Precision = TP / (TP + FP): among the letters sent, the share that reach interested clients.",
         "Specificity is the share of uninterested clients left alone.",
         "NPV is about the clients who get no letter."),
    ),
    "01.fbeta": ConceptCheck(
        "You raise beta in F-beta from 1 to 3. Which classifier gains ground?",
        ("The one with higher precision", "The one with higher recall", "Neither: F-beta ignores beta"),
        1,
        ("Beta < 1 favours precision; raising beta does the opposite.",
         "Beta says recall is beta times as important as precision, so a higher beta rewards recall.",
         "Beta weights recall against precision; the slider shows the ranking flip."),
    ),
    "01.kappa": ConceptCheck(
        "Two classifiers have the same accuracy on imbalanced data. What does Cohen's kappa add?",
        ("It corrects the agreement for what chance alone would give",
         "It is the same as accuracy in another scale",
         "It measures how well calibrated the probabilities are"),
        0,
        ("kappa = (p_o - p_e) / (1 - p_e): the observed agreement beyond the agreement expected by chance.",
         "Kappa subtracts chance agreement p_e, which depends on the class shares, so it can rank "
         "classifiers of equal accuracy differently.",
         "Kappa uses hard labels only; log loss or the Brier score judge probabilities."),
    ),
    "01.interval": ConceptCheck(
        "On one test set, classifier A finds 20 of 130 positives (recall 0.154, 95% Wilson interval about "
        "0.10 to 0.23). What does the interval say?",
        ("That 95% of the positives have a recall between 0.10 and 0.23",
         "That A's recall is certainly above 0.10",
         "Which true recalls are compatible with 20 of 130 found: with 130 positives the estimate is rough",
         "Nothing: an interval is only needed for probabilities, not for recall"),
        2,
        ("Recall is one number for the whole classifier, not a property of each positive.",
         "A 95% interval is built so that 95% of such intervals contain the true value; about one in "
         "twenty misses it.",
         "Recall is a proportion of a count, TP out of TP + FN; Wilson's interval keeps every true "
         "proportion the data do not reject, and it narrows only as the number of positives grows.",
         "Recall is an estimate from a sample of positives like any proportion; its uncertainty is that of "
         "a binomial count."),
    ),
    # ------------------------------------------------------------------ 02 roc
    "02.threshold-up": ConceptCheck(
        "You raise the decision threshold of a classifier. What happens to its recall and its FPR?",
        ("Both go down or stay", "Both go up or stay", "Recall goes up, FPR goes down"),
        0,
        ("Fewer samples are predicted positive, so TP and FP can only fall: recall = TP/P and "
         "FPR = FP/N fall or stay.",
         "A higher threshold predicts fewer positives, never more.",
         "Recall and FPR move together along the ROC curve; only precision may go either way."),
    ),
    "02.auc-meaning": ConceptCheck(
        "A model's ROC AUC is 0.80. What does that say?",
        ("80% of its predictions are right",
         "A random positive gets a higher score than a random negative 80% of the time (ties count half)",
         "Its precision is 0.80 at the best threshold"),
        1,
        ("AUC measures ranking, not accuracy: it uses no threshold.",
         "That is the Mann-Whitney reading of the area: the share of correctly ordered pairs.",
         "AUC uses TPR and FPR, not precision."),
    ),
    "02.imbalance-curve": ConceptCheck(
        "You add ten times more negatives that look like the old ones. Which curve changes?",
        ("The ROC curve", "The precision-recall curve", "Neither"),
        1,
        ("TPR and FPR are rates within each class, so the ROC curve barely moves.",
         "Precision = TP / (TP + FP) counts negatives: ten times more false positives pull it down.",
         "Precision depends on the prevalence, so the PR curve does change."),
    ),
    "02.column": ConceptCheck(
        "`predict_proba(X)` returns two columns for a 0/1 problem. Which do you pass to `roc_auc_score`?",
        ("`[:, 0]`", "`[:, 1]`", "Either: AUC is symmetric"),
        1,
        ("Column 0 is the probability of class 0; it gives 1 - AUC.",
         "Column 1 is the probability of the positive class 1, the score the curve ranks by.",
         "Swapping the columns reverses the ranking: AUC becomes 1 - AUC."),
    ),
    "02.calibration": ConceptCheck(
        "Two models have the same ROC AUC on the bank clients. Which one may use the cost threshold "
        "C_FP / (C_FP + C_FN) as it is?",
        ("Either: the same AUC means the same ranking, so the same threshold works",
         "The one whose reliability diagram follows the diagonal",
         "The one with the higher mean predicted probability: it finds more subscribers"),
        1,
        ("The AUC depends on the order of the scores only; the same order can come with probabilities that are "
         "too high or too low, and the formula's cut then lands at the wrong client.",
         "The formula compares p with a cost ratio, so p must be the real probability: calibrated scores. "
         "Otherwise recalibrate (inside cross-validation) or tune the threshold on data.",
         "Higher scores are not better probabilities; scores too high for the real frequencies make the "
         "formula call too many clients."),
    ),
    # ------------------------------------------------------------------ 03 cross-validation
    "03.leak": ConceptCheck(
        "You fit a StandardScaler on the whole data set, then cross-validate a model on the scaled data. "
        "Is that a leak?",
        ("Yes: the test folds' statistics entered the training",
         "No: scaling has no parameters learned from the data",
         "Only when the data are imbalanced"),
        0,
        ("The means and standard deviations came from every row, test folds included; put the scaler "
         "inside a Pipeline so each fold fits its own.",
         "A scaler learns a mean and a standard deviation per feature from the rows it sees.",
         "Leakage is about which rows fit the preprocessing, whatever the class shares."),
    ),
    "03.k": ConceptCheck(
        "In 10-fold cross-validation, how often is each sample used for testing and for training?",
        ("Once for testing, 9 times for training", "10 times each", "Once each"),
        0,
        ("Each sample lies in exactly one test fold and in the training sets of the other 9 folds.",
         "A sample is tested only in the fold that holds it.",
         "It trains in every fold but its own, so 9 times."),
    ),
    "03.what-cv-does": ConceptCheck(
        "What does cross-validation change about the model you finally deploy?",
        ("Nothing: it estimates how well the procedure does on new data",
         "It makes the model overfit less",
         "It averages the k fitted models into the final one"),
        0,
        ("Cross-validation is a measurement: it removes resubstitution's optimism from the estimate.",
         "The model is fitted the same way; only the estimate of its error changes.",
         "The k models are thrown away; the final model is refitted on all the data."),
    ),
    "03.fold-interval": ConceptCheck(
        "Your 10 fold AUCs have mean 0.61 and SD 0.05. Why is 0.61 +/- 2.26 x 0.05 / sqrt(10) not a "
        "trustworthy 95% interval for the model's AUC on new data?",
        ("Because 10 folds are too few for any interval",
         "Because the fold scores are not independent (training sets overlap, test folds split one sample), "
         "and no unbiased estimate of the k-fold variance exists",
         "Because the t quantile should be 1.96",
         "Because fold scores are always too optimistic"),
        1,
        ("Ten paired numbers are enough for a t interval when they are independent; these are not.",
         "The formula assumes independent folds; Bengio and Grandvalet (2004) show no unbiased estimator "
         "of the variance exists, so its coverage is not guaranteed. Report a test-set interval or "
         "nested CV's interval (Bates, Hastie and Tibshirani 2023) instead.",
         "With 9 degrees of freedom the t quantile, 2.26, is the right one; the problem is the dependence.",
         "An untuned model's k-fold estimate is slightly pessimistic if anything; the issue is its variance."),
    ),
    "03.nested": ConceptCheck(
        "You tune C by cross-validation and report the best mean score. Why is that optimistic?",
        ("The best of many noisy estimates tends to be high by luck",
         "Cross-validation always overestimates",
         "It is not optimistic if the folds are stratified"),
        0,
        ("Choosing the maximum of noisy scores selects lucky ones; nested CV scores the whole tuning "
         "procedure on folds it never saw.",
         "An untuned model's CV estimate is, if anything, slightly pessimistic (smaller training sets).",
         "Stratification does not remove the selection effect."),
    ),
    # ------------------------------------------------------------------ 04 oversampling
    "04.where-smote": ConceptCheck(
        "Where does SMOTE go when you cross-validate?",
        ("Inside the pipeline, so it resamples only each training fold",
         "Before the split, on the whole data set",
         "On the test fold too, so both are balanced"),
        0,
        ("An imbalanced-learn Pipeline resamples the training folds only; the test folds keep the real "
         "class shares.",
         "Synthetic points made from test rows leak them into training and inflate the score.",
         "The test fold must look like the data the model will meet: never resample it."),
    ),
    "04.auc-moves": ConceptCheck(
        "Random oversampling often changes F1 a lot and ROC AUC little. Why?",
        ("It mostly shifts the scores, i.e. the decision threshold, and barely the ranking",
         "ROC AUC cannot see the minority class",
         "F1 is computed on the resampled test set"),
        0,
        ("Duplicating positives pushes scores up, which moves the 0.5 cut; for a linear model such as the "
         "logistic regression, the order of the samples, which AUC measures, stays nearly the same (a deep "
         "tree's order can change a lot).",
         "AUC is computed from both classes' scores; it sees the minority class fully.",
         "Scores are computed on the untouched test fold."),
    ),
    "04.prior-shift": ConceptCheck(
        "One client in nine subscribes. A logistic regression trained after random under-sampling to 1:1 "
        "(one non-subscriber in eight kept) predicts 0.5 for a client. What is that client's probability "
        "of subscribing?",
        ("0.5", "About 0.11", "0.0625"),
        1,
        ("0.5 is a probability in the balanced training data, where the odds of subscribing are eight times "
         "the real odds (1:1 instead of 1:8; the share goes from 1/9 to 1/2, 4.5 times).",
         "With beta = 1/8 of the non-subscribers kept, p = beta p_s / (beta p_s - p_s + 1) = 0.0625 / 0.5625 "
         "= 1/9: a coin flip after balancing is the base rate of the real data.",
         "That is beta x p_s, the numerator alone; the denominator beta p_s - p_s + 1 = 0.5625 is missing."),
    ),
    "04.scale": ConceptCheck(
        "Why scale features before SMOTE?",
        ("SMOTE picks neighbours by Euclidean distance, which a large-range feature dominates",
         "SMOTE refuses unscaled data",
         "Scaling balances the classes"),
        0,
        ("Unscaled, a feature measured in thousands decides every neighbour and the others are ignored.",
         "It runs, but chooses neighbours by the largest feature alone.",
         "Scaling changes distances, not class counts."),
    ),
    "04.tomek": ConceptCheck(
        "A stand-alone `TomekLinks` finds a link between a majority and a minority sample. What does it remove?",
        ("The majority member only", "Both members", "The minority member only"),
        0,
        ("Its default sampling strategy cleans the majority class, so only the majority member goes.",
         "Both are removed inside SMOTETomek, not by TomekLinks alone.",
         "Removing minority samples would make the imbalance worse."),
    ),
    # ------------------------------------------------------------------ 05 learning curves
    "05.gap": ConceptCheck(
        "The training error is low and the validation error high, with a wide gap that narrows as "
        "the training set grows. What helps most?",
        ("More data or more regularisation", "A more flexible model", "More features"),
        0,
        ("A wide, narrowing gap is variance: more data or a simpler (regularised) model close it.",
         "A more flexible model would overfit even more.",
         "More features usually add variance."),
    ),
    "05.bias": ConceptCheck(
        "Both curves meet early at a high error and stay flat as data grows. What does that mean?",
        ("High bias: the model is too rigid; more data will not help",
         "High variance: collect more data",
         "The model is perfect for the data"),
        0,
        ("Curves that meet high and flat show underfitting: add features or flexibility.",
         "With high variance the curves stay apart.",
         "The shared error is high: the model misses structure in the data."),
    ),
    "05.noise": ConceptCheck(
        "Which part of the expected squared error can no model remove?",
        ("The noise variance", "The squared bias", "The variance"),
        0,
        ("The noise e in y = f(x) + e is in the targets themselves: even f makes that error.",
         "A flexible enough model can make the bias small.",
         "More data or averaging (as a forest does) shrinks the variance."),
    ),
    "05.early-stopping": ConceptCheck(
        "A network's validation loss starts to rise after epoch 40 while its training loss keeps "
        "falling. What does early stopping do?",
        ("It stops soon after epoch 40 and keeps the weights where the validation loss was lowest",
         "Stops when the training loss reaches 0",
         "Runs cross-validation at every epoch"),
        0,
        ("It watches a held-out validation set and stops when that loss has not improved for a few "
         "epochs; scikit-learn's MLP then keeps the best epoch's weights.",
         "A training loss near 0 usually means overfitting.",
         "Deep learning uses one validation set because refitting k times is too expensive."),
    ),
    # ------------------------------------------------------------------ 06 hyperparameter search
    "04.paired": ConceptCheck(
        "Random under-sampling's PR AUC is lower than the plain model's in all 5 folds, but its mean lies within "
        "one fold spread of it. What do you conclude?",
        ("Nothing: the difference is smaller than the spread",
         "Under-sampling is better, since it balances the classes",
         "Probably a real loss: the folds' own difficulty is shared by both models, and a paired comparison "
         "removes it"),
        2,
        ("The unpaired spread is mostly which clients land in each fold, which affects both models alike; "
         "compare fold by fold.",
         "Balancing changes the threshold, not the ranking PR AUC measures; here it lost rows and ranking quality.",
         "Same folds, same direction five times out of five: the paired view (notebook 03) shows a consistent "
         "loss, although 5 folds give a test little power."),
    ),
    "05.forest-gap": ConceptCheck(
        "A random forest's training RMSE is near 0 at every size and its validation RMSE is 2 MW higher. "
        "Is most of its error variance?",
        ("Yes: a wide gap is the sign of variance",
         "Not necessarily: its trees memorise their rows, so the training error is near 0 whatever the variance",
         "No: forests have no variance"),
        1,
        ("The gap reads as variance only for models that cannot memorise their rows; measured on disjoint "
         "training sets, the forest's variance is a minority of its error.",
         "Each tree is grown to pure leaves on its bootstrap rows: measure variance across training sets, or "
         "read the out-of-bag or validation curve.",
         "Averaging trees lowers the variance; it does not remove it."),
    ),
    "06.expected-improvement": ConceptCheck(
        "The surrogate predicts mean m and standard deviation s at two points. Best so far f* = 0.10 (lower is "
        "better). Point A: m = 0.12, s = 0.001. Point B: m = 0.12, s = 0.05. Which has the higher expected "
        "improvement?",
        ("A: it is almost certain",
         "They are equal: the means are equal",
         "B: with more uncertainty, a value below f* is possible"),
        2,
        ("A is almost certainly 0.12, worse than 0.10: its improvement is almost surely 0.",
         "EI = (f* - m) Phi(z) + s phi(z) grows with s when the means are equal.",
         "Only the part of the distribution below f* counts, and B has much more of it: exploration."),
    ),
    "06.tpe-startup": ConceptCheck(
        "TPE and random search, both seeded 0, are each run for 10 trials. Which finds the better value?",
        ("TPE: it learns from earlier trials",
         "Neither: with the default n_startup_trials=10 they run the same 10 trials",
         "Random search: TPE concentrates too early"),
        1,
        ("It learns only after its random start-up of n_startup_trials trials.",
         "TPE's first 10 trials are RandomSampler's with the same seed; compare samplers beyond that budget.",
         "At 10 trials TPE has not concentrated at all yet."),
    ),
    "06.parameter": ConceptCheck(
        "Which of these is a hyperparameter of a logistic regression?",
        ("The regularisation strength C", "The coefficients", "The intercept"),
        0,
        ("C is chosen before fitting and is not learned from the training data.",
         "Coefficients are parameters: `fit` learns them.",
         "The intercept is learned by `fit` too."),
    ),
    "06.random-vs-grid": ConceptCheck(
        "One of two hyperparameters barely matters. With 9 trials, why does random search often beat a 3x3 grid?",
        ("It tries 9 different values of the important one instead of 3",
         "Random numbers are better than evenly spaced ones",
         "It evaluates more models"),
        0,
        ("A grid repeats each value of the important hyperparameter 3 times; random draws give 9 "
         "distinct values of it (Bergstra and Bengio's argument).",
         "Spacing is not the point; the projection onto the important axis is.",
         "Both evaluate 9 models at the same budget."),
    ),
    "06.best-score": ConceptCheck(
        "Why is `best_score_` of a search not an honest estimate of the tuned model?",
        ("It is the maximum of scores measured on the folds used to choose it",
         "It is computed on the training folds",
         "It uses the refit model"),
        0,
        ("Selection on the same folds makes it optimistic; nested CV or a final test set gives the honest number.",
         "It is the mean validation-fold score, not a training score.",
         "It comes from cross-validation, before the refit."),
    ),
    "06.pruning": ConceptCheck(
        "An Optuna objective reports its score once, after the whole cross-validation. What can a pruner do?",
        ("Nothing useful: it has no intermediate values to compare",
         "Stop bad trials after the first fold",
         "Halve the number of folds"),
        0,
        ("A pruner compares intermediate values step by step; report one per fold (or epoch) so it can stop early.",
         "It only sees what `trial.report` gave it, here one value at the end.",
         "Pruners stop trials; they do not change the cross-validation."),
    ),
}


def arranged(check: ConceptCheck, position: int) -> ConceptCheck:
    """The same check with its options rotated so that the right one comes at ``position``.

    A rotation keeps the options' reading order (and each explanation with its option); the
    course gives each check its own position so that the right answer is not always the first.
    """
    check = validate_check(check)
    n = len(check.options)
    shift = (check.answer - check_int(position, "position", 0, n - 1)) % n
    order = [(i + shift) % n for i in range(n)]
    return ConceptCheck(check.question, tuple(check.options[i] for i in order), position,
                        tuple(check.why[i] for i in order))


# The right answer's place: the checks in course order take positions 0, 1, 2, 0, 1, 2, ... shifted by
# one at each notebook, so no place (and no habit such as "click the first") wins a notebook or the course.
CHECKS = {key: arranged(check, (index + int(key[:2])) % len(check.options))
          for index, (key, check) in enumerate(CHECKS.items())}
