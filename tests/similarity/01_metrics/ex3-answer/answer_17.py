def precision_recall(y_true, y_pred, positive):
    tp = sum(1 for a, b in zip(y_true, y_pred) if a == positive == b)
    predicted = sum(1 for b in y_pred if b == positive)
    actual = sum(1 for a in y_true if a == positive)
    precision = tp / predicted if predicted else 0
    recall = tp / actual if actual else 0
    return precision, recall, actual


def macro_and_weighted_f1(y_true, y_pred):
    classes = np.unique(list(y_true) + list(y_pred))
    f1_values, supports = [], []
    for positive in classes:
        p, r, n_actual = precision_recall(y_true, y_pred, positive)
        f1_values.append(2 * p * r / (p + r) if p + r > 0 else 0.0)
        supports.append(n_actual)
    macro = np.mean(f1_values)
    weighted = np.average(f1_values, weights=supports)
    return float(macro), float(weighted)
