def precision_at_recall(y_true, y_score, min_recall):
    y = np.asarray(y_true).astype(int)
    values, inverse = np.unique(np.asarray(y_score, dtype=float), return_inverse=True)
    pos = np.bincount(inverse, weights=y)[::-1].cumsum()
    cnt = np.bincount(inverse)[::-1].cumsum()
    recall = pos / y.sum()
    return float((pos / cnt)[recall >= min_recall].max())
