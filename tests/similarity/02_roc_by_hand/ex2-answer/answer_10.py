from collections import Counter


def auc_by_pairs(y_true, y_score):
    negative_counts = Counter(s for s, y in zip(y_score, y_true) if y == 0)
    n_negative = sum(negative_counts.values())
    positives = [s for s, y in zip(y_score, y_true) if y == 1]
    total = 0.0
    for p in positives:
        for value, count in negative_counts.items():
            if p > value:
                total += count
            elif p == value:
                total += count / 2
    return total / (len(positives) * n_negative)
