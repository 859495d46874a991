def roc_point(y_true, y_score, threshold):
    order = sorted(zip(y_score, y_true), reverse=True)
    called = [label for score, label in order if score >= threshold]
    positives = sum(1 for label in y_true if label == 1)
    negatives = len(y_true) - positives
    return called.count(0) / negatives, called.count(1) / positives
