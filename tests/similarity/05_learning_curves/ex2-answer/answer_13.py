import math

def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    vals = [float(v) for v in np.ravel(predictions)]
    n = len(vals)
    mu = math.fsum(vals) / n
    return float((mu - true_value) ** 2), float(math.fsum((v - mu) ** 2 for v in vals) / n)
