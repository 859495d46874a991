def fbeta_from_counts(tp, fp, fn, beta):
    # YOUR CODE HERE
    if tp == 0 and fp == 0 and fn == 0:
        return float("nan")
    weight = beta ** 2
    return (1 + weight) * tp / ((1 + weight) * tp + weight * fn + fp)
