def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    total = 0.0
    count = 0
    for p in predictions:
        total += p
        count += 1
    mean_prediction = total / count
    spread = 0.0
    for p in predictions:
        spread += (p - mean_prediction) ** 2
    return float((true_value - mean_prediction) ** 2), float(spread / count)
