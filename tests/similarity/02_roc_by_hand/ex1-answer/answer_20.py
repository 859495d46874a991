def roc_point(y_true, y_score, threshold):
    totals = {0: 0, 1: 0}
    called = {0: 0, 1: 0}
    for label, score in zip(y_true, y_score):
        totals[int(label)] += 1
        if score >= threshold:
            called[int(label)] += 1
    return called[0] / totals[0], called[1] / totals[1]
