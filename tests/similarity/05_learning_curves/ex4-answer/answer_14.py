from itertools import accumulate


def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    lowest_so_far = list(accumulate(val_losses, min))
    best = 0
    for epoch in range(1, len(val_losses)):
        if lowest_so_far[epoch] < lowest_so_far[epoch - 1]:
            best = epoch
        elif epoch - best == patience:
            return best + 1, epoch + 1
    return best + 1, len(val_losses)
