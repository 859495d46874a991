def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    gap = val_error - train_error
    if train_error > target_error:
        verdict = "high bias"
    elif gap > max_gap:
        verdict = "high variance"
    else:
        verdict = "good"
    return verdict
