def auc_by_pairs(y_true, y_score):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    thresholds = np.r_[np.inf, np.unique(s)[::-1]]
    tpr = np.array([np.mean(s[y == 1] >= t) for t in thresholds])
    fpr = np.array([np.mean(s[y == 0] >= t) for t in thresholds])
    return float(np.trapezoid(tpr, fpr))
