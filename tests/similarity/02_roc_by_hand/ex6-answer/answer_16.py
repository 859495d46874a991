def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    wins = {"a": 0, "b": 0}
    for label, guess_a, guess_b in zip(y_true, y_pred_a, y_pred_b):
        if guess_a == label and guess_b != label:
            wins["a"] += 1
        if guess_b == label and guess_a != label:
            wins["b"] += 1
    n = wins["a"] + wins["b"]
    if n == 0:
        return 1.0
    k = min(wins.values())
    # the probabilities of 0..k successes in n fair coin flips, built by Pascal's rule
    row = [1]
    for _ in range(n):
        row = [x + y for x, y in zip([0] + row, row + [0])]
    return float(min(1.0, 2 * sum(row[: k + 1]) / 2 ** n))
