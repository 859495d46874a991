def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    total = 0.0
    for k in range(n_bins):
        lo, hi = edges[k], edges[k + 1]
        members = (p > lo) & (p <= hi)
        if k == 0:
            members |= p == 0
        if members.any():
            total += members.sum() / len(p) * abs(y[members].mean() - p[members].mean())
    return float(total)
