def auc_by_pairs(y_true, y_score):
    t = np.array(y_true)
    sc = np.array(y_score)
    pos = sc[t == 1].reshape(-1, 1)
    neg = sc[t == 0].reshape(1, -1)
    return float((pos > neg).mean() + 0.5 * (pos == neg).mean())
