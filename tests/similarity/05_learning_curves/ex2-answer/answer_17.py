def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    return (float((np.mean(predictions) - true_value) ** 2), float(np.var(predictions)))
