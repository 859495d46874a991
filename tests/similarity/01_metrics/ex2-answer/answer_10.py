def fbeta_from_counts(tp, fp, fn, beta):
    # F-beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)
    b = float(beta)
    numerator = (1 + b * b) * tp
    denominator = (1 + b * b) * tp + (b * b) * fn + fp
    if denominator > 0:
        return numerator / denominator
    else:
        return float("nan")
