def fbeta_from_counts(tp, fp, fn, beta):
    errors = beta**2 * fn + fp
    gain = (1 + beta**2) * tp
    if gain + errors == 0:
        return np.nan
    return gain / (gain + errors)
