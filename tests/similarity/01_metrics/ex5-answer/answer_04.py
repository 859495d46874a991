def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    options = {"A": counts_a, "B": counts_b}
    return min(options, key=lambda name: cost_fp * options[name][1] + cost_fn * options[name][2])
