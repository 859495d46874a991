from fractions import Fraction


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    disc_a = disc_b = 0
    for t, pa, pb in zip(y_true, y_pred_a, y_pred_b):
        if (pa == t) != (pb == t):
            if pa == t:
                disc_a += 1
            else:
                disc_b += 1
    size = disc_a + disc_b
    if size == 0:
        return 1.0
    exact = Fraction(sum(math.comb(size, i) for i in range(min(disc_a, disc_b) + 1)), 2 ** size)
    return float(min(Fraction(1), 2 * exact))
