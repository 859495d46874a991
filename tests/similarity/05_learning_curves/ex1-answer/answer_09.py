def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    folds = np.array_split(np.arange(n_samples), n_splits)
    return n_samples - len(folds[0])
