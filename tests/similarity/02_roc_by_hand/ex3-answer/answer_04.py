def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    order = np.argsort(-s, kind="stable")
    s_sorted, y_sorted = s[order], y[order]
    distinct = np.r_[s_sorted[1:] != s_sorted[:-1], True]
    fp = np.cumsum(y_sorted == 0)[distinct]
    tp = np.cumsum(y_sorted == 1)[distinct]
    fn = y.sum() - tp
    costs = np.r_[cost_fn * y.sum(), cost_fp * fp + cost_fn * fn]
    thresholds = np.r_[np.inf, s_sorted[distinct]]
    return thresholds[np.argmin(costs)]
