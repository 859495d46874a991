def specificity_and_npv(tp, fp, fn, tn):
    # YOUR CODE HERE
    if tn + fp == 0:
        specificity = float("nan")
    else:
        specificity = tn / (tn + fp)
    if tn + fn == 0:
        npv = float("nan")
    else:
        npv = tn / (tn + fn)
    return specificity, npv
