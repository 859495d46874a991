from fractions import Fraction


def cohen_kappa(cm):
    counts = [[Fraction(int(v)) for v in row] for row in np.asarray(cm)]
    n = sum(sum(row) for row in counts)
    k = len(counts)
    p_o = sum(counts[i][i] for i in range(k)) / n
    p_e = sum(sum(counts[i]) * sum(row[i] for row in counts) for i in range(k)) / n ** 2
    return float((p_o - p_e) / (1 - p_e))
