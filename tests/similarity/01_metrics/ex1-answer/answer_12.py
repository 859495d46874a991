def specificity_and_npv(tp, fp, fn, tn):
    return tuple(map(lambda d: tn / d if d else float("nan"), (tn + fp, tn + fn)))
