def specificity_and_npv(tp, fp, fn, tn):
    denominators = {"specificity": tn + fp, "npv": tn + fn}
    result = {}
    for key, d in denominators.items():
        result[key] = tn / d if d != 0 else float("nan")
    return result["specificity"], result["npv"]
