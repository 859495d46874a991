def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    stop = len(val_losses) - 1
    lowest = val_losses[0]
    without = 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < lowest:
            lowest = val_losses[epoch]
            without = 0
        else:
            without += 1
        if without == patience:
            stop = epoch
            break
    best = min(range(stop + 1), key=lambda e: (val_losses[e], e))
    return best + 1, stop + 1
