def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    preds = np.asarray(predictions, dtype=float)
    centre = np.mean(preds, keepdims=True)
    b2 = np.power(centre[0] - true_value, 2)
    v = np.mean(np.power(preds - centre, 2))
    return float(b2), float(v)
