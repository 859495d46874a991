from scipy.stats import rankdata


def auc_by_pairs(y_true, y_score):
    y = np.asarray(y_true)
    ranks = rankdata(y_score)
    n_pos = np.sum(y == 1)
    n_neg = len(y) - n_pos
    return float((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
