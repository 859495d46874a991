def cohen_kappa(cm):
    rows = [list(map(float, row)) for row in cm]
    k = len(rows)
    n = sum(sum(row) for row in rows)
    agree = sum(rows[i][i] for i in range(k)) / n
    row_totals = [sum(row) for row in rows]
    col_totals = [sum(rows[i][j] for i in range(k)) for j in range(k)]
    chance = sum(r * c for r, c in zip(row_totals, col_totals)) / (n * n)
    return (agree - chance) / (1 - chance)
