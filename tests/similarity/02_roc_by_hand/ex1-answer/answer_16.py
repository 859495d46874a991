def roc_point(y_true, y_score, threshold):
    truth = np.array(y_true) == 1
    flagged = np.array(y_score) >= threshold
    return (flagged & ~truth).sum() / (~truth).sum(), (flagged & truth).sum() / truth.sum()
