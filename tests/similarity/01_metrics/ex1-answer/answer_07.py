def safe_divide(a, b):
    """a / b, or nan when b is 0."""
    if b == 0:
        return float('nan')
    return a / b


def specificity_and_npv(tp, fp, fn, tn):
    return safe_divide(tn, tn + fp), safe_divide(tn, tn + fn)
