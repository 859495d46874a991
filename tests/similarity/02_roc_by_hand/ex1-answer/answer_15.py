def roc_point(y_true, y_score, threshold):
    table = np.zeros((2, 2))
    actual = np.asarray(y_true).astype(int)
    called = (np.asarray(y_score) >= threshold).astype(int)
    np.add.at(table, (actual, called), 1)
    return table[0, 1] / table[0].sum(), table[1, 1] / table[1].sum()
