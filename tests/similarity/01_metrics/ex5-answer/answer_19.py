def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    a = np.asarray(counts_a)
    b = np.asarray(counts_b)
    unit_costs = np.array([0.0, cost_fp, cost_fn, 0.0])
    if np.sum(a * unit_costs) > np.sum(b * unit_costs):
        return "B"
    return "A"
