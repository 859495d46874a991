def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    preds = np.asarray(predictions, dtype=float)
    mse = np.mean((preds - true_value) ** 2)
    bias2 = (preds.mean() - true_value) ** 2
    return float(bias2), float(mse - bias2)
