def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    def expense(tp, fp, fn, tn):
        return cost_fp * fp + cost_fn * fn

    winner = "A" if expense(*counts_a) <= expense(*counts_b) else "B"
    return winner
