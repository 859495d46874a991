def specificity_and_npv(tp, fp, fn, tn):
    def ratio(num, den):
        return num / den if den != 0 else float("nan")
    return ratio(tn, tn + fp), ratio(tn, tn + fn)
