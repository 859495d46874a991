from collections import defaultdict


def calibration_error(y_true, y_prob, n_bins):
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    sums = defaultdict(lambda: [0, 0.0, 0.0])
    for label, prob in zip(y_true, y_prob):
        k = max(int(np.searchsorted(edges, prob, side="left")) - 1, 0)
        sums[k][0] += 1
        sums[k][1] += label
        sums[k][2] += prob
    n = len(y_true)
    return float(sum(abs(s_y - s_p) for _, s_y, s_p in sums.values()) / n)
