def macro_and_weighted_f1(y_true, y_pred):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    classes = np.unique(np.hstack((y_true, y_pred)))
    precisions, recalls, supports = [], [], []
    for cls in classes:
        predicted = y_pred == cls
        actual = y_true == cls
        hits = np.sum(predicted & actual)
        precisions.append(hits / predicted.sum() if predicted.sum() else 0.0)
        recalls.append(hits / actual.sum() if actual.sum() else 0.0)
        supports.append(actual.sum())
    p, r = np.array(precisions), np.array(recalls)
    denom = p + r
    f1 = np.where(denom > 0, 2 * p * r / np.where(denom > 0, denom, 1), 0.0)
    weighted = (f1 * np.array(supports)).sum() / len(y_true)
    return float(f1.mean()), float(weighted)
