"""Plausible wrong answers to notebook 02's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: roc_point(y_true, y_score, threshold) -> (fpr, tpr), positive when score >= threshold
    dict(exercise="ex1-answer", rule="a score equal to the threshold is positive", message="Is 0.55 itself positive?",
         source='''
def roc_point(y_true, y_score, threshold):
    y_true, predicted = np.asarray(y_true), np.asarray(y_score) > threshold
    tp = np.sum(predicted & (y_true == 1))
    fp = np.sum(predicted & (y_true == 0))
    return fp / np.sum(y_true == 0), tp / np.sum(y_true == 1)
'''),
    dict(exercise="ex1-answer", rule="the pair is (fpr, tpr), in this order", message="(fpr, tpr)", source='''
def roc_point(y_true, y_score, threshold):
    y_true, predicted = np.asarray(y_true), np.asarray(y_score) >= threshold
    tp = np.sum(predicted & (y_true == 1))
    fp = np.sum(predicted & (y_true == 0))
    return tp / np.sum(y_true == 1), fp / np.sum(y_true == 0)
'''),
    dict(exercise="ex1-answer", rule="FPR divides by the actual negatives", message="FPR = FP / negatives", source='''
def roc_point(y_true, y_score, threshold):
    y_true, predicted = np.asarray(y_true), np.asarray(y_score) >= threshold
    tp = np.sum(predicted & (y_true == 1))
    fp = np.sum(predicted & (y_true == 0))
    return fp / len(y_true), tp / np.sum(y_true == 1)
'''),
    dict(exercise="ex1-answer", rule="inputs may be lists (np.asarray)", message="start with np.asarray", source='''
def roc_point(y_true, y_score, threshold):
    predicted = y_score >= threshold
    tp = np.sum(predicted & (y_true == 1))
    fp = np.sum(predicted & (y_true == 0))
    return fp / np.sum(y_true == 0), tp / np.sum(y_true == 1)
'''),
    dict(exercise="ex1-answer", rule="no scikit-learn metric functions", message="do not use scikit-learn's metric functions",
         source='''
def roc_point(y_true, y_score, threshold):
    from sklearn.metrics import confusion_matrix
    tn, fp, fn, tp = confusion_matrix(y_true, np.asarray(y_score) >= threshold).ravel()
    return fp / (fp + tn), tp / (tp + fn)
'''),
    # ---- Exercise 2: auc_by_pairs(y_true, y_score), a tie counts one half
    dict(exercise="ex2-answer", rule="a tie counts one half (not 0)", message="a tie counts one half", source='''
def auc_by_pairs(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1][:, None], y_score[y_true == 0][None, :]
    return float((pos > neg).sum() / (pos.size * neg.size))
'''),
    dict(exercise="ex2-answer", rule="a tie counts one half (not 1)", message="a tie counts one half", source='''
def auc_by_pairs(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1][:, None], y_score[y_true == 0][None, :]
    return float((pos >= neg).sum() / (pos.size * neg.size))
'''),
    dict(exercise="ex2-answer", rule="the share of (positive, negative) pairs", message="19 of 25", source='''
def auc_by_pairs(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1][:, None], y_score[y_true == 0][None, :]
    n = len(y_true)
    return float(((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (n * (n - 1) / 2))
'''),
    dict(exercise="ex2-answer", rule="inputs may be lists (np.asarray)", message="start with np.asarray", source='''
def auc_by_pairs(y_true, y_score):
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    pos, neg = pos[:, None], neg[None, :]
    return float(((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (pos.size * neg.size))
'''),
    dict(exercise="ex2-answer", rule="no scikit-learn metric functions", message="do not use scikit-learn's metric functions",
         source='''
def auc_by_pairs(y_true, y_score):
    from sklearn.metrics import roc_auc_score
    return float(roc_auc_score(y_true, y_score))
'''),
    # ---- Exercise 3: cheapest_threshold(y_true, y_score, cost_fp, cost_fn), candidates inf + scores, highest on a tie
    dict(exercise="ex3-answer", rule="np.inf is a candidate", message="return np.inf", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in sorted(set(y_score.tolist()), reverse=True):
        predicted = y_score >= t
        cost = cost_fp * np.sum(predicted & (y_true == 0)) + cost_fn * np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
'''),
    dict(exercise="ex3-answer", rule="on a tie the highest threshold", message="on a tie return the highest threshold",
         source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        predicted = y_score >= t
        cost = cost_fp * np.sum(predicted & (y_true == 0)) + cost_fn * np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost <= best_cost:
            best, best_cost = t, cost
    return best
'''),
    dict(exercise="ex3-answer", rule="use the cost arguments", message="a missed positive costs 5", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        predicted = y_score >= t
        cost = np.sum(predicted & (y_true == 0)) + np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
'''),
    dict(exercise="ex3-answer", rule="cost_fp weighs FP, cost_fn weighs FN", message="a missed positive costs 5", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        predicted = y_score >= t
        cost = cost_fn * np.sum(predicted & (y_true == 0)) + cost_fp * np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
'''),
    dict(exercise="ex3-answer", rule="return the threshold, not the cost", message="equal costs", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    costs = []
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        predicted = y_score >= t
        costs.append(cost_fp * np.sum(predicted & (y_true == 0)) + cost_fn * np.sum(~predicted & (y_true == 1)))
    return min(costs)
'''),
    dict(exercise="ex3-answer", rule="inputs may be lists or tuples (np.asarray)", message="start with np.asarray", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score), reverse=True)]:
        predicted = y_score >= t
        cost = cost_fp * np.sum(predicted & (y_true == 0)) + cost_fn * np.sum(~predicted & (y_true == 1))
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
'''),
    # ---- Exercise 4: precision_at_recall(y_true, y_score, min_recall), the highest precision with recall >= min_recall
    dict(exercise="ex4-answer", rule="the HIGHEST precision, not the first threshold reaching the recall",
         message="0.55 does better", source='''
def precision_at_recall(y_true, y_score, min_recall):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    for t in sorted(set(y_score.tolist()), reverse=True):
        predicted = y_score >= t
        tp = np.sum(predicted & (y_true == 1))
        if tp / np.sum(y_true == 1) >= min_recall:
            return float(tp / np.sum(predicted))
    return 0.0
'''),
    dict(exercise="ex4-answer", rule="recall at least min_recall (>=, not >)", message="recall >= 0.8", source='''
def precision_at_recall(y_true, y_score, min_recall):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best = 0.0
    for t in set(y_score.tolist()):
        predicted = y_score >= t
        tp = np.sum(predicted & (y_true == 1))
        if tp / np.sum(y_true == 1) > min_recall:
            best = max(best, tp / np.sum(predicted))
    return float(best)
'''),
    dict(exercise="ex4-answer", rule="precision is TP / predicted positives", message="recall >= 0.8", source='''
def precision_at_recall(y_true, y_score, min_recall):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best = 0.0
    for t in set(y_score.tolist()):
        predicted = y_score >= t
        tp = np.sum(predicted & (y_true == 1))
        if tp / np.sum(y_true == 1) >= min_recall:
            best = max(best, tp / len(y_true))
    return float(best)
'''),
    dict(exercise="ex4-answer", rule="inputs may be lists (np.asarray)", message="start with np.asarray", source='''
def precision_at_recall(y_true, y_score, min_recall):
    best = 0.0
    for t in set(y_score.tolist()):
        predicted = y_score >= t
        tp = np.sum(predicted & (y_true == 1))
        if tp / np.sum(y_true == 1) >= min_recall:
            best = max(best, tp / np.sum(predicted))
    return float(best)
'''),
    dict(exercise="ex4-answer", rule="no scikit-learn metric functions", message="do not use scikit-learn's metric functions",
         source='''
def precision_at_recall(y_true, y_score, min_recall):
    from sklearn.metrics import precision_recall_curve
    precision, recall, _ = precision_recall_curve(y_true, y_score)
    return float(precision[:-1][recall[:-1] >= min_recall].max())
'''),
]

# ---- appended for issue 20: sweeps that ignore tied scores (one example or rank at a time)
WRONG_ANSWERS += [
    dict(exercise="ex3-answer", rule="tied scores: a threshold takes every example of a score or none",
         message="the two scores of 0.7 are tied", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    order = np.argsort(-y_score, kind="stable")
    labels = y_true[order]
    best, best_cost = np.inf, cost_fn * np.sum(y_true == 1)
    for k in range(1, len(order) + 1):
        cost = cost_fp * np.sum(labels[:k] == 0) + cost_fn * np.sum(labels[k:] == 1)
        if cost < best_cost:
            best, best_cost = y_score[order[k - 1]], cost
    return best
'''),
    dict(exercise="ex4-answer", rule="tied scores: the thresholds are the distinct scores, not the ranks",
         message="the two scores of 0.9 are tied", source='''
def precision_at_recall(y_true, y_score, min_recall):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    labels = y_true[np.argsort(-y_score, kind="stable")]
    tp = np.cumsum(labels == 1)
    reached = tp / np.sum(y_true == 1) >= min_recall
    return float(np.max((tp / np.arange(1, len(labels) + 1))[reached]))
'''),
]
