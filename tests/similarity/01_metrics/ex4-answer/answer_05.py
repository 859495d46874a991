def cohen_kappa(cm):
    cm = np.asarray(cm, dtype=float)
    k = cm.shape[0]
    disagreement = 1 - np.eye(k)
    expected = np.outer(cm.sum(axis=1), cm.sum(axis=0)) / cm.sum()
    return 1 - (disagreement * cm).sum() / (disagreement * expected).sum()
