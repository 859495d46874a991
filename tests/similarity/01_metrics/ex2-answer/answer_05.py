def fbeta_from_counts(tp, fp, fn, beta):
    """F-beta from the counts."""
    if not (tp or fp or fn):
        return float("nan")
    if not tp:
        return 0.0
    inverse_p = (tp + fp) / tp
    inverse_r = (tp + fn) / tp
    alpha = 1 / (1 + beta ** 2)
    return 1 / (alpha * inverse_p + (1 - alpha) * inverse_r)
