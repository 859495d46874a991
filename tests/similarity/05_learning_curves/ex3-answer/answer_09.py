def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    match (bool(train_error > target_error), bool(val_error - train_error > max_gap)):
        case (True, _):
            return "high bias"
        case (False, True):
            return "high variance"
        case _:
            return "good"
