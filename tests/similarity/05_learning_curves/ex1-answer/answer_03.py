def largest_training_size(n_samples, n_splits):
    q, r = divmod(n_samples, n_splits)
    return n_samples - q - (r > 0)
