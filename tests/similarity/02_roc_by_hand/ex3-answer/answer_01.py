def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    candidates = [np.inf] + sorted(set(s.tolist()), reverse=True)
    best_t, best_c = None, np.inf
    for t in candidates:
        called = s >= t
        c = cost_fp * np.sum(called & (y == 0)) + cost_fn * np.sum(~called & (y == 1))
        if c < best_c:
            best_t, best_c = t, c
    return best_t
