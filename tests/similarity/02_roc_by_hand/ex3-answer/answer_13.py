def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    pos = np.sort(s[y == 1])
    neg = np.sort(s[y == 0])
    candidates = np.concatenate(([np.inf], np.unique(s)[::-1]))
    fn = np.searchsorted(pos, candidates, side="left")
    fp = neg.size - np.searchsorted(neg, candidates, side="left")
    costs = cost_fp * fp + cost_fn * fn
    return candidates[int(np.argmin(costs))]
