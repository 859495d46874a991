def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    scores = np.asarray(y_score, dtype=float)
    positive = np.asarray(y_true) == 1
    cost_of = {}
    for t in np.concatenate(([np.inf], np.unique(scores))):
        predicted = scores >= t
        cost_of[t] = (cost_fp * np.count_nonzero(predicted & ~positive)
                      + cost_fn * np.count_nonzero(~predicted & positive))
    cheapest = min(cost_of.values())
    return max(t for t, c in cost_of.items() if c == cheapest)
