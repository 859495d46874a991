def roc_point(y_true, y_score, threshold):
    tp = fp = pos = neg = 0
    for label, score in zip(y_true, y_score):
        if label == 1:
            pos += 1
            if score >= threshold:
                tp += 1
        else:
            neg += 1
            if score >= threshold:
                fp += 1
    return fp / neg, tp / pos
