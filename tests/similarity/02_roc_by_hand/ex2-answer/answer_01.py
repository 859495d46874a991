def auc_by_pairs(y_true, y_score):
    pos = [s for s, y in zip(y_score, y_true) if y == 1]
    neg = [s for s, y in zip(y_score, y_true) if y == 0]
    total = 0.0
    for p in pos:
        for n in neg:
            if p > n:
                total += 1
            elif p == n:
                total += 0.5
    return total / (len(pos) * len(neg))
