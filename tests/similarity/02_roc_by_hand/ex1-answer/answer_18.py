import statistics


def roc_point(y_true, y_score, threshold):
    calls_neg = [float(s >= threshold) for t, s in zip(y_true, y_score) if t == 0]
    calls_pos = [float(s >= threshold) for t, s in zip(y_true, y_score) if t == 1]
    return statistics.mean(calls_neg), statistics.mean(calls_pos)
