def specificity_and_npv(tp, fp, fn, tn):
    out = []
    for other in (fp, fn):
        total = tn + other
        out.append(tn / total if total else float("nan"))
    return tuple(out)
