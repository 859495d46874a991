def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    training = float(train_error)
    validation = float(val_error)
    if training > float(target_error):
        return "high bias"
    elif validation - training > float(max_gap):
        return "high variance"
    else:
        return "good"
