def roc_point(y_true, y_score, threshold):
    n_pos = n_neg = tp = fp = 0
    for i in range(len(y_true)):
        positive_call = y_score[i] >= threshold
        if y_true[i] == 1:
            n_pos += 1
            tp += int(positive_call)
        else:
            n_neg += 1
            fp += int(positive_call)
    return fp / n_neg, tp / n_pos
