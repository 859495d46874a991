def auc_by_pairs(y_true, y_score):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    diff = s[y == 1][:, None] - s[y == 0][None, :]
    return float(np.mean((np.sign(diff) + 1) / 2))
