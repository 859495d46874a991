def specificity_and_npv(tp, fp, fn, tn):
    try:
        spec = tn / (tn + fp)
    except ZeroDivisionError:
        spec = float("nan")
    try:
        npv = tn / (fn + tn)
    except ZeroDivisionError:
        npv = float("nan")
    return (spec, npv)
