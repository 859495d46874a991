def macro_and_weighted_f1(y_true, y_pred):
    y_true = list(y_true)
    y_pred = list(y_pred)
    labels = sorted(set(y_true) | set(y_pred), key=str)
    scores = []
    weights = []
    for label in labels:
        tp = sum(1 for t, p in zip(y_true, y_pred) if t == label and p == label)
        fp = sum(1 for t, p in zip(y_true, y_pred) if t != label and p == label)
        fn = sum(1 for t, p in zip(y_true, y_pred) if t == label and p != label)
        scores.append(2 * tp / (2 * tp + fp + fn))
        weights.append(y_true.count(label))
    macro = sum(scores) / len(scores)
    weighted = sum(s * w for s, w in zip(scores, weights)) / len(y_true)
    return macro, weighted
