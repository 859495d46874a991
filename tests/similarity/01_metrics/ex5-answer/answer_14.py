def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    best_name, best_cost = None, None
    for name, counts in (("A", counts_a), ("B", counts_b)):
        cost = counts[1] * cost_fp + counts[2] * cost_fn
        if best_cost is None or cost < best_cost:
            best_name, best_cost = name, cost
    return best_name
