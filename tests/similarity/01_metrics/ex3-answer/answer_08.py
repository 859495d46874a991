def macro_and_weighted_f1(y_true, y_pred):
    # YOUR CODE HERE
    classes = []
    for label in list(y_true) + list(y_pred):
        if label not in classes:
            classes.append(label)
    per_class_f1 = []
    supports = []
    for c in classes:
        tp = 0
        fp = 0
        fn = 0
        for i in range(len(y_true)):
            if y_true[i] == c and y_pred[i] == c:
                tp = tp + 1
            if y_true[i] != c and y_pred[i] == c:
                fp = fp + 1
            if y_true[i] == c and y_pred[i] != c:
                fn = fn + 1
        per_class_f1.append(2 * tp / (2 * tp + fp + fn))
        supports.append(tp + fn)
    macro_f1 = sum(per_class_f1) / len(per_class_f1)
    weighted_f1 = 0
    for score, support in zip(per_class_f1, supports):
        weighted_f1 = weighted_f1 + score * support / len(y_true)
    return macro_f1, weighted_f1
