def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    best = np.inf
    best_cost = cost_fn * (y == 1).sum()
    for t in sorted(np.unique(s), reverse=True):
        pred = np.where(s >= t, 1, 0)
        fp = ((pred == 1) & (y == 0)).sum()
        fn = ((pred == 0) & (y == 1)).sum()
        total = cost_fp * fp + cost_fn * fn
        if total < best_cost:
            best, best_cost = t, total
    return best
