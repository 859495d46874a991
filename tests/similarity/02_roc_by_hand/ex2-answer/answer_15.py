import statistics

def auc_by_pairs(y_true, y_score):
    pos = [s for y, s in zip(y_true, y_score) if y == 1]
    neg = [s for y, s in zip(y_true, y_score) if y == 0]
    outcomes = [float(p > n) + 0.5 * float(p == n) for p in pos for n in neg]
    return statistics.fmean(outcomes)
