def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    epoch = 0
    best_epoch = 0
    last = len(val_losses) - 1
    while epoch < last and epoch - best_epoch < patience:
        epoch += 1
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch = epoch
    return best_epoch + 1, epoch + 1
