def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    losses = np.asarray(val_losses, dtype=float)
    n = len(losses)
    best_so_far = np.array([int(np.argmin(losses[: i + 1])) for i in range(n)])
    since_best = np.arange(n) - best_so_far
    hits = np.flatnonzero(since_best >= patience)
    stop = int(hits[0]) if hits.size else n - 1
    return int(best_so_far[stop]) + 1, stop + 1
