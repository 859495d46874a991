def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    fold = n_samples // n_splits
    if fold * n_splits < n_samples:
        fold += 1
    return n_samples - fold
