def precision_at_recall(y_true, y_score, min_recall):
    y = pd.Series(np.asarray(y_true))
    s = pd.Series(np.asarray(y_score, dtype=float))
    rows = []
    for t in s.unique():
        called = s >= t
        hits = (called & (y == 1)).sum()
        rows.append({"recall": hits / (y == 1).sum(), "precision": hits / called.sum()})
    table = pd.DataFrame(rows)
    return float(table.loc[table.recall >= min_recall, "precision"].max())
