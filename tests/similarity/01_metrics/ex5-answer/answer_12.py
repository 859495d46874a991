def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    # cost = cost_fp * FP + cost_fn * FN
    a_cost = cost_fp * counts_a[1] + cost_fn * counts_a[2]
    b_cost = cost_fp * counts_b[1] + cost_fn * counts_b[2]
    answer = "A"
    if b_cost < a_cost:
        answer = "B"
    return answer
