def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    truth = list(y_true)
    scores = list(y_score)
    options = [np.inf] + sorted(set(scores), reverse=True)
    costs = []
    for option in options:
        false_pos = sum(1 for t, s in zip(truth, scores) if t == 0 and s >= option)
        false_neg = sum(1 for t, s in zip(truth, scores) if t == 1 and s < option)
        costs.append(cost_fp * false_pos + cost_fn * false_neg)
    return options[costs.index(min(costs))]
