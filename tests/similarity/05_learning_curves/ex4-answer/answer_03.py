def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    losses = np.asarray(val_losses, dtype=float)
    running_min = np.minimum.accumulate(losses)
    improved = np.r_[True, losses[1:] < running_min[:-1]]
    waited = 0
    stop = len(losses) - 1
    for epoch in range(1, len(losses)):
        waited = 0 if improved[epoch] else waited + 1
        if waited == patience:
            stop = epoch
            break
    best = int(np.argmin(losses[: stop + 1]))
    return best + 1, stop + 1
