def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    n_pos = (y == 1).sum()
    tp_at = np.vectorize(lambda t: ((s >= t) & (y == 1)).sum())
    n_at = np.vectorize(lambda t: (s >= t).sum())
    t = np.unique(s)
    tp = tp_at(t)
    rec = tp / n_pos
    return float((tp / n_at(t))[rec >= min_recall].max())
