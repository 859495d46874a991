def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true) == 1
    s = np.asarray(y_score, dtype=float)
    t = np.unique(s)
    called = s[None, :] >= t[:, None]
    tp = (called & y).sum(axis=1)
    recall = tp / y.sum()
    precision = tp / called.sum(axis=1)
    return float(np.max(precision, where=recall >= min_recall, initial=0.0))
