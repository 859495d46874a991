from scipy.stats import binom


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    truth = np.asarray(y_true)
    correct_a = np.asarray(y_pred_a) == truth
    correct_b = np.asarray(y_pred_b) == truth
    b = int((correct_a & ~correct_b).sum())
    c = int((correct_b & ~correct_a).sum())
    if b + c == 0:
        return 1.0
    return float(min(1.0, 2 * binom.cdf(min(b, c), b + c, 0.5)))
