def cohen_kappa(cm):
    m = np.array(cm, dtype=float)
    total = m.sum()
    observed = np.diag(m).sum() / total
    expected = (m.sum(axis=1) @ m.sum(axis=0)) / total ** 2
    return (observed - expected) / (1 - expected)
