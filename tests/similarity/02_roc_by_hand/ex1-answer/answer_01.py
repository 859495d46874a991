def roc_point(y_true, y_score, threshold):
    y = np.asarray(y_true)
    s = np.asarray(y_score)
    called = s >= threshold
    fpr = np.sum(called & (y == 0)) / np.sum(y == 0)
    tpr = np.sum(called & (y == 1)) / np.sum(y == 1)
    return fpr, tpr
