def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    return (n_samples * (n_splits - 1)) // n_splits
