def count_discordant(y_true, y_pred_a, y_pred_b):
    """How often only A is right, and how often only B is."""
    a_right = [pred == true for pred, true in zip(y_pred_a, y_true)]
    b_right = [pred == true for pred, true in zip(y_pred_b, y_true)]
    only_a = sum(1 for x, y in zip(a_right, b_right) if x and not y)
    only_b = sum(1 for x, y in zip(a_right, b_right) if y and not x)
    return only_a, only_b


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    only_a, only_b = count_discordant(y_true, y_pred_a, y_pred_b)
    n = only_a + only_b
    if n == 0:
        return 1.0
    cumulative = sum(math.comb(n, i) for i in range(0, min(only_a, only_b) + 1))
    return float(min(1.0, cumulative / 2 ** (n - 1)))
