def recall_and_precision(y, s, t):
    called = s >= t
    tp = np.count_nonzero(called & (y == 1))
    return tp / np.count_nonzero(y == 1), tp / np.count_nonzero(called)


def precision_at_recall(y_true, y_score, min_recall):
    y, s = np.asarray(y_true), np.asarray(y_score, dtype=float)
    points = [recall_and_precision(y, s, t) for t in np.unique(s)]
    return float(max(p for r, p in points if r >= min_recall))
