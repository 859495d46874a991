import statistics


def calibration_error(y_true, y_prob, n_bins):
    edges = np.linspace(0, 1, n_bins + 1)
    bins = [[] for _ in range(n_bins)]
    for label, prob in zip(y_true, y_prob):
        k = int(np.searchsorted(edges[1:-1], prob, side="left"))
        bins[k].append((float(label), float(prob)))
    ece = 0.0
    for contents in bins:
        if contents:
            observed = statistics.fmean(l for l, _ in contents)
            predicted = statistics.fmean(p for _, p in contents)
            ece += len(contents) * abs(observed - predicted)
    return ece / len(y_true)
