def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    weights = np.array([0, cost_fp, cost_fn, 0])
    costs = np.array([counts_a, counts_b]) @ weights
    return "AB"[int(costs[1] < costs[0])]
