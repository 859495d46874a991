def cohen_kappa(cm):
    c = np.asarray(cm, dtype=float)
    n = c.sum()
    po = np.einsum("ii", c) / n
    pe = np.einsum("i,i", c.sum(axis=1), c.sum(axis=0)) / n**2
    return (po - pe) / (1 - pe)
