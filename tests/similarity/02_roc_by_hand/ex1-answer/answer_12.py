def roc_point(y_true, y_score, threshold):
    y_true = np.asarray(y_true)
    prediction = np.where(np.asarray(y_score) >= threshold, 1, 0)
    true_positive_rate = prediction[y_true == 1].sum() / (y_true == 1).sum()
    false_positive_rate = prediction[y_true == 0].sum() / (y_true == 0).sum()
    return false_positive_rate, true_positive_rate
