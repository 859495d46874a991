from collections import Counter


def precision_at_recall(y_true, y_score, min_recall):
    positives_at = Counter(s for s, y in zip(y_score, y_true) if y == 1)
    all_at = Counter(y_score)
    total_positives = sum(positives_at.values())
    tp = called = 0
    best = 0.0
    for score in sorted(all_at, reverse=True):
        tp += positives_at[score]
        called += all_at[score]
        if tp / total_positives >= min_recall:
            best = max(best, tp / called)
    return best
