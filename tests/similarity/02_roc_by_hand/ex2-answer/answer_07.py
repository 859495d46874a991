def auc_by_pairs(y_true, y_score):
    negatives = [s for s, t in zip(y_score, y_true) if t == 0]
    scores = []
    for s, t in zip(y_score, y_true):
        if t == 1:
            wins = sum(1 for n in negatives if s > n)
            draws = sum(1 for n in negatives if s == n)
            scores.append((wins + draws / 2) / len(negatives))
    return sum(scores) / len(scores)
