def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    thresholds = np.unique(s)
    tps = np.fromiter((np.sum((s >= t) & (y == 1)) for t in thresholds), dtype=float)
    calls = np.fromiter((np.sum(s >= t) for t in thresholds), dtype=float)
    keep = tps / np.sum(y == 1) >= min_recall
    return float(np.max(tps[keep] / calls[keep]))
