def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    keys = ("tp", "fp", "fn", "tn")
    a = dict(zip(keys, counts_a))
    b = dict(zip(keys, counts_b))
    cost = {k: v["fp"] * cost_fp + v["fn"] * cost_fn for k, v in {"A": a, "B": b}.items()}
    return "A" if cost["A"] <= cost["B"] else "B"
