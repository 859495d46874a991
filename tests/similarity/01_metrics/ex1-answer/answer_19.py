def specificity_and_npv(tp, fp, fn, tn):
    names = ("specificity", "npv")
    wrong = (fp, fn)
    values = {}
    for name, w in zip(names, wrong):
        values[name] = float("nan") if tn + w == 0 else tn / (tn + w)
    return values["specificity"], values["npv"]
