def roc_point(y_true, y_score, threshold):
    y = np.asarray(y_true, dtype=float)
    above = (np.asarray(y_score) >= threshold).astype(float)
    tpr = above @ y / y.sum()
    fpr = above @ (1 - y) / (1 - y).sum()
    return fpr, tpr
