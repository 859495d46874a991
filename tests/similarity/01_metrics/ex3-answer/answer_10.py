def macro_and_weighted_f1(y_true, y_pred):
    labels = sorted(set(np.asarray(y_true).tolist()) | set(np.asarray(y_pred).tolist()), key=repr)
    index = {label: i for i, label in enumerate(labels)}
    t = np.array([index[v] for v in np.asarray(y_true).tolist()])
    p = np.array([index[v] for v in np.asarray(y_pred).tolist()])
    k = len(labels)
    correct = np.bincount(t[t == p], minlength=k)
    true_count = np.bincount(t, minlength=k)
    pred_count = np.bincount(p, minlength=k)
    f1 = 2 * correct / (true_count + pred_count)
    return float(np.mean(f1)), float(np.sum(f1 * true_count) / len(t))
