def calibration_error(y_true, y_prob, n_bins):
    data = [(float(p), float(y)) for p, y in zip(y_prob, y_true)]
    bounds = np.linspace(0, 1, n_bins + 1)
    ece = 0.0
    for k in range(n_bins):
        inside = [(p, y) for p, y in data if (bounds[k] < p <= bounds[k + 1]) or (k == 0 and p == 0.0)]
        if not inside:
            continue
        gap = abs(sum(y for _, y in inside) - sum(p for p, _ in inside))
        ece += gap
    return ece / len(data)
