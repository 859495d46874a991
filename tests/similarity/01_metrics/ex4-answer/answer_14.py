def cohen_kappa(cm):
    m = [[float(x) for x in row] for row in cm]
    n = sum(map(sum, m))
    diag = sum(m[i][i] for i in range(len(m)))
    cols = [sum(col) for col in zip(*m)]
    rows = [sum(row) for row in m]
    pe = sum(a * b for a, b in zip(rows, cols)) / n ** 2
    return (diag / n - pe) / (1 - pe)
