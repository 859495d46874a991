def cohen_kappa(cm):
    x = np.asarray(cm, dtype=float)
    total = x.sum()
    expected = x.sum(axis=1, keepdims=True) * x.sum(axis=0, keepdims=True) / total
    observed_hits = np.trace(x)
    expected_hits = np.trace(expected)
    return (observed_hits - expected_hits) / (total - expected_hits)
