from collections import namedtuple

Counts = namedtuple("Counts", "tp fp fn tn")


def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    a, b = Counts(*counts_a), Counts(*counts_b)
    cost_of_a = a.fp * cost_fp + a.fn * cost_fn
    cost_of_b = b.fp * cost_fp + b.fn * cost_fn
    return "A" if cost_of_a <= cost_of_b else "B"
