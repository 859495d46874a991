def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    costs = []
    for label, (tp, fp, fn, tn) in zip("AB", (counts_a, counts_b)):
        costs.append((cost_fp * fp + cost_fn * fn, label))
    return sorted(costs)[0][1]
