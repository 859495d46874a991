def calibration_error(y_true, y_prob, n_bins):
    frame = pd.DataFrame({"y": np.asarray(y_true, dtype=float), "p": np.asarray(y_prob, dtype=float)})
    edges = np.linspace(0, 1, n_bins + 1)
    frame["bin"] = pd.cut(frame["p"], edges, include_lowest=True, labels=False)
    groups = frame.groupby("bin")
    gaps = (groups["y"].mean() - groups["p"].mean()).abs()
    weights = groups.size() / len(frame)
    return float((gaps * weights).sum())
