def fbeta_from_counts(tp, fp, fn, beta):
    bb = beta ** 2
    if tp == fp == fn == 0:
        f = float("nan")
    else:
        f = ((1 + bb) * tp) / ((1 + bb) * tp + bb * fn + fp)
    return f
