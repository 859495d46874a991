def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    extra_fp = counts_a[1] - counts_b[1]
    extra_fn = counts_a[2] - counts_b[2]
    difference = cost_fp * extra_fp + cost_fn * extra_fn
    return "A" if difference <= 0 else "B"
