def bin_of(p, edges):
    """Index of the bin (edges[k], edges[k + 1]] holding p; p = 0 in the first."""
    for k in range(len(edges) - 1):
        if p <= edges[k + 1]:
            return k
    return len(edges) - 2


def calibration_error(y_true, y_prob, n_bins):
    edges = np.linspace(0, 1, n_bins + 1)
    groups = {}
    for label, p in zip(y_true, y_prob):
        groups.setdefault(bin_of(p, edges), []).append((label, p))
    total = 0.0
    for members in groups.values():
        labels = [m[0] for m in members]
        probs = [m[1] for m in members]
        total += len(members) * abs(sum(labels) / len(labels) - sum(probs) / len(probs))
    return float(total / len(y_true))
