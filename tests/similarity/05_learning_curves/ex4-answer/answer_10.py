def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    n = len(val_losses)
    best_epoch, stop_epoch = 0, n - 1
    streak = 0
    for e in range(1, n):
        improved = all(val_losses[e] < val_losses[j] for j in range(e))
        if improved:
            best_epoch = e
            streak = 0
        else:
            streak += 1
        if streak == patience:
            stop_epoch = e
            break
    return best_epoch + 1, stop_epoch + 1
