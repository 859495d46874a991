from scipy import stats


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    y_true = list(y_true)
    a_only = sum(1 for t, a, b in zip(y_true, y_pred_a, y_pred_b) if a == t != b)
    b_only = sum(1 for t, a, b in zip(y_true, y_pred_a, y_pred_b) if b == t != a)
    trials = a_only + b_only
    if trials == 0:
        return 1.0
    p_value = 2.0 * stats.binom(trials, 0.5).cdf(min(a_only, b_only))
    return float(np.clip(p_value, 0.0, 1.0))
