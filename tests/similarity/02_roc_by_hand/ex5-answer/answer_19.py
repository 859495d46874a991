def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    which = np.digitize(p, np.linspace(0, 1, n_bins + 1)[1:-1], right=True)
    present = np.unique(which)
    gaps = [abs(y[which == b].mean() - p[which == b].mean()) for b in present]
    sizes = [np.sum(which == b) for b in present]
    return float(np.average(gaps, weights=sizes))
