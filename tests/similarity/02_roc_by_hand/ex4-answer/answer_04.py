def precision_at_recall(y_true, y_score, min_recall):
    frame = pd.DataFrame({"y": np.asarray(y_true), "s": np.asarray(y_score, dtype=float)})
    per_score = frame.groupby("s")["y"].agg(["sum", "size"]).sort_index(ascending=False)
    tp = per_score["sum"].cumsum()
    called = per_score["size"].cumsum()
    recall = tp / frame["y"].sum()
    precision = tp / called
    return float(precision[recall >= min_recall].max())
