def fbeta_from_counts(tp, fp, fn, beta):
    if tp + fp + fn == 0:
        return float("nan")
    if tp == 0:
        return 0.0
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    b2 = beta ** 2
    return (1 + b2) * precision * recall / (b2 * precision + recall)
