from sklearn.model_selection import KFold


def largest_training_size(n_samples, n_splits):
    """Largest training-set size learning_curve allows with KFold(n_splits) on n_samples rows."""
    splits = KFold(n_splits).split(np.zeros(n_samples))
    return int(min(len(train) for train, _ in splits))
