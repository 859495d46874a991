def cohen_kappa(cm):
    # YOUR CODE HERE
    table = np.array(cm, dtype=np.float64)
    N = table.sum()
    actual_marginals = table.sum(axis=1) / N
    predicted_marginals = table.sum(axis=0) / N
    accuracy = np.diagonal(table).sum() / N
    chance_agreement = np.dot(actual_marginals, predicted_marginals)
    kappa = (accuracy - chance_agreement) / (1 - chance_agreement)
    return float(kappa)
