def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    counter = 0
    best_epoch = 0
    stop_epoch = len(val_losses) - 1
    for epoch, loss in enumerate(val_losses):
        if epoch == 0:
            continue
        if loss >= min(val_losses[:epoch]):
            counter += 1
        else:
            counter = 0
            best_epoch = epoch
        if counter == patience:
            stop_epoch = epoch
            break
    return best_epoch + 1, stop_epoch + 1
