def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    last = np.r_[s[1:] != s[:-1], True]
    tp = np.cumsum(y == 1)[last]
    called = np.arange(1, len(s) + 1)[last]
    recall = tp / tp[-1]
    precision = tp / called
    return float(precision[recall >= min_recall].max())
