def fbeta_from_counts(tp, fp, fn, beta):
    """count form"""
    nan = float("nan")
    if (tp, fp, fn) == (0, 0, 0):
        return nan
    b2 = beta ** 2
    return tp * (1 + b2) / (tp * (1 + b2) + fn * b2 + fp)
