def macro_and_weighted_f1(y_true, y_pred):
    y_true = np.array(y_true)
    y_pred = np.array(y_pred)
    all_labels = np.unique(np.concatenate([y_pred, y_true]))
    f_scores = np.zeros(len(all_labels))
    sizes = np.zeros(len(all_labels))
    for idx, lab in enumerate(all_labels):
        true_pos = np.sum((y_pred == lab) & (y_true == lab))
        false_pos = np.sum((y_pred == lab) & (y_true != lab))
        false_neg = np.sum((y_pred != lab) & (y_true == lab))
        f_scores[idx] = 2 * true_pos / (2 * true_pos + false_pos + false_neg)
        sizes[idx] = np.sum(y_true == lab)
    return float(np.mean(f_scores)), float(np.sum(f_scores * sizes) / np.sum(sizes))
