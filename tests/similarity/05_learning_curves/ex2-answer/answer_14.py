def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    p = np.asarray(predictions).astype(float)
    bias = true_value - p.sum() / len(p)
    variance = np.sum((p - p.sum() / len(p)) ** 2) / len(p)
    return float(bias * bias), float(variance)
