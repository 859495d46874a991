def fbeta_from_counts(tp, fp, fn, beta):
    counts = np.array([tp, fp, fn], dtype=float)
    weights = np.array([1 + beta**2, 1.0, beta**2])
    denominator = counts @ weights
    if denominator == 0:
        return float("nan")
    return float((1 + beta**2) * tp / denominator)
