def macro_and_weighted_f1(y_true, y_pred):
    from collections import defaultdict
    tp, fp, fn = defaultdict(int), defaultdict(int), defaultdict(int)
    for t, p in zip(y_true, y_pred):
        if t == p:
            tp[t] += 1
        else:
            fp[p] += 1
            fn[t] += 1
    labels = set(tp) | set(fp) | set(fn)
    f1 = {c: 2 * tp[c] / (2 * tp[c] + fp[c] + fn[c]) for c in labels}
    support = {c: tp[c] + fn[c] for c in labels}
    n = sum(support.values())
    return sum(f1.values()) / len(labels), sum(f1[c] * support[c] for c in labels) / n
