import itertools


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    signs = [int(a == t) - int(b == t) for t, a, b in zip(y_true, y_pred_a, y_pred_b)]
    signs = [s for s in signs if s != 0]
    if not signs:
        return 1.0
    n, plus = len(signs), signs.count(1)
    minus = n - plus
    tail = math.fsum(math.comb(n, j) for j in itertools.takewhile(lambda j: j <= min(plus, minus), range(n + 1)))
    return float(min(1.0, 2.0 * tail / 2**n))
