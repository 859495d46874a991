def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    if train_error > target_error:
        return "high bias"
    else:
        if val_error - train_error > max_gap:
            return "high variance"
        else:
            return "good"
