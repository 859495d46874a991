def auc_by_pairs(y_true, y_score):
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=float)
    neg = np.sort(y_score[y_true == 0])
    pos = y_score[y_true == 1]
    below = np.searchsorted(neg, pos, side="left")
    at_or_below = np.searchsorted(neg, pos, side="right")
    ties = at_or_below - below
    return float((below.sum() + 0.5 * ties.sum()) / (pos.size * neg.size))
