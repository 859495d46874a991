def diagnose(train_error, val_error, target_error, max_gap):
    """'high bias', 'high variance' or 'good' for the last point of a learning curve."""
    checks = {"high bias": train_error > target_error,
              "high variance": val_error - train_error > max_gap}
    for name, failed in checks.items():
        if failed:
            return name
    return "good"
