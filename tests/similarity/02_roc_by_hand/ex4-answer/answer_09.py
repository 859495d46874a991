def precision_at_recall(y_true, y_score, min_recall):
    data = sorted(zip(y_score, y_true), key=lambda pair: -pair[0])
    total_pos = sum(label for _, label in data)
    tp = 0
    best = 0.0
    for i, (score, label) in enumerate(data):
        tp += label
        if i + 1 < len(data) and data[i + 1][0] == score:
            continue
        if tp / total_pos >= min_recall:
            best = max(best, tp / (i + 1))
    return float(best)
