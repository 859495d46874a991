import math


def specificity_and_npv(tp, fp, fn, tn):
    def rate(part, whole):
        try:
            return part / whole
        except ZeroDivisionError:
            return math.nan

    return rate(tn, tn + fp), rate(tn, tn + fn)
