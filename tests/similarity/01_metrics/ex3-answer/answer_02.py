from collections import Counter

def macro_and_weighted_f1(y_true, y_pred):
    pairs = Counter(zip(y_true, y_pred))
    true_counts = Counter(y_true)
    pred_counts = Counter(y_pred)
    classes = set(true_counts) | set(pred_counts)
    f1 = {}
    for c in classes:
        hit = pairs[(c, c)]
        f1[c] = 2 * hit / (true_counts[c] + pred_counts[c])
    macro = sum(f1.values()) / len(f1)
    n = sum(true_counts.values())
    weighted = sum(f1[c] * true_counts[c] for c in classes) / n
    return macro, weighted
