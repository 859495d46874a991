def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    tp_a, fp_a, fn_a, tn_a = counts_a
    tp_b, fp_b, fn_b, tn_b = counts_b
    total_a = cost_fp * fp_a + cost_fn * fn_a
    total_b = cost_fp * fp_b + cost_fn * fn_b
    if total_a <= total_b:
        return "A"
    return "B"
