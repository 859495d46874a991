def calibration_error(y_true, y_prob, n_bins):
    pairs = list(zip(y_prob, y_true))
    n = len(pairs)
    width = 1 / n_bins
    total = 0.0
    for k in range(n_bins):
        low, high = k * width, (k + 1) * width
        members = [(p, y) for p, y in pairs if low < p <= high or (k == 0 and p == 0)]
        if members:
            mean_p = sum(p for p, _ in members) / len(members)
            mean_y = sum(y for _, y in members) / len(members)
            total += len(members) / n * abs(mean_y - mean_p)
    return float(total)
