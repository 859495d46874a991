def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    base, extra = divmod(n_samples, n_splits)
    largest_validation = base + 1 if extra > 0 else base
    return int(n_samples - largest_validation)
