def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    cost_vector = (0, cost_fp, cost_fn, 0)
    cost_a = sum(c * w for c, w in zip(counts_a, cost_vector))
    cost_b = sum(c * w for c, w in zip(counts_b, cost_vector))
    if cost_b < cost_a:
        return "B"
    else:
        return "A"
