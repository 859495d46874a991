def count_errors(y_true, y_score, threshold):
    fp = fn = 0
    for label, score in zip(y_true, y_score):
        if score >= threshold and label == 0:
            fp += 1
        elif score < threshold and label == 1:
            fn += 1
    return fp, fn


def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    best = np.inf
    fp, fn = count_errors(y_true, y_score, best)
    lowest = cost_fp * fp + cost_fn * fn
    for threshold in sorted(set(y_score), reverse=True):
        fp, fn = count_errors(y_true, y_score, threshold)
        if cost_fp * fp + cost_fn * fn < lowest:
            best, lowest = threshold, cost_fp * fp + cost_fn * fn
    return best
