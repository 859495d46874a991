def calibration_error(y_true, y_prob, n_bins):
    probs = np.asarray(y_prob, dtype=float)
    bins = pd.cut(pd.Series(probs), bins=np.linspace(0, 1, n_bins + 1), include_lowest=True)
    frame = pd.DataFrame({"y": np.asarray(y_true, dtype=float), "p": probs, "bin": bins})
    stats = frame.groupby("bin", observed=True).agg(count=("y", "size"), y=("y", "mean"), p=("p", "mean"))
    return float((stats["count"] * (stats["y"] - stats["p"]).abs()).sum() / len(frame))
