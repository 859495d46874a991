def precision_at_recall(y_true, y_score, min_recall):
    labels = list(y_true)
    scores = list(y_score)
    thresholds = sorted(set(scores), reverse=True)
    n_positive = labels.count(1)
    best_precision = 0.0
    i = 0
    while i < len(thresholds):
        t = thresholds[i]
        flagged = [l for l, s in zip(labels, scores) if s >= t]
        recall = flagged.count(1) / n_positive
        if recall >= min_recall:
            best_precision = max(best_precision, flagged.count(1) / len(flagged))
        i += 1
    return best_precision
