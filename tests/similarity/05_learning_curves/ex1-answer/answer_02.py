def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    largest_fold = n_samples // n_splits + (1 if n_samples % n_splits else 0)
    return n_samples - largest_fold
