def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    best_epoch, wait = 0, 0
    epoch = 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] >= val_losses[best_epoch]:
            wait += 1
            if wait >= patience:
                break
        else:
            best_epoch = epoch
            wait = 0
    return best_epoch + 1, epoch + 1
