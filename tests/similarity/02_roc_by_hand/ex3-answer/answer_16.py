def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true).astype(int)
    s = np.asarray(y_score, dtype=float)
    values, inverse = np.unique(s, return_inverse=True)
    neg_per_value = np.bincount(inverse, weights=1 - y, minlength=values.size)
    pos_per_value = np.bincount(inverse, weights=y, minlength=values.size)
    fp = np.cumsum(neg_per_value[::-1])
    fn = y.sum() - np.cumsum(pos_per_value[::-1])
    thresholds = np.concatenate(([np.inf], values[::-1]))
    costs = np.concatenate(([cost_fn * y.sum()], cost_fp * fp + cost_fn * fn))
    return thresholds[np.argmin(costs)]
