def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    P = np.count_nonzero(y)
    options = []
    for t in np.unique(s):
        sel = s >= t
        tp = np.count_nonzero(y[sel])
        options.append((tp / P >= min_recall, tp / sel.sum()))
    return float(max(prec for ok, prec in options if ok))
