def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    # YOUR CODE HERE
    arr = np.array(predictions, dtype=np.float64)
    bias_squared = np.square(true_value - np.mean(arr))
    variance = np.var(arr, ddof=0)
    return (float(bias_squared), float(variance))
