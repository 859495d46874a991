def auc_by_pairs(y_true, y_score):
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score)
    positive_scores = y_score[y_true == 1]
    total = 0.0
    for negative in y_score[y_true == 0]:
        total += np.sum(positive_scores > negative) + 0.5 * np.sum(positive_scores == negative)
    return float(total / (positive_scores.size * np.sum(y_true == 0)))
