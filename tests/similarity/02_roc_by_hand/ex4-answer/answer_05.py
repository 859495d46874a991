def precision_at_recall(y_true, y_score, min_recall):
    labels = np.asarray(y_true)
    scores = np.asarray(y_score)
    total_positive = labels.sum()
    table = {}
    for t in set(scores.tolist()):
        mask = scores >= t
        true_pos = labels[mask].sum()
        table[t] = (true_pos / total_positive, true_pos / mask.sum())
    return float(max(p for r, p in table.values() if r >= min_recall))
