def roc_point(y_true, y_score, threshold):
    table = pd.crosstab(np.asarray(y_true), np.asarray(y_score) >= threshold)
    table = table.reindex(columns=[False, True], fill_value=0)
    rates = table[True] / table.sum(axis=1)
    return float(rates.loc[0]), float(rates.loc[1])
