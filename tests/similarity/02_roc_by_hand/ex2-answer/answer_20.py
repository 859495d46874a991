from scipy.stats import mannwhitneyu


def auc_by_pairs(y_true, y_score):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    u = mannwhitneyu(s[y == 1], s[y == 0]).statistic
    return float(u / (np.sum(y == 1) * np.sum(y == 0)))
