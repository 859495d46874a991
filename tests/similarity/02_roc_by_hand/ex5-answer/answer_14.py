def calibration_error(y_true, y_prob, n_bins):
    y = np.asarray(y_true, dtype=float)
    p = np.asarray(y_prob, dtype=float)
    k = np.digitize(p, np.linspace(0, 1, n_bins + 1)[1:-1], right=True)
    ids, counts = np.unique(k, return_counts=True)
    freq = np.array([y[k == i].mean() for i in ids])
    conf = np.array([p[k == i].mean() for i in ids])
    return float(np.sum(counts / len(p) * np.abs(freq - conf)))
