def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true = np.asarray(y_true)
    right = np.column_stack([np.asarray(y_pred_a) == y_true, np.asarray(y_pred_b) == y_true])
    only_first = int(np.sum(right[:, 0] > right[:, 1]))
    only_second = int(np.sum(right[:, 1] > right[:, 0]))
    n = only_first + only_second
    if n == 0:
        return 1.0
    ks = np.arange(min(only_first, only_second) + 1)
    log_terms = [math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2) for k in ks]
    return float(min(1.0, 2 * sum(math.exp(term) for term in log_terms)))
