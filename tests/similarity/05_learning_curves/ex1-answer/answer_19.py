def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    indices = np.arange(n_samples)
    test_sizes = [len(part) for part in np.array_split(indices, n_splits)]
    train_sizes = [n_samples - t for t in test_sizes]
    return int(min(train_sizes))
