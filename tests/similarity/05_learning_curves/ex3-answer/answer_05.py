def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    underfits = train_error > target_error
    overfits = (val_error - train_error) > max_gap
    if underfits:
        return "high bias"
    return "high variance" if overfits else "good"
