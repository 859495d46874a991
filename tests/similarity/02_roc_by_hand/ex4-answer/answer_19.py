def precision_at_recall(y_true, y_score, min_recall):
    truth = np.array(y_true, dtype=bool)
    score = np.array(y_score, dtype=float)
    results = [((score >= c) & truth).sum() / (score >= c).sum()
               for c in np.unique(score)
               if ((score >= c) & truth).sum() / truth.sum() >= min_recall]
    return float(max(results))
