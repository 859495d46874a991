def average_of(values):
    return sum(values) / len(values)


def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    predictions = list(predictions)
    centre = average_of(predictions)
    return float((centre - true_value) ** 2), float(average_of([(p - centre) ** 2 for p in predictions]))
