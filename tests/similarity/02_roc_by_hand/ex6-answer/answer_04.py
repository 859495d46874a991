import collections


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    table = collections.Counter((a == t, b == t) for t, a, b in zip(y_true, y_pred_a, y_pred_b))
    b_count, c_count = table[(True, False)], table[(False, True)]
    discordant = b_count + c_count
    if not discordant:
        return 1.0
    lower = sum(math.comb(discordant, k) for k in range(min(b_count, c_count) + 1))
    return float(min(1, 2 * lower / 2 ** discordant))
