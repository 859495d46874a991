def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    n_pos = np.sum(y == 1)
    best = 0.0
    for t in np.unique(s):
        called = s >= t
        tp = np.sum(called & (y == 1))
        if tp / n_pos >= min_recall:
            best = max(best, tp / called.sum())
    return float(best)
