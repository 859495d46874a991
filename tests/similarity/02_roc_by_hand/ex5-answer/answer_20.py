def calibration_error(y_true, y_prob, n_bins):
    prob = pd.Series(np.asarray(y_prob, dtype=float))
    label = pd.Series(np.asarray(y_true, dtype=float))
    edges = np.linspace(0, 1, n_bins + 1)
    bucket = prob.apply(lambda v: max(int(np.searchsorted(edges, v, side="left")) - 1, 0))
    residual = (label - prob).groupby(bucket).sum().abs()
    return float(residual.sum() / len(prob))
