def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    verdicts = (("high bias", train_error > target_error),
                ("high variance", val_error - train_error > max_gap),
                ("good", True))
    return next(name for name, holds in verdicts if holds)
