def roc_point(y_true, y_score, threshold):
    # YOUR CODE HERE
    y_true = np.array(y_true)
    y_pred = (np.array(y_score) >= threshold).astype(int)
    tp = np.count_nonzero((y_pred == 1) & (y_true == 1))
    fp = np.count_nonzero((y_pred == 1) & (y_true == 0))
    fn = np.count_nonzero((y_pred == 0) & (y_true == 1))
    tn = np.count_nonzero((y_pred == 0) & (y_true == 0))
    return fp / (fp + tn), tp / (tp + fn)
