def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    pairs = [(p == t, q == t) for t, p, q in zip(y_true, y_pred_a, y_pred_b)]
    discordant = [first for first, second in pairs if first != second]
    total = len(discordant)
    wins_a = sum(discordant)
    smaller = min(wins_a, total - wins_a)
    probability = 0.0
    for j in range(smaller + 1):
        probability += math.comb(total, j) / 2 ** total
    return min(1.0, 2.0 * probability) if total else 1.0
