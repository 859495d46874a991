def fbeta_from_counts(tp, fp, fn, beta):
    if tp == 0:
        return float("nan") if fp == 0 and fn == 0 else 0.0
    k = 1 + beta ** 2
    return k / (k + (beta ** 2 * fn + fp) / tp)
