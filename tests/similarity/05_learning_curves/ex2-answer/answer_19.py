def bias2_and_variance(predictions, true_value):
    """Bias^2 and variance (ddof=0) of the predictions of several models at one point."""
    n = 0
    mean_ = 0.0
    m2 = 0.0
    for value in predictions:
        n += 1
        delta = value - mean_
        mean_ += delta / n
        m2 += delta * (value - mean_)
    return float((true_value - mean_) ** 2), float(m2 / n)
