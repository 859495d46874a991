def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    status = None
    if train_error > target_error:
        status = "high bias"
    if status is None and (val_error - train_error) > max_gap:
        status = "high variance"
    return status or "good"
