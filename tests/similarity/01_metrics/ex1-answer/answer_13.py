from fractions import Fraction

def specificity_and_npv(tp, fp, fn, tn):
    results = []
    for denom in [tn + fp, tn + fn]:
        if denom == 0:
            results.append(float("nan"))
        else:
            results.append(float(Fraction(tn, denom)))
    return results[0], results[1]
