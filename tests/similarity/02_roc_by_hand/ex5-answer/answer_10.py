def calibration_error(y_true, y_prob, n_bins):
    df = pd.DataFrame({"label": np.asarray(y_true, dtype=float), "prob": np.asarray(y_prob, dtype=float)})
    df["bin"] = np.digitize(df["prob"], np.linspace(0, 1, n_bins + 1)[1:-1], right=True)
    summary = df.groupby("bin").agg(n=("label", "size"), freq=("label", "mean"), conf=("prob", "mean"))
    return float((summary.n * (summary.freq - summary.conf).abs()).sum() / len(df))
