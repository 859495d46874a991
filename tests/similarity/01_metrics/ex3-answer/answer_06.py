def per_class_counts(y_true, y_pred, label):
    tp = fp = fn = 0
    for actual, predicted in zip(y_true, y_pred):
        if predicted == label and actual == label:
            tp += 1
        elif predicted == label:
            fp += 1
        elif actual == label:
            fn += 1
    return tp, fp, fn


def macro_and_weighted_f1(y_true, y_pred):
    labels = set(y_true).union(y_pred)
    total = 0.0
    weighted_total = 0.0
    for label in labels:
        tp, fp, fn = per_class_counts(y_true, y_pred, label)
        f1 = 2 * tp / (2 * tp + fp + fn)
        total += f1
        weighted_total += f1 * (tp + fn)
    return total / len(labels), weighted_total / len(y_true)
