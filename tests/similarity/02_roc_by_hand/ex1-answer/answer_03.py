def roc_point(y_true, y_score, threshold):
    labels = np.asarray(y_true)
    predicted = np.asarray(y_score) >= threshold
    return predicted[labels == 0].mean(), predicted[labels == 1].mean()
