def precision_at_recall(y_true, y_score, min_recall):
    pairs = list(zip(y_score, y_true))
    positives = sum(1 for _, y in pairs if y == 1)
    best = 0.0
    for t in set(s for s, _ in pairs):
        selected = [y for s, y in pairs if s >= t]
        hits = sum(1 for y in selected if y == 1)
        if hits / positives >= min_recall and hits / len(selected) > best:
            best = hits / len(selected)
    return best
