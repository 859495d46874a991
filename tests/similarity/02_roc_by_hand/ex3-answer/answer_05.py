def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    frame = pd.DataFrame({"y": np.asarray(y_true), "s": np.asarray(y_score, dtype=float)})
    counts = frame.groupby("s")["y"].agg(["sum", "count"]).sort_index(ascending=False)
    positives_called = counts["sum"].cumsum()
    negatives_called = (counts["count"] - counts["sum"]).cumsum()
    total_pos = frame["y"].sum()
    cost = cost_fp * negatives_called + cost_fn * (total_pos - positives_called)
    best = cost.min()
    nobody = cost_fn * total_pos
    if nobody <= best:
        return np.inf
    return float(cost[cost == best].index.max())
