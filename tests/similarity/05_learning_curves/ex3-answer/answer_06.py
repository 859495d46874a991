def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    too_high = train_error > target_error
    too_far = val_error - train_error > max_gap
    table = {(True, True): "high bias", (True, False): "high bias",
             (False, True): "high variance", (False, False): "good"}
    return table[(too_high, too_far)]
