def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    truth = np.asarray(y_true)
    a = np.asarray(y_pred_a) == truth
    b = np.asarray(y_pred_b) == truth
    n01 = np.count_nonzero(a & np.logical_not(b))
    n10 = np.count_nonzero(np.logical_not(a) & b)
    n = int(n01 + n10)
    if n == 0:
        return 1.0
    # probability of a split at least as uneven as the one seen, on one side, then doubled
    probs = [math.comb(n, k) * 0.5 ** n for k in range(int(min(n01, n10)) + 1)]
    return float(min(1.0, 2 * math.fsum(probs)))
