def fbeta_from_counts(tp, fp, fn, beta):
    w = beta ** 2
    num = np.float64((1 + w) * tp)
    den = np.float64((1 + w) * tp + w * fn + fp)
    with np.errstate(invalid="ignore"):
        value = num / den
    return float(value)
