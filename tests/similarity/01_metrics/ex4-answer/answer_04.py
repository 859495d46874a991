def cohen_kappa(cm):
    observed = np.asarray(cm, dtype=float)
    n = observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / n
    return 1 - (n - np.trace(observed)) / (n - np.trace(expected))
