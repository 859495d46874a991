def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    bins = np.clip(np.digitize(p, edges[1:-1], right=True), 0, n_bins - 1)
    ece = 0.0
    for b in np.unique(bins):
        sel = bins == b
        ece += sel.mean() * abs(y[sel].mean() - p[sel].mean())
    return float(ece)
