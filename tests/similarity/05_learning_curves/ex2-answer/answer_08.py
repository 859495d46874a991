def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    x = np.asarray(predictions, float)
    m = np.average(x)
    return float((m - true_value) ** 2), float(np.average((x - m) ** 2))
