def _tail(n, k):
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / (2 ** n)


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    b = c = 0
    for index in range(len(y_true)):
        a_ok = y_pred_a[index] == y_true[index]
        b_ok = y_pred_b[index] == y_true[index]
        b += int(a_ok and not b_ok)
        c += int(b_ok and not a_ok)
    if b + c == 0:
        return 1.0
    return float(min(2 * _tail(b + c, min(b, c)), 1.0))
