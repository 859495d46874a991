from itertools import product

def auc_by_pairs(y_true, y_score):
    positives = [s for s, y in zip(y_score, y_true) if y == 1]
    negatives = [s for s, y in zip(y_score, y_true) if y == 0]
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in product(positives, negatives))
    return wins / (len(positives) * len(negatives))
