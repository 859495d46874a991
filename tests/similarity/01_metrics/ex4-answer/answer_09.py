def cohen_kappa(cm):
    cm = np.asarray(cm)
    total = cm.sum()
    p_agree = sum(cm[i][i] for i in range(len(cm))) / total
    p_random = sum(r * c for r, c in zip(cm.sum(1), cm.sum(0))) / total / total
    return float((p_agree - p_random) / (1 - p_random))
