from scipy.special import comb


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    a_better = b_better = 0
    for truth, pred_a, pred_b in zip(list(y_true), list(y_pred_a), list(y_pred_b)):
        correct = (pred_a == truth, pred_b == truth)
        if correct == (True, False):
            a_better += 1
        elif correct == (False, True):
            b_better += 1
    total = a_better + b_better
    if total == 0:
        return 1.0
    tail = sum(comb(total, i, exact=True) for i in range(min(a_better, b_better) + 1))
    return float(min(2 * tail / 2 ** total, 1.0))
