def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    losses = np.asarray(val_losses, dtype=float)
    prev_min = np.concatenate(([np.inf], np.minimum.accumulate(losses)[:-1]))
    improves = losses < prev_min
    last_improve = np.maximum.accumulate(np.where(improves, np.arange(len(losses)), 0))
    waited = np.arange(len(losses)) - last_improve
    stops = np.nonzero(waited == patience)[0]
    stop = int(stops[0]) if len(stops) else len(losses) - 1
    return int(last_improve[stop]) + 1, stop + 1
