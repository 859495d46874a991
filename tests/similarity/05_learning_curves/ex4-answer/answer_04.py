def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    best_epoch = 0
    for epoch in range(len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch = epoch
        if epoch - best_epoch == patience:
            return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
