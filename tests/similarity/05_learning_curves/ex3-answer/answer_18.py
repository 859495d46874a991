def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    return ["good", "high variance"][int(val_error - train_error > max_gap)] if train_error <= target_error else "high bias"
