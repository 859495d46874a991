def macro_and_weighted_f1(y_true, y_pred):
    truth, guess = np.array(y_true), np.array(y_pred)
    classes = np.union1d(truth, guess)

    def f1_of(c):
        tp = np.count_nonzero((truth == c) & (guess == c))
        fp = np.count_nonzero((truth != c) & (guess == c))
        fn = np.count_nonzero((truth == c) & (guess != c))
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)

    scores = np.array([f1_of(c) for c in classes])
    counts = np.array([np.count_nonzero(truth == c) for c in classes])
    return float(scores.mean()), float(np.dot(scores, counts) / counts.sum())
