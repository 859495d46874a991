def cohen_kappa(cm):
    joint = np.asarray(cm, dtype=float) / np.sum(cm)
    independent = np.outer(joint.sum(axis=1), joint.sum(axis=0))
    p_o, p_e = np.diag(joint).sum(), np.diag(independent).sum()
    return float((p_o - p_e) / (1 - p_e))
