def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    scores = np.asarray(y_score, dtype=float)
    labels = np.asarray(y_true)
    best_threshold, best_cost = None, None
    for t in list(np.unique(scores)) + [np.inf]:
        cost = (cost_fp * int(np.sum((scores >= t) & (labels == 0)))
                + cost_fn * int(np.sum((scores < t) & (labels == 1))))
        if best_cost is None or cost <= best_cost:
            best_threshold, best_cost = t, cost
    return best_threshold
