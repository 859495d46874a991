def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    spending = {name: cost_fp * c[1] + cost_fn * c[2] for name, c in [("A", counts_a), ("B", counts_b)]}
    cheapest = min(spending.values())
    return "A" if spending["A"] == cheapest else "B"
