from itertools import groupby


def calibration_error(y_true, y_prob, n_bins):
    edges = np.linspace(0, 1, n_bins + 1)[1:-1]
    keyed = sorted((int(np.searchsorted(edges, p)), float(p), float(y)) for p, y in zip(y_prob, y_true))
    total = 0.0
    for _, members in groupby(keyed, key=lambda item: item[0]):
        members = list(members)
        total += abs(sum(m[2] for m in members) - sum(m[1] for m in members))
    return total / len(keyed)
