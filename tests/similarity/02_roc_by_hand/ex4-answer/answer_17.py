def precision_at_recall(y_true, y_score, min_recall):
    scores = np.asarray(y_score, dtype=float)
    is_pos = np.asarray(y_true) == 1
    answer = 0.0
    for cut in sorted(set(scores)):
        above = scores >= cut
        recall = (above & is_pos).sum() / is_pos.sum()
        if recall < min_recall:
            break
        answer = max(answer, (above & is_pos).sum() / above.sum())
    return float(answer)
