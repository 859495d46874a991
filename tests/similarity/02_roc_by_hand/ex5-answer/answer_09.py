def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    which = np.maximum(np.searchsorted(edges, p, side="left") - 1, 0)
    diff = np.zeros(n_bins)
    np.add.at(diff, which, y - p)
    return float(np.abs(diff).sum() / p.size)
