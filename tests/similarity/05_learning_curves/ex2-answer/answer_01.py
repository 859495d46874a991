def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    p = np.asarray(predictions, dtype=float)
    mean = p.mean()
    return float((mean - true_value) ** 2), float(((p - mean) ** 2).mean())
