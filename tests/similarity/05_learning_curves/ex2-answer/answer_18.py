import statistics

def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    data = [float(x) for x in predictions]
    mu = statistics.mean(data)
    sigma = statistics.pstdev(data)
    return float((true_value - mu) ** 2), float(sigma ** 2)
