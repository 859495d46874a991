def auc_by_pairs(y_true, y_score):
    frame = pd.DataFrame({"y": list(y_true), "s": list(y_score)})
    frame["rank"] = frame["s"].rank()
    n1 = (frame["y"] == 1).sum()
    n0 = (frame["y"] == 0).sum()
    u = frame.loc[frame["y"] == 1, "rank"].sum() - n1 * (n1 + 1) / 2
    return float(u / (n1 * n0))
