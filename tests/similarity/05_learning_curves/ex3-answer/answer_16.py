def is_high_bias(train_error, target_error):
    return train_error > target_error


def is_high_variance(train_error, val_error, max_gap):
    return val_error - train_error > max_gap


def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    if is_high_bias(train_error, target_error):
        return "high bias"
    if is_high_variance(train_error, val_error, max_gap):
        return "high variance"
    return "good"
