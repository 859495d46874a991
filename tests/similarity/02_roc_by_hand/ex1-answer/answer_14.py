def roc_point(y_true, y_score, threshold):
    pos_scores = [s for s, t in zip(y_score, y_true) if t]
    neg_scores = [s for s, t in zip(y_score, y_true) if not t]
    tpr = len([s for s in pos_scores if s >= threshold]) / len(pos_scores)
    fpr = len([s for s in neg_scores if s >= threshold]) / len(neg_scores)
    return (fpr, tpr)
