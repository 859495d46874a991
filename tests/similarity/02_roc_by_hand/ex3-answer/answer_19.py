def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=float)
    answer, answer_cost = np.inf, cost_fn * np.count_nonzero(y_true == 1)
    for t in np.unique(y_score):
        chosen = y_score >= t
        c = cost_fp * np.count_nonzero(chosen & (y_true == 0)) + cost_fn * np.count_nonzero(~chosen & (y_true == 1))
        if c < answer_cost or (c == answer_cost and t > answer):
            answer, answer_cost = t, c
    return answer
