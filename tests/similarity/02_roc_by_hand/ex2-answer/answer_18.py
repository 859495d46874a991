def auc_by_pairs(y_true, y_score):
    y = np.asarray(y_true)
    s = np.asarray(y_score)
    P = np.tile(s[y == 1], (np.sum(y == 0), 1)).T
    N = np.tile(s[y == 0], (np.sum(y == 1), 1))
    return float(np.mean(np.where(P > N, 1.0, np.where(P == N, 0.5, 0.0))))
