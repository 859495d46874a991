def pair_score(positive, negative):
    if positive > negative:
        return 1.0
    if positive == negative:
        return 0.5
    return 0.0


def auc_by_pairs(y_true, y_score):
    pos = [s for s, y in zip(y_score, y_true) if y]
    neg = [s for s, y in zip(y_score, y_true) if not y]
    return sum(pair_score(p, n) for p in pos for n in neg) / (len(pos) * len(neg))
