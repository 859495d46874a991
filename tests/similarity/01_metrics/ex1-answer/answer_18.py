def specificity_and_npv(tp, fp, fn, tn):
    answer = [float("nan"), float("nan")]
    if tn + fp > 0:
        answer[0] = tn / (tn + fp)
    if tn + fn > 0:
        answer[1] = tn / (tn + fn)
    return tuple(answer)
