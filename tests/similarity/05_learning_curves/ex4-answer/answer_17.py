def improvements(losses):
    """Epochs whose loss is below every earlier one."""
    best = float("inf")
    for epoch, loss in enumerate(losses):
        if loss < best:
            best = loss
            yield epoch


def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    n = len(val_losses)
    improved = set(improvements(val_losses))
    last = 0
    for epoch in range(n):
        if epoch in improved:
            last = epoch
        elif epoch - last == patience:
            return last + 1, epoch + 1
    return last + 1, n
