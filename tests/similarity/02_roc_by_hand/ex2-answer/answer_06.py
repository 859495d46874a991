def auc_by_pairs(y_true, y_score):
    # YOUR CODE HERE
    labels = np.asarray(y_true)
    scores = np.asarray(y_score)
    p, n = scores[labels == 1], scores[labels == 0]
    better = np.greater.outer(p, n).sum()
    tied = np.equal.outer(p, n).sum()
    return (better + 0.5 * tied) / (len(p) * len(n))
