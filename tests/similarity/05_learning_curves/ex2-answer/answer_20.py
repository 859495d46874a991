def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    arr = np.asarray(predictions, dtype=float)
    avg = np.sum(arr) / arr.shape[0]
    b2 = float(np.subtract(true_value, avg) ** 2)
    v = float(np.sum(np.subtract(arr, avg) ** 2) / arr.shape[0])
    return b2, v
