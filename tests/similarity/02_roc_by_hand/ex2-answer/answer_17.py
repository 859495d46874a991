def auc_by_pairs(y_true, y_score):
    frame = pd.DataFrame({"label": np.asarray(y_true), "score": np.asarray(y_score, dtype=float)})
    pos = frame.loc[frame.label == 1, ["score"]]
    neg = frame.loc[frame.label == 0, ["score"]]
    pairs = pos.merge(neg, how="cross", suffixes=("_pos", "_neg"))
    points = np.where(pairs.score_pos > pairs.score_neg, 1.0,
                      np.where(pairs.score_pos == pairs.score_neg, 0.5, 0.0))
    return float(points.mean())
