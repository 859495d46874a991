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
    # ---- Exercise 5: calibration_error(y_true, y_prob, n_bins), the expected calibration error (section 11)
    dict(exercise="ex5-answer", rule="the absolute gap in each bin", message="Take the absolute gap", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * (y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="each gap weighted by its bin's share of the samples",
         message="Weight each bin's gap by its share of the samples", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    gaps = [abs(y_true[bin_of == k].mean() - y_prob[bin_of == k].mean()) for k in range(n_bins) if (bin_of == k).any()]
    return float(np.mean(gaps))
'''),
    dict(exercise="ex5-answer", rule="a probability on an edge belongs to the bin below it",
         message="belongs to the bin below it", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.minimum((y_prob * n_bins).astype(int), n_bins - 1)  # [k/n, (k+1)/n): edges go up
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="p = 1 belongs to the last bin (an index past the end crashes)",
         message="p = 1 belongs to the last bin", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.floor(y_prob * n_bins).astype(int)  # p = 1 gets bin n_bins, past the end
    counts, sums, hits = np.zeros(n_bins), np.zeros(n_bins), np.zeros(n_bins)
    for b, p, y in zip(bin_of, y_prob, y_true):
        counts[b] += 1
        sums[b] += p
        hits[b] += y
    full = counts > 0
    return float(np.sum(np.abs(hits[full] - sums[full])) / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="p = 1 belongs to the last bin (a sample past the end is lost)",
         message="p = 1 belongs to the last bin", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.floor(y_prob * n_bins).astype(int)
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="p = 0 belongs to the first bin", message="p = 0 belongs to the first bin",
         source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.ceil(y_prob * n_bins).astype(int) - 1  # p = 0 gets bin -1, which no loop visits
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="an empty bin adds nothing (its mean is NaN)", message="an empty bin adds nothing",
         source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    counts = np.bincount(bin_of, minlength=n_bins)
    observed = np.bincount(bin_of, weights=y_true, minlength=n_bins) / counts
    predicted = np.bincount(bin_of, weights=y_prob, minlength=n_bins) / counts
    return float(np.sum(counts * np.abs(observed - predicted)) / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="an empty bin adds nothing (a division by its zero count)",
         message="an empty bin adds nothing", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = list(y_true), list(y_prob)
    total = 0.0
    for k in range(n_bins):
        members = [i for i, p in enumerate(y_prob) if k / n_bins < p <= (k + 1) / n_bins or (k == 0 and p == 0)]
        observed = sum(y_true[i] for i in members) / len(members)
        predicted = sum(y_prob[i] for i in members) / len(members)
        total += len(members) * abs(observed - predicted)
    return total / len(y_true)
'''),
    dict(exercise="ex5-answer", rule="inputs may be lists (np.asarray)", message="start with np.asarray", source='''
def calibration_error(y_true, y_prob, n_bins):
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex5-answer", rule="return a float", message="return a float", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    gaps = [(bin_of == k).sum() * abs(y_true[bin_of == k].mean() - y_prob[bin_of == k].mean())
            for k in range(n_bins) if (bin_of == k).any()]
    return f"{sum(gaps) / len(y_true):.4f}"  # a string prints nicely, but it is not a number
'''),
    dict(exercise="ex5-answer", rule="no calibration_curve or helpers.calibration",
         message="do not use calibration_curve or helpers.calibration", source='''
def calibration_error(y_true, y_prob, n_bins):
    from helpers.calibration import expected_calibration_error
    return expected_calibration_error(y_true, y_prob, n_bins)
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
    # ---- Exercise 6: mcnemar_p_value(y_true, y_pred_a, y_pred_b): exact two-sided, capped at 1, 1.0 without
    # discordant samples, labels of any kind in lists or arrays, no binomtest
    dict(exercise="ex6-answer", rule="two-sided: twice the tail", message="the test is two-sided", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    return float(sum(math.comb(b + c, i) for i in range(min(b, c) + 1)) / 2 ** (b + c))
'''),
    dict(exercise="ex6-answer", rule="only the discordant samples count", message="do not count", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    n = len(y_true)
    return float(min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n))
'''),
    dict(exercise="ex6-answer", rule="a p-value is at most 1", message="cap it", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    return float(2 * sum(math.comb(b + c, i) for i in range(min(b, c) + 1)) / 2 ** (b + c))
'''),
    dict(exercise="ex6-answer", rule="no discordant sample: 1.0", message="return 1.0", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    return float(min(1.0, 2 * sum(math.comb(b + c, i) for i in range(min(b, c) + 1)) / 2 ** (b + c)
                     * (b + c) / (b + c)))
'''),
    dict(exercise="ex6-answer", rule="inputs may be lists", message="inputs may be lists", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    right_a, right_b = y_pred_a == y_true, y_pred_b == y_true
    b, c = int(np.sum(right_a & ~right_b)), int(np.sum(~right_a & right_b))
    return float(min(1.0, 2 * sum(math.comb(b + c, i) for i in range(min(b, c) + 1)) / 2 ** (b + c)))
'''),
    dict(exercise="ex6-answer", rule="labels may be any values, not only 0 and 1", message="labels may be words", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true, y_pred_a, y_pred_b = (np.asarray(v, dtype=float) for v in (y_true, y_pred_a, y_pred_b))
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    return float(min(1.0, 2 * sum(math.comb(b + c, i) for i in range(min(b, c) + 1)) / 2 ** (b + c)))
'''),
]

# ---- appended for issue 45: the course's functions called by name (imported at the top of the notebook, so
# the word "helpers" is not in the answer), a calibration error that rejects one class alone, and McNemar's
# p-value from binomtest or mcnemar_test
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="count yourself: no course function (confusion_counts of helpers.metrics)",
         message="count yourself", source='''
def roc_point(y_true, y_score, threshold):
    tp, fp, fn, tn = confusion_counts(np.asarray(y_true), np.asarray(y_score) >= threshold)
    return fp / (fp + tn), tp / (tp + fn)
'''),
    dict(exercise="ex2-answer", rule="count the pairs yourself: no course function (auc_rank of helpers.roc)",
         message="count yourself", source='''
def auc_by_pairs(y_true, y_score):
    return float(auc_rank(np.asarray(y_true), np.asarray(y_score)))
'''),
    dict(exercise="ex3-answer", rule="no scikit-learn metric functions (confusion_matrix)",
         message="do not use scikit-learn's metric functions", source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    from sklearn.metrics import confusion_matrix
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best, best_cost = None, None
    for t in [np.inf, *sorted(set(y_score.tolist()), reverse=True)]:
        tn, fp, fn, tp = confusion_matrix(y_true, y_score >= t, labels=[0, 1]).ravel()
        cost = cost_fp * fp + cost_fn * fn
        if best_cost is None or cost < best_cost:
            best, best_cost = t, cost
    return best
'''),
    dict(exercise="ex3-answer", rule="no course function (threshold_state of helpers.roc)", message="count yourself",
         source='''
def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    state = threshold_state(np.asarray(y_true), np.asarray(y_score), 0.5, cost_fp, cost_fn)
    return state["cost_optimal"]["threshold"]
'''),
    dict(exercise="ex4-answer", rule="count yourself: no course function (confusion_counts of helpers.metrics)",
         message="count yourself", source='''
def precision_at_recall(y_true, y_score, min_recall):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    best = 0.0
    for t in set(y_score.tolist()):
        tp, fp, fn, tn = confusion_counts(y_true, y_score >= t)
        if tp / (tp + fn) >= min_recall:
            best = max(best, tp / (tp + fp))
    return float(best)
'''),
    dict(exercise="ex5-answer", rule="labels are 0 and 1, one class alone is allowed (not rejected)",
         message="one class alone is allowed", source='''
def calibration_error(y_true, y_prob, n_bins):
    y_true, y_prob = np.asarray(y_true, dtype=float), np.asarray(y_prob, dtype=float)
    if np.unique(y_true).size < 2:
        raise ValueError("y_true must hold both classes")
    bin_of = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], y_prob)
    total = 0.0
    for k in range(n_bins):
        in_bin = bin_of == k
        if in_bin.any():
            total += in_bin.sum() * abs(y_true[in_bin].mean() - y_prob[in_bin].mean())
    return float(total / len(y_true))
'''),
    dict(exercise="ex6-answer", rule="compute the p-value yourself, not with scipy's binomtest",
         message="compute the p-value yourself", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    from scipy.stats import binomtest
    y_true, y_pred_a, y_pred_b = np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)
    b = int(np.sum((y_pred_a == y_true) & (y_pred_b != y_true)))
    c = int(np.sum((y_pred_a != y_true) & (y_pred_b == y_true)))
    return float(binomtest(b, b + c).pvalue) if b + c else 1.0
'''),
    dict(exercise="ex6-answer", rule="no course function (mcnemar_test of helpers.metrics, called by name)",
         message="compute the p-value yourself", source='''
def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    return float(mcnemar_test(np.asarray(y_true), np.asarray(y_pred_a), np.asarray(y_pred_b)).p_value)
'''),
]
