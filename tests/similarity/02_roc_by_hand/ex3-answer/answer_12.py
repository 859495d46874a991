def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)

    def cost(t):
        return cost_fp * np.sum((s >= t) & (y == 0)) + cost_fn * np.sum((s < t) & (y == 1))

    return max([np.inf, *np.unique(s)], key=lambda t: (-cost(t), t))
