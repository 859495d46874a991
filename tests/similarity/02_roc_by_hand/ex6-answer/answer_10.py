def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    def binomial_cdf(k, n):
        total, term = 0.0, 0.5 ** n
        for i in range(k + 1):
            total += term
            term = term * (n - i) / (i + 1)
        return total

    outcomes = [int(pa == yt) - int(pb == yt) for yt, pa, pb in zip(y_true, y_pred_a, y_pred_b)]
    b = outcomes.count(1)
    c = outcomes.count(-1)
    if b + c == 0:
        return 1.0
    return float(min(1.0, 2 * binomial_cdf(min(b, c), b + c)))
