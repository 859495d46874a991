def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    best_value = float("inf")
    best_index = 0
    patience_left = patience
    for index, value in enumerate(val_losses):
        if value < best_value:
            best_value = value
            best_index = index
            patience_left = patience
        else:
            patience_left -= 1
            if patience_left == 0:
                break
    return best_index + 1, index + 1
