def macro_and_weighted_f1(y_true, y_pred):
    yt = np.asarray(y_true)
    yp = np.asarray(y_pred)
    labels = np.unique(np.concatenate((yt, yp)))
    ti = np.searchsorted(labels, yt)
    pi = np.searchsorted(labels, yp)
    matrix = np.zeros((labels.size, labels.size), dtype=int)
    for a, b in zip(ti, pi):
        matrix[a, b] += 1
    diag = matrix.diagonal()
    fp = matrix.sum(axis=0) - diag
    fn = matrix.sum(axis=1) - diag
    f1 = 2 * diag / (2 * diag + fp + fn)
    support = diag + fn
    return float(f1.mean()), float((support * f1).sum() / support.sum())
