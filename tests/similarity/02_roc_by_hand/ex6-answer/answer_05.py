def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y = np.array(y_true)
    hits_a = np.array(y_pred_a) == y
    hits_b = np.array(y_pred_b) == y
    disagree = hits_a != hits_b
    n = int(disagree.sum())
    if n == 0:
        return 1.0
    a_wins = int(hits_a[disagree].sum())
    m = min(a_wins, n - a_wins)
    coefficients = np.array([math.comb(n, i) for i in range(m + 1)], dtype=float)
    p = 2 * coefficients.sum() / 2.0**n
    return float(p) if p < 1 else 1.0
