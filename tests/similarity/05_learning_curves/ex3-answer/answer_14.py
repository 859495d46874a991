def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    result = "good"
    if val_error - train_error > max_gap:
        result = "high variance"
    if train_error > target_error:
        result = "high bias"
    return result
