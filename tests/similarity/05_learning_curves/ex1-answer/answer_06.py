def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    sizes = [n_samples // n_splits] * n_splits
    for i in range(n_samples % n_splits):
        sizes[i] += 1
    return n_samples - max(sizes)
