def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    return "high bias" if train_error > target_error else ("high variance" if val_error - train_error > max_gap else "good")
