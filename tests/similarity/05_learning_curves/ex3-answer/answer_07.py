def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    rules = [
        (lambda: train_error > target_error, "high bias"),
        (lambda: val_error - train_error > max_gap, "high variance"),
    ]
    for check, label in rules:
        if check():
            return label
    return "good"
