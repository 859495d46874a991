def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    def cost(counts):
        _, fp, fn, _ = counts
        return fp * cost_fp + fn * cost_fn
    return "B" if cost(counts_b) < cost(counts_a) else "A"
