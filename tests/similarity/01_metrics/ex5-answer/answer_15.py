def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):
    price = lambda c: np.dot([c[1], c[2]], [cost_fp, cost_fn])
    return "A" if price(counts_a) <= price(counts_b) else "B"
