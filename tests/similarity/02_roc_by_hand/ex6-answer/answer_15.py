def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    truth, first, second = (np.asarray(v) for v in (y_true, y_pred_a, y_pred_b))
    table = np.zeros((2, 2), dtype=int)
    np.add.at(table, ((first == truth).astype(int), (second == truth).astype(int)), 1)
    b, c = table[1, 0], table[0, 1]
    n = int(b + c)
    if n == 0:
        return 1.0
    smallest = int(min(b, c))
    pmf = np.array([math.comb(n, i) for i in range(n + 1)], dtype=float) / 2.0**n
    return float(min(1.0, 2 * pmf[: smallest + 1].sum()))
