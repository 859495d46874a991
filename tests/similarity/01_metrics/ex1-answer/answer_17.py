def specificity_and_npv(tp, fp, fn, tn):
    tn = float(tn)
    s_den, n_den = tn + fp, tn + fn
    s = tn / s_den if s_den > 0 else float("nan")
    n = tn / n_den if n_den > 0 else float("nan")
    return s, n
