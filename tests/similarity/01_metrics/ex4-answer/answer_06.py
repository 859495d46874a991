def cohen_kappa(cm):
    matrix = np.asarray(cm)
    size = matrix.shape[0]
    n = 0.0
    diagonal = 0.0
    for i in range(size):
        for j in range(size):
            n += matrix[i, j]
        diagonal += matrix[i, i]
    p_observed = diagonal / n
    p_chance = 0.0
    for i in range(size):
        p_chance += (matrix[i, :].sum() / n) * (matrix[:, i].sum() / n)
    return (p_observed - p_chance) / (1 - p_chance)
