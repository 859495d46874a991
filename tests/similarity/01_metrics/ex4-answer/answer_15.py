def cohen_kappa(cm):
    A = np.asarray(cm, dtype=float)
    ones = np.ones(A.shape[0])
    n = ones @ A @ ones
    p_o = np.trace(A) / n
    p_e = (A @ ones) @ (ones @ A) / n ** 2
    return (p_o - p_e) / (1 - p_e)
