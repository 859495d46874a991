def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=float)
    cost = cost_fn * np.sum(labels == 1)
    best_cost, best_threshold = cost, np.inf
    for t in np.unique(scores)[::-1]:
        at_t = scores == t
        cost += cost_fp * np.sum(at_t & (labels == 0)) - cost_fn * np.sum(at_t & (labels == 1))
        if cost < best_cost:
            best_cost, best_threshold = cost, t
    return best_threshold
