def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    candidates = {float("inf")} | {float(v) for v in y_score}
    results = []
    for t in candidates:
        fp = sum(1 for v, y in zip(y_score, y_true) if v >= t and y == 0)
        fn = sum(1 for v, y in zip(y_score, y_true) if v < t and y == 1)
        results.append((cost_fp * fp + cost_fn * fn, -t, t))
    return sorted(results)[0][2]
