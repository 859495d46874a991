def fbeta_from_counts(tp, fp, fn, beta):
    import math
    d = (1 + beta ** 2) * tp + beta ** 2 * fn + fp
    return math.nan if d == 0 else (1 + beta ** 2) * tp / d
