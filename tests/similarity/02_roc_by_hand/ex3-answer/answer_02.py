def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=float)
    candidates = np.append(np.unique(scores), np.inf)
    costs = np.array([cost_fp * np.sum((scores >= t) & (labels == 0)) + cost_fn * np.sum((scores < t) & (labels == 1))
                      for t in candidates])
    return candidates[costs == costs.min()].max()
