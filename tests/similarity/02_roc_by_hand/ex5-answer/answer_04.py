def calibration_error(y_true, y_prob, n_bins):
    probs = np.asarray(y_prob, dtype=float)
    labels = np.asarray(y_true, dtype=float)
    inner = np.linspace(0, 1, n_bins + 1)[1:-1]
    index = np.searchsorted(inner, probs)
    n = len(probs)
    error = 0.0
    for k in set(index.tolist()):
        chosen = index == k
        error += chosen.sum() / n * abs(labels[chosen].mean() - probs[chosen].mean())
    return float(error)
