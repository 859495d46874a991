def macro_and_weighted_f1(y_true, y_pred):
    true_arr = np.asarray(y_true)
    pred_arr = np.asarray(y_pred)
    per_class = {}
    for label in set(true_arr.tolist()) | set(pred_arr.tolist()):
        is_true = true_arr == label
        is_pred = pred_arr == label
        tp = int(np.logical_and(is_true, is_pred).sum())
        denom = int(is_true.sum()) + int(is_pred.sum())
        per_class[label] = (2 * tp / denom, int(is_true.sum()))
    macro = np.mean([f for f, _ in per_class.values()])
    weighted = sum(f * s for f, s in per_class.values()) / len(true_arr)
    return float(macro), float(weighted)
