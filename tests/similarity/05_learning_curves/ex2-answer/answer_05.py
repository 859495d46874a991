def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    x = np.asarray(predictions, dtype=float)
    first_moment = x.mean()
    second_moment = (x ** 2).mean()
    return float((true_value - first_moment) ** 2), float(second_moment - first_moment ** 2)
