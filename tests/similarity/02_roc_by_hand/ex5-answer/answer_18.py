def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    bounds = np.linspace(0, 1, n_bins + 1)
    masks = [((p > lo) | (p == 0) if i == 0 else (p > lo)) & (p <= hi)
             for i, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))]
    return float(sum(m.sum() * abs(y[m].mean() - p[m].mean()) for m in masks if m.any()) / p.size)
