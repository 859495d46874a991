def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    pairs = sorted(zip(y_score, y_true), reverse=True)
    total_pos = sum(1 for _, label in pairs if label == 1)
    best_t, best_cost = float("inf"), cost_fn * total_pos
    fp = tp = 0
    for i, (score, label) in enumerate(pairs):
        if label == 1:
            tp += 1
        else:
            fp += 1
        last_of_score = i + 1 == len(pairs) or pairs[i + 1][0] != score
        if last_of_score:
            cost = cost_fp * fp + cost_fn * (total_pos - tp)
            if cost < best_cost:
                best_t, best_cost = score, cost
    return best_t
