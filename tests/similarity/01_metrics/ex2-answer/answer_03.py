def fbeta_from_counts(tp, fp, fn, beta):
    try:
        return ((1 + beta**2) * tp) / ((1 + beta**2) * tp + beta**2 * fn + fp)
    except ZeroDivisionError:
        return float("nan")
