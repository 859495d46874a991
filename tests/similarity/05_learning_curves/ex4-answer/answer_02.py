def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    losses = list(val_losses)
    best_loss = losses[0]
    best_epoch = 0
    bad_epochs = 0
    for epoch, loss in enumerate(losses[1:], start=1):
        if loss < best_loss:
            best_loss, best_epoch, bad_epochs = loss, epoch, 0
        else:
            bad_epochs += 1
            if bad_epochs == patience:
                return (best_epoch + 1, epoch + 1)
    return (best_epoch + 1, len(losses))
