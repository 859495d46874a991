def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    remaining = n_samples
    largest = 0
    for folds_left in range(n_splits, 0, -1):
        size = -(-remaining // folds_left)
        largest = max(largest, size)
        remaining -= size
    return n_samples - largest
