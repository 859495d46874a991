def fbeta_from_counts(tp, fp, fn, beta):
    weighted_tp = tp * (1 + beta ** 2)
    weighted_fn = fn * beta ** 2
    all_weighted = weighted_tp + weighted_fn + fp
    try:
        return weighted_tp / all_weighted
    except ZeroDivisionError:
        return float("nan")
