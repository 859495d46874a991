def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    """Return "A" or "B", whichever costs less ("A" on a tie)."""
    costs = [cost_fp * fp + cost_fn * fn for _, fp, fn, _ in (counts_a, counts_b)]
    return "A" if costs[0] <= costs[1] else "B"
