def fbeta_from_counts(tp, fp, fn, beta):
    parts = [(1 + beta ** 2) * tp, beta ** 2 * fn, fp]
    if sum(parts) == 0:
        return float("nan")
    return parts[0] / sum(parts)
