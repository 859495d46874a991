def roc_point(y_true, y_score, threshold):
    y_true = np.asarray(y_true)
    positive_idx = np.flatnonzero(y_true == 1)
    negative_idx = np.flatnonzero(y_true == 0)
    scores = np.asarray(y_score)
    tpr = np.count_nonzero(scores[positive_idx] >= threshold) / positive_idx.size
    fpr = np.count_nonzero(scores[negative_idx] >= threshold) / negative_idx.size
    return fpr, tpr
