def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    pos = np.sort(s[y == 1])
    everything = np.sort(s)
    thresholds = np.unique(s)
    tp = pos.size - np.searchsorted(pos, thresholds, side="left")
    called = everything.size - np.searchsorted(everything, thresholds, side="left")
    ok = tp / pos.size >= min_recall
    return float((tp[ok] / called[ok]).max())
