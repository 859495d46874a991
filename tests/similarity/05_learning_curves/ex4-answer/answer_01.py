def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    best = 0
    since = 0
    for i in range(1, len(val_losses)):
        if val_losses[i] < val_losses[best]:
            best = i
            since = 0
        else:
            since += 1
        if since >= patience:
            return best + 1, i + 1
    return best + 1, len(val_losses)
