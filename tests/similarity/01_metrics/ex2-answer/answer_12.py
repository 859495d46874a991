from fractions import Fraction

def fbeta_from_counts(tp, fp, fn, beta):
    b_squared = Fraction(beta) ** 2
    denominator = (1 + b_squared) * tp + b_squared * fn + fp
    if denominator == 0:
        return float("nan")
    return float((1 + b_squared) * tp / denominator)
