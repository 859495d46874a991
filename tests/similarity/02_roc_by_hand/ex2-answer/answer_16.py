from itertools import groupby


def auc_by_pairs(y_true, y_score):
    pairs = sorted(zip(y_score, y_true), key=lambda item: item[0])
    negatives_below = 0
    credit = 0.0
    for _, group in groupby(pairs, key=lambda item: item[0]):
        labels = [label for _, label in group]
        pos_here = sum(1 for label in labels if label == 1)
        neg_here = len(labels) - pos_here
        credit += pos_here * (negatives_below + neg_here / 2)
        negatives_below += neg_here
    n_pos = sum(1 for label in y_true if label == 1)
    return credit / (n_pos * (len(y_true) - n_pos))
