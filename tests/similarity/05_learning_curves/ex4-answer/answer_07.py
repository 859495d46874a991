def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    history = []
    best = None
    for epoch, loss in enumerate(val_losses):
        if best is None or loss < val_losses[best]:
            best = epoch
        history.append(epoch - best)
        if history[-1] >= patience:
            break
    return best + 1, len(history)
