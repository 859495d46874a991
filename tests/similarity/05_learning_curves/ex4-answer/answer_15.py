def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    # YOUR CODE HERE
    epochs = len(val_losses)
    best = 0
    for current in range(epochs):
        if val_losses[current] < val_losses[best]:
            best = current
        elif current - best >= patience:
            return (best + 1, current + 1)
    return (best + 1, epochs)
