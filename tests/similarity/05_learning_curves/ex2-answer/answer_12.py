def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    arr = np.asarray(predictions, dtype=float)
    return float((np.mean(arr) - true_value) ** 2), float(np.std(arr) ** 2)
