def share_called(scores, threshold):
    scores = np.asarray(scores)
    return float(np.mean(scores >= threshold))


def roc_point(y_true, y_score, threshold):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    return share_called(y_score[y_true == 0], threshold), share_called(y_score[y_true == 1], threshold)
