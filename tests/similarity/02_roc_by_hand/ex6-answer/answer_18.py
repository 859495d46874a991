def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true = np.asarray(y_true)
    y_pred_a = np.asarray(y_pred_a)
    y_pred_b = np.asarray(y_pred_b)
    mask = (y_pred_a == y_true) ^ (y_pred_b == y_true)   # exactly one of the two is right
    n = int(mask.sum())
    if n == 0:
        return 1.0
    b = int((y_pred_a[mask] == y_true[mask]).sum())
    c = n - b
    p = 0.0
    for x in range(0, min(b, c) + 1):
        p += math.comb(n, x)
    p = 2 * p / 2 ** n
    return 1.0 if p > 1 else float(p)
