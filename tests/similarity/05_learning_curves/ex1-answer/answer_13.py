def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    fold_sizes = [n_samples // n_splits + (i < n_samples % n_splits) for i in range(n_splits)]
    return n_samples - max(fold_sizes)
