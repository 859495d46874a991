def cohen_kappa(cm):
    p = np.asarray(cm, dtype=float)
    p = p / p.sum()
    po = np.trace(p)
    pe = float(np.sum(p.sum(0) * p.sum(1)))
    return (po - pe) / (1.0 - pe)
