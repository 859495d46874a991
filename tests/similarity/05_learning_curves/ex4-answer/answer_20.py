def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    stop = next((e for e in range(len(val_losses))
                 if e - int(np.argmin(val_losses[: e + 1])) >= patience), len(val_losses) - 1)
    return int(np.argmin(val_losses[: stop + 1])) + 1, stop + 1
