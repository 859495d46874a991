def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    series = pd.Series(np.asarray(val_losses, dtype=float))
    previous_best = series.cummin().shift(1, fill_value=np.inf)
    new_best = series < previous_best
    last_best = pd.Series(np.where(new_best, series.index, np.nan)).ffill().astype(int)
    idle = series.index - last_best
    stopped = idle[idle >= patience]
    stop = int(stopped.index[0]) if len(stopped) else len(series) - 1
    return int(last_best[stop]) + 1, stop + 1
