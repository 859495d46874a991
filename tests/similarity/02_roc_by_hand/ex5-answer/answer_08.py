def calibration_error(y_true, y_prob, n_bins):
    # YOUR CODE HERE
    probs = np.array(y_prob, dtype=float)
    outcome = np.array(y_true, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    n = probs.size
    result = 0.0
    for k in range(n_bins):
        lower, upper = edges[k], edges[k + 1]
        if k == 0:
            in_bin = np.logical_and(probs >= lower, probs <= upper)
        else:
            in_bin = np.logical_and(probs > lower, probs <= upper)
        count = np.count_nonzero(in_bin)
        if count:
            result += count / n * abs(outcome[in_bin].mean() - probs[in_bin].mean())
    return float(result)
