import pandas as pd


def mcnemar_p_value(y_true, y_pred_a, y_pred_b):
    frame = pd.DataFrame({"truth": list(y_true), "a": list(y_pred_a), "b": list(y_pred_b)})
    frame["a_right"] = frame["a"] == frame["truth"]
    frame["b_right"] = frame["b"] == frame["truth"]
    counts = pd.crosstab(frame["a_right"], frame["b_right"])
    b = int(counts.loc[True, False]) if True in counts.index and False in counts.columns else 0
    c = int(counts.loc[False, True]) if False in counts.index and True in counts.columns else 0
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return float(min(1.0, 2 * tail))
