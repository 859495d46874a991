def auc_by_pairs(y_true, y_score):
    data = sorted(zip(y_score, y_true))
    ranks = [0.0] * len(data)
    i = 0
    while i < len(data):
        j = i
        while j + 1 < len(data) and data[j + 1][0] == data[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    n_pos = sum(1 for _, y in data if y == 1)
    n_neg = len(data) - n_pos
    rank_sum = sum(r for r, (_, y) in zip(ranks, data) if y == 1)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
