def specificity_and_npv(tp, fp, fn, tn):
    div = lambda n, d: float("nan") if d == 0 else n / d
    TNR = div(tn, fp + tn)
    NPV = div(tn, fn + tn)
    return TNR, NPV
