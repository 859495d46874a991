def specificity_and_npv(tp, fp, fn, tn):
    nan = float("nan")
    neg = tn + fp
    pred_neg = tn + fn
    if neg == 0 and pred_neg == 0:
        return nan, nan
    if neg == 0:
        return nan, tn / pred_neg
    if pred_neg == 0:
        return tn / neg, nan
    return tn / neg, tn / pred_neg
