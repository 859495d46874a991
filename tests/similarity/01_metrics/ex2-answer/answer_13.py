def weighted_harmonic(precision, recall, beta):
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def fbeta_from_counts(tp, fp, fn, beta):
    if tp > 0:
        return weighted_harmonic(tp / (tp + fp), tp / (tp + fn), beta)
    return 0.0 if fp + fn > 0 else float("nan")
