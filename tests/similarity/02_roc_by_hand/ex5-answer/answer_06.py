def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    idx = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p, side="left")
    counts = np.bincount(idx, minlength=n_bins)
    sum_y = np.bincount(idx, weights=y, minlength=n_bins)
    sum_p = np.bincount(idx, weights=p, minlength=n_bins)
    filled = counts > 0
    gaps = np.abs(sum_y[filled] - sum_p[filled])
    return float(gaps.sum() / len(p))
