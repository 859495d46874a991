def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    if not train_error > target_error:
        if val_error > train_error + max_gap:
            return "high variance"
        return "good"
    return "high bias"
