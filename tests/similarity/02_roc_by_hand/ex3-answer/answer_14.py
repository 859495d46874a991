from collections import defaultdict


def cheapest_threshold(y_true, y_score, cost_fp, cost_fn):
    groups = defaultdict(lambda: [0, 0])   # score -> [negatives, positives]
    for label, score in zip(y_true, y_score):
        groups[score][int(label)] += 1
    positives = sum(g[1] for g in groups.values())
    fp, fn = 0, positives
    best, best_total = np.inf, cost_fn * positives
    for score in sorted(groups, reverse=True):
        fp += groups[score][0]
        fn -= groups[score][1]
        total = cost_fp * fp + cost_fn * fn
        if total < best_total:
            best, best_total = score, total
    return best
