def cohen_kappa(cm):
    cm = np.asarray(cm, dtype=float)

    def proportion_agree(m):
        return m.trace() / m.sum()

    def proportion_chance(m):
        return (m.sum(0) / m.sum()).dot(m.sum(1) / m.sum())

    p0 = proportion_agree(cm)
    pe = proportion_chance(cm)
    return (p0 - pe) / (1 - pe)
