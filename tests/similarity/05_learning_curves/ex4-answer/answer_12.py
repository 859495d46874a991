def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    losses = [float(v) for v in val_losses]
    record = losses[0]
    record_epoch = 0
    for epoch in range(1, len(losses)):
        if losses[epoch] < record:
            record, record_epoch = losses[epoch], epoch
        elif epoch - record_epoch >= patience:
            return record_epoch + 1, epoch + 1
    return record_epoch + 1, len(losses)
