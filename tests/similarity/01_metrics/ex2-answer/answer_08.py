import math

def fbeta_from_counts(tp, fp, fn, beta):
    factor = 1 + beta * beta
    denominator = factor * tp + (factor - 1) * fn + fp
    result = math.nan
    if denominator:
        result = factor * tp / denominator
    return result
