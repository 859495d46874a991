def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y = pd.Series(np.asarray(y_true))
    s = pd.Series(np.asarray(y_score, dtype=float))
    table = pd.DataFrame({"threshold": [np.inf] + sorted(s.unique().tolist())})
    table["fp"] = [((s >= t) & (y == 0)).sum() for t in table.threshold]
    table["fn"] = [((s < t) & (y == 1)).sum() for t in table.threshold]
    table["cost"] = cost_fp * table.fp + cost_fn * table.fn
    cheapest = table[table.cost == table.cost.min()]
    return float(cheapest.threshold.max())
