def fbeta_from_counts(tp, fp, fn, beta):
    score = lambda t, p, n, b: (1 + b**2) * t / ((1 + b**2) * t + b**2 * n + p)
    total = tp + fp + fn
    return score(tp, fp, fn, beta) if total > 0 else float("nan")
