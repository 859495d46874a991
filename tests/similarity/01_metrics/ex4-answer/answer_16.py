def cohen_kappa(cm):
    cm = np.array(cm, dtype=float)
    total = np.sum(cm)
    i = 0
    po = 0.0
    pe = 0.0
    while i < cm.shape[0]:
        po += cm[i, i] / total
        pe += np.sum(cm[i, :]) * np.sum(cm[:, i]) / total ** 2
        i += 1
    return (po - pe) / (1 - pe)
