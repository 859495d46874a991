def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    data = list(zip(y_true, y_score))
    thresholds = [float("inf")] + list(set(s for _, s in data))

    def total_cost(t):
        fp = sum(1 for y, s in data if s >= t and y == 0)
        fn = sum(1 for y, s in data if s < t and y == 1)
        return cost_fp * fp + cost_fn * fn

    return min(thresholds, key=lambda t: (total_cost(t), -t))
