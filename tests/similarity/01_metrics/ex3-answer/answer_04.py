def macro_and_weighted_f1(y_true, y_pred):
    table = pd.crosstab(pd.Series(list(y_true), name="true"), pd.Series(list(y_pred), name="pred"))
    labels = table.index.union(table.columns)
    table = table.reindex(index=labels, columns=labels, fill_value=0)
    tp = np.diag(table.to_numpy())
    f1 = 2 * tp / (table.sum(axis=1).to_numpy() + table.sum(axis=0).to_numpy())
    support = table.sum(axis=1).to_numpy()
    return float(f1.mean()), float(np.sum(f1 * support) / support.sum())
