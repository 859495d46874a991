import statistics

def macro_and_weighted_f1(y_true, y_pred):
    pairs = list(zip(y_true, y_pred))
    classes = {label for pair in pairs for label in pair}

    def f1(c):
        both = sum(1 for t, p in pairs if t == c and p == c)
        either = sum(int(t == c) + int(p == c) for t, p in pairs)
        return 2 * both / either

    scores = {c: f1(c) for c in classes}
    support = {c: sum(1 for t, _ in pairs if t == c) for c in classes}
    macro = statistics.fmean(scores.values())
    weighted = sum(scores[c] * support[c] for c in classes) / len(pairs)
    return macro, weighted
