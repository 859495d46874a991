"""Plausible wrong answers to notebook 01's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: specificity_and_npv(tp, fp, fn, tn) -> (specificity, npv), nan for a zero denominator
    dict(exercise="ex1-answer", rule="specificity is TN / (TN + FP)", message="specificity of buy_computer", source='''
def specificity_and_npv(tp, fp, fn, tn):
    specificity = tn / (tn + fn) if tn + fn else float("nan")
    npv = tn / (tn + fn) if tn + fn else float("nan")
    return specificity, npv
'''),
    dict(exercise="ex1-answer", rule="NPV is TN / (TN + FN)", message="NPV of buy_computer", source='''
def specificity_and_npv(tp, fp, fn, tn):
    specificity = tn / (tn + fp) if tn + fp else float("nan")
    npv = tn / (tn + fp) if tn + fp else float("nan")
    return specificity, npv
'''),
    dict(exercise="ex1-answer", rule="zero denominator: nan, not 0", message="return nan", source='''
def specificity_and_npv(tp, fp, fn, tn):
    specificity = tn / (tn + fp) if tn + fp else 0.0
    npv = tn / (tn + fn) if tn + fn else 0.0
    return specificity, npv
'''),
    dict(exercise="ex1-answer", rule="zero denominator: nan, not a crash", message="check it before dividing", source='''
def specificity_and_npv(tp, fp, fn, tn):
    return tn / (tn + fp), tn / (tn + fn)
'''),
    dict(exercise="ex1-answer", rule="nan for THAT value only", message="only NPV's denominator is zero", source='''
def specificity_and_npv(tp, fp, fn, tn):
    if tn == 0:
        return float("nan"), float("nan")
    return tn / (tn + fp), tn / (tn + fn)
'''),
    # ---- Exercise 2: fbeta_from_counts(tp, fp, fn, beta), the count form; 0 when TP = 0; nan when all zero
    dict(exercise="ex2-answer", rule="beta is squared", message="beta squared", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    denominator = (1 + beta) * tp + beta * fn + fp
    return (1 + beta) * tp / denominator if denominator else float("nan")
'''),
    dict(exercise="ex2-answer", rule="the beta argument is used", message="beta squared", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    denominator = 2 * tp + fn + fp
    return 2 * tp / denominator if denominator else float("nan")
'''),
    dict(exercise="ex2-answer", rule="beta weighs FN, not FP", message="beta squared", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    b2 = beta ** 2
    denominator = (1 + b2) * tp + b2 * fp + fn
    return (1 + b2) * tp / denominator if denominator else float("nan")
'''),
    dict(exercise="ex2-answer", rule="the count form: 0 when TP = 0 (no 2PR/(P+R) crash)", message="use the count form",
         source='''
def fbeta_from_counts(tp, fp, fn, beta):
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)
'''),
    dict(exercise="ex2-answer", rule="TP = FP = FN = 0: nan, not 0", message="TP = FP = FN = 0", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    b2 = beta**2
    denominator = (1 + b2) * tp + b2 * fn + fp
    return (1 + b2) * tp / denominator if denominator else 0.0
'''),
    dict(exercise="ex2-answer", rule="TP = FP = FN = 0: nan, not a crash", message="TP = FP = FN = 0", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    b2 = beta**2
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
'''),
    # ---- Exercise 3: macro_and_weighted_f1(y_true, y_pred), classes of y_true or y_pred, weights = actual support
    dict(exercise="ex3-answer", rule="classes from y_true AND y_pred", message="a class seen only in y_pred", source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    f1, support = [], []
    for c in np.unique(y_true):
        tp = np.sum((y_true == c) & (y_pred == c))
        fp = np.sum((y_true != c) & (y_pred == c))
        fn = np.sum((y_true == c) & (y_pred != c))
        f1.append(2 * tp / (2 * tp + fp + fn))
        support.append(np.sum(y_true == c))
    return float(np.mean(f1)), float(np.average(f1, weights=support))
'''),
    dict(exercise="ex3-answer", rule="weighted by actual (not predicted) counts", message="actual samples", source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    f1, support = [], []
    for c in np.unique(np.concatenate([y_true, y_pred])):
        tp = np.sum((y_true == c) & (y_pred == c))
        fp = np.sum((y_true != c) & (y_pred == c))
        fn = np.sum((y_true == c) & (y_pred != c))
        f1.append(2 * tp / (2 * tp + fp + fn))
        support.append(np.sum(y_pred == c))
    return float(np.mean(f1)), float(np.average(f1, weights=support))
'''),
    dict(exercise="ex3-answer", rule="weighted is not the plain mean", message="actual samples", source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    f1 = []
    for c in np.unique(np.concatenate([y_true, y_pred])):
        tp = np.sum((y_true == c) & (y_pred == c))
        fp = np.sum((y_true != c) & (y_pred == c))
        fn = np.sum((y_true == c) & (y_pred != c))
        f1.append(2 * tp / (2 * tp + fp + fn))
    return float(np.mean(f1)), float(np.mean(f1))
'''),
    dict(exercise="ex3-answer", rule="macro F1 is per class (not micro)", message="macro F1 of the 8-sample example",
         source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    accuracy = float(np.mean(y_true == y_pred))
    return accuracy, accuracy
'''),
    dict(exercise="ex3-answer", rule="labels may be strings", message="labels may be strings", source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    f1, support = [], []
    for c in range(max(y_true.max(), y_pred.max()) + 1):
        tp = np.sum((y_true == c) & (y_pred == c))
        fp = np.sum((y_true != c) & (y_pred == c))
        fn = np.sum((y_true == c) & (y_pred != c))
        f1.append(2 * tp / (2 * tp + fp + fn))
        support.append(np.sum(y_true == c))
    return float(np.mean(f1)), float(np.average(f1, weights=support))
'''),
    dict(exercise="ex3-answer", rule="no scikit-learn metric functions", message="compute the F1 scores yourself", source='''
def macro_and_weighted_f1(y_true, y_pred):
    return (metrics.f1_score(y_true, y_pred, average="macro"),
            metrics.f1_score(y_true, y_pred, average="weighted"))
'''),
    # ---- Exercise 4: cohen_kappa(cm), a list of lists or an array, rows = actual
    dict(exercise="ex4-answer", rule="p_e from row AND column shares", message="kappa of the notes' matrix", source='''
def cohen_kappa(cm):
    cm = np.asarray(cm, dtype=float)
    n = cm.sum()
    p_o = np.trace(cm) / n
    p_e = np.sum(cm.sum(axis=1) ** 2) / n**2
    return (p_o - p_e) / (1 - p_e)
'''),
    dict(exercise="ex4-answer", rule="kappa corrects for chance (not p_o)", message="kappa of the notes' matrix", source='''
def cohen_kappa(cm):
    cm = np.asarray(cm, dtype=float)
    return np.trace(cm) / cm.sum()
'''),
    dict(exercise="ex4-answer", rule="cm may be a list of lists", message="list of lists", source='''
def cohen_kappa(cm):
    n = cm.sum()
    p_o = np.trace(cm) / n
    p_e = np.sum(cm.sum(axis=0) * cm.sum(axis=1)) / n**2
    return (p_o - p_e) / (1 - p_e)
'''),
    dict(exercise="ex4-answer", rule="no helpers: write kappa yourself", message="write kappa yourself", source='''
def cohen_kappa(cm):
    return kappa_by_hand(cm)["kappa"]
'''),
    dict(exercise="ex4-answer", rule="use the argument cm, not the example's numbers", message="compute kappa from cm",
         source='''
def cohen_kappa(cm):
    return 0.7509
'''),
    # ---- Exercise 5: cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn) -> "A" or "B", "A" on a tie
    dict(exercise="ex5-answer", rule="use the cost arguments, not the example's 2 and 30", message="cost_fp and cost_fn",
         source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_a = 2 * counts_a[1] + 30 * counts_a[2]
    cost_b = 2 * counts_b[1] + 30 * counts_b[2]
    return "A" if cost_a <= cost_b else "B"
'''),
    dict(exercise="ex5-answer", rule='"A" on a tie', message='on a tie', source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_a = cost_fp * counts_a[1] + cost_fn * counts_a[2]
    cost_b = cost_fp * counts_b[1] + cost_fn * counts_b[2]
    return "A" if cost_a < cost_b else "B"
'''),
    dict(exercise="ex5-answer", rule="return a str", message="return the string", source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_a = cost_fp * counts_a[1] + cost_fn * counts_a[2]
    cost_b = cost_fp * counts_b[1] + cost_fn * counts_b[2]
    return cost_a <= cost_b
'''),
    dict(exercise="ex5-answer", rule="counts are (tp, fp, fn, tn)", message="counts are (tp, fp, fn, tn)", source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_a = cost_fp * counts_a[2] + cost_fn * counts_a[1]
    cost_b = cost_fp * counts_b[2] + cost_fn * counts_b[1]
    return "A" if cost_a <= cost_b else "B"
'''),
]

# ---- appended for issue 30: the two costs swapped (students-and-accessibility review)
WRONG_ANSWERS += [
    dict(exercise="ex5-answer", rule="cost_fp multiplies FP, cost_fn multiplies FN (not swapped)",
         message="cost_fp multiplies FP and cost_fn multiplies FN", source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_a = cost_fn * counts_a[1] + cost_fp * counts_a[2]
    cost_b = cost_fn * counts_b[1] + cost_fp * counts_b[2]
    return "A" if cost_a <= cost_b else "B"
'''),
]

# ---- appended for issue 45: the course's functions called by name (binary_metrics, per_class_metrics are
# imported at the top of the notebook, so the word "helpers" is not in the answer), scikit-learn's per-class
# F1 under another name, the pairs in the other order, and kappa for two classes only
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="no course helpers (binary_metrics, called by name)",
         message="compute both values yourself", source='''
def specificity_and_npv(tp, fp, fn, tn):
    values = binary_metrics(tp, fp, fn, tn)
    return values["specificity"], values["npv"]
'''),
    dict(exercise="ex1-answer", rule="the pair in the order (specificity, npv)", message="specificity of buy_computer",
         source='''
def specificity_and_npv(tp, fp, fn, tn):
    specificity = tn / (tn + fp) if tn + fp else float("nan")
    npv = tn / (tn + fn) if tn + fn else float("nan")
    return npv, specificity
'''),
    dict(exercise="ex2-answer", rule="no course helpers (binary_metrics, called by name)",
         message="compute F-beta yourself", source='''
def fbeta_from_counts(tp, fp, fn, beta):
    return binary_metrics(tp, fp, fn, 1, beta=beta)["fbeta"]   # any tn: F-beta does not read it
'''),
    dict(exercise="ex3-answer", rule="no scikit-learn metric functions (precision_recall_fscore_support)",
         message="compute the F1 scores yourself", source='''
def macro_and_weighted_f1(y_true, y_pred):
    _, _, f1, support = metrics.precision_recall_fscore_support(y_true, y_pred, zero_division=0)
    return float(np.mean(f1)), float(np.average(f1, weights=support))
'''),
    dict(exercise="ex3-answer", rule="no course helpers (per_class_metrics, called by name)",
         message="compute the F1 scores yourself", source='''
def macro_and_weighted_f1(y_true, y_pred):
    table = per_class_metrics(np.asarray(y_true), np.asarray(y_pred))
    return float(table.loc["macro", "f1"]), float(table.loc["weighted", "f1"])
'''),
    dict(exercise="ex3-answer", rule="the pair in the order (macro_f1, weighted_f1)", message="macro F1 of the 8-sample",
         source='''
def macro_and_weighted_f1(y_true, y_pred):
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    f1, support = [], []
    for c in np.unique(np.concatenate([y_true, y_pred])):
        tp = np.sum((y_true == c) & (y_pred == c))
        f1.append(2 * tp / (2 * tp + np.sum((y_true != c) & (y_pred == c)) + np.sum((y_true == c) & (y_pred != c))))
        support.append(np.sum(y_true == c))
    return float(np.average(f1, weights=support)), float(np.mean(f1))
'''),
    dict(exercise="ex4-answer", rule="a square matrix of any size, not 2 x 2 only (unpacked: a crash)",
         message="any number of classes", source='''
def cohen_kappa(cm):
    (tn, fp), (fn, tp) = np.asarray(cm, dtype=float)
    n = tn + fp + fn + tp
    p_o = (tp + tn) / n
    p_e = ((tp + fn) * (tp + fp) + (tn + fp) * (tn + fn)) / n**2
    return (p_o - p_e) / (1 - p_e)
'''),
    dict(exercise="ex4-answer", rule="a square matrix of any size, not 2 x 2 only (its corner read)",
         message="kappa of the notes' matrix", source='''
def cohen_kappa(cm):
    (tn, fp), (fn, tp) = np.asarray(cm, dtype=float)[:2, :2]
    n = tn + fp + fn + tp
    p_o = (tp + tn) / n
    p_e = ((tp + fn) * (tp + fp) + (tn + fp) * (tn + fn)) / n**2
    return (p_o - p_e) / (1 - p_e)
'''),
    dict(exercise="ex5-answer", rule="no course helpers (binary_metrics, called by name)",
         message="compute both costs yourself", source='''
def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    rates_a, rates_b = binary_metrics(*counts_a), binary_metrics(*counts_b)
    cost_a = cost_fp * rates_a["fdr"] * (counts_a[0] + counts_a[1]) + cost_fn * rates_a["fnr"] * (counts_a[0] + counts_a[2])
    cost_b = cost_fp * rates_b["fdr"] * (counts_b[0] + counts_b[1]) + cost_fn * rates_b["fnr"] * (counts_b[0] + counts_b[2])
    return "A" if cost_a <= cost_b else "B"
'''),
]
