def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    _, false_pos_a, false_neg_a, *_ = counts_a
    _, false_pos_b, false_neg_b, *_ = counts_b
    price_a = false_pos_a * cost_fp + false_neg_a * cost_fn
    price_b = false_pos_b * cost_fp + false_neg_b * cost_fn
    return "B" if price_b < price_a else "A"
