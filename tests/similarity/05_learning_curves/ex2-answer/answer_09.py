def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    s = pd.Series(np.asarray(predictions, dtype=float))
    return float((s.mean() - true_value) ** 2), float(s.var(ddof=0))
