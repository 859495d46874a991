def precision_at_recall(y_true, y_score, min_recall):
    # YOUR CODE HERE
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=float)
    precisions = []
    for threshold in np.unique(y_score):
        positive_calls = y_score >= threshold
        true_positives = np.sum(y_true[positive_calls] == 1)
        if true_positives / np.sum(y_true == 1) >= min_recall:
            precisions.append(true_positives / np.sum(positive_calls))
    return float(max(precisions, default=0.0))
