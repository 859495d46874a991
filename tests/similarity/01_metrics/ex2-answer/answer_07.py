def fbeta_from_counts(tp, fp, fn, beta):
    beta_sq = pow(beta, 2)
    top = (1.0 + beta_sq) * tp
    bottom = top + beta_sq * fn + fp
    return top / bottom if bottom != 0 else float('nan')
