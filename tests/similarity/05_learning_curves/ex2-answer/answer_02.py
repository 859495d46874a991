def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    values = [float(v) for v in predictions]
    average = sum(values) / len(values)
    bias_sq = (true_value - average) ** 2
    var = sum((v - average) ** 2 for v in values) / len(values)
    return float(bias_sq), float(var)
