def total_cost(counts, cost_fp, cost_fn):
    return counts[1] * cost_fp + counts[2] * cost_fn


def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    a = total_cost(counts_a, cost_fp, cost_fn)
    b = total_cost(counts_b, cost_fp, cost_fn)
    return "A" if a <= b else "B"
