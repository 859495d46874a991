def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    if train_error <= target_error and val_error - train_error <= max_gap:
        return "good"
    if train_error <= target_error:
        return "high variance"
    return "high bias"
