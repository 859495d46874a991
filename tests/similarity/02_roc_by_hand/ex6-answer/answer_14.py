from scipy.stats import binom


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    t = np.asarray(y_true)
    a_ok = (np.asarray(y_pred_a) == t).astype(int)
    b_ok = (np.asarray(y_pred_b) == t).astype(int)
    diff = a_ok - b_ok
    b = int(np.sum(diff == 1))
    c = int(np.sum(diff == -1))
    if b + c == 0:
        return 1.0
    lower = binom.cdf(min(b, c), b + c, 0.5)
    return float(min(2 * lower, 1.0))
