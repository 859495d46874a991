def agreement(cm):
    return np.trace(cm) / cm.sum()


def chance(cm):
    n = cm.sum()
    return sum(cm[i, :].sum() * cm[:, i].sum() for i in range(len(cm))) / n**2


def cohen_kappa(cm):
    cm = np.asarray(cm, dtype=float)
    po, pe = agreement(cm), chance(cm)
    return (po - pe) / (1 - pe)
