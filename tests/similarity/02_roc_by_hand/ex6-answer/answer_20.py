def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    n_only_a = np.sum([(a == y) and (b != y) for y, a, b in zip(y_true, y_pred_a, y_pred_b)])
    n_only_b = np.sum([(b == y) and (a != y) for y, a, b in zip(y_true, y_pred_a, y_pred_b)])
    n_only_a, n_only_b = int(n_only_a), int(n_only_b)
    if n_only_a + n_only_b == 0:
        return 1.0
    low, n = min(n_only_a, n_only_b), n_only_a + n_only_b
    probability_low = sum(math.comb(n, i) for i in range(low + 1)) / 2 ** n
    two_sided = 2 * probability_low
    return float(two_sided if two_sided < 1 else 1)
