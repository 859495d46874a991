import statistics


def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    values = list(map(float, predictions))
    return float((statistics.fmean(values) - true_value) ** 2), float(statistics.pvariance(values))
