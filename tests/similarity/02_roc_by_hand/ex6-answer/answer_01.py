def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    only_a = only_b = 0
    for truth, a, b in zip(y_true, y_pred_a, y_pred_b):
        if a == truth and b != truth:
            only_a += 1
        elif b == truth and a != truth:
            only_b += 1
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) * 0.5 ** n
    return float(min(1.0, 2 * tail))
