def roc_point(y_true, y_score, threshold):
    pairs = list(zip(y_true, y_score))
    positives = [s for y, s in pairs if y == 1]
    negatives = [s for y, s in pairs if y == 0]
    tpr = sum(s >= threshold for s in positives) / len(positives)
    fpr = sum(s >= threshold for s in negatives) / len(negatives)
    return fpr, tpr
