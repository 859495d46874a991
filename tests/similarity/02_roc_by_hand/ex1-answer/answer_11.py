from collections import Counter

def roc_point(y_true, y_score, threshold):
    outcome = Counter((int(t), bool(s >= threshold)) for t, s in zip(y_true, y_score))
    tp, fn = outcome[(1, True)], outcome[(1, False)]
    fp, tn = outcome[(0, True)], outcome[(0, False)]
    return fp / (fp + tn), tp / (tp + fn)
