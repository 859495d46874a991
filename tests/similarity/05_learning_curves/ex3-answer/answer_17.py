def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    gap = val_error - train_error
    bias = train_error - target_error
    if bias > 0:
        return "high bias"
    if gap - max_gap > 0:
        return "high variance"
    return "good"
