def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    p = np.asarray(predictions, dtype=float)
    deviations = p - p.mean()
    n = p.size
    return float((p.mean() - true_value) ** 2), float(deviations @ deviations / n)
