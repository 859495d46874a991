def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    labels = ["good", "high variance", "high bias"]
    level = 0
    if val_error - train_error > max_gap:
        level = 1
    if train_error > target_error:
        level = 2
    return labels[level]
