def macro_and_weighted_f1(y_true, y_pred):
    stats = {}
    for truth, guess in zip(y_true, y_pred):
        stats.setdefault(truth, [0, 0, 0])
        stats.setdefault(guess, [0, 0, 0])
        if truth == guess:
            stats[truth][0] += 1
        else:
            stats[guess][1] += 1
            stats[truth][2] += 1
    n = len(y_true)
    macro = 0.0
    weighted = 0.0
    for tp, fp, fn in stats.values():
        score = 2 * tp / (2 * tp + fp + fn)
        macro += score / len(stats)
        weighted += score * (tp + fn) / n
    return macro, weighted
