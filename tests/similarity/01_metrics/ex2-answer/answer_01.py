def fbeta_from_counts(tp, fp, fn, beta):
    b2 = beta * beta
    num = (1 + b2) * tp
    den = num + b2 * fn + fp
    if den == 0:
        return float("nan")
    return num / den
