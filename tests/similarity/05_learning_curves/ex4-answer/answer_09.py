class EarlyStopper:
    def __init__(self, patience):
        self.patience = patience
        self.best_loss = None
        self.best_epoch = None
        self.wait = 0

    def update(self, epoch, loss):
        if self.best_loss is None or loss < self.best_loss:
            self.best_loss, self.best_epoch, self.wait = loss, epoch, 0
            return False
        self.wait += 1
        return self.wait >= self.patience


def early_stopping(val_losses, patience):
    """(best_epoch, stop_epoch) of patience-based early stopping."""
    stopper = EarlyStopper(patience)
    for epoch, loss in enumerate(val_losses):
        if stopper.update(epoch, loss):
            return stopper.best_epoch + 1, epoch + 1
    return stopper.best_epoch + 1, len(val_losses)
