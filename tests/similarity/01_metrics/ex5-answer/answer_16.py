def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    fp_a, fn_a = counts_a[1:3]
    fp_b, fn_b = counts_b[1:3]
    if fp_a * cost_fp + fn_a * cost_fn > fp_b * cost_fp + fn_b * cost_fn:
        return "B"
    return "A"
