import math

def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    validation = math.ceil(n_samples / n_splits)
    train = n_samples - validation
    return int(train)
