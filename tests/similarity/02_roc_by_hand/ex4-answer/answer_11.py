def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)

    def point(t):
        chosen = y[s >= t]
        return (chosen == 1).sum() / (y == 1).sum(), (chosen == 1).mean()

    candidates = filter(lambda rp: rp[0] >= min_recall, map(point, np.unique(s)))
    return float(max(p for _, p in candidates))
