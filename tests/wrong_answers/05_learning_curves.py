"""Plausible wrong answers to notebook 05's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: largest_training_size(n_samples, n_splits) = n - size of the first fold (the first split's
    #      training set, learning_curve's cap), an int
    dict(exercise="ex1-answer", rule="the first split's training set, not the largest one (round the fold up)",
         message="minus the first fold", source='''
def largest_training_size(n_samples, n_splits):
    return n_samples - n_samples // n_splits
'''),
    dict(exercise="ex1-answer", rule="an int, not a float", message="return an int", source='''
def largest_training_size(n_samples, n_splits):
    return n_samples - np.ceil(n_samples / n_splits)
'''),
    dict(exercise="ex1-answer", rule="use n_splits, not 80 %", message="80 % of the rows is the share of cv=5", source='''
def largest_training_size(n_samples, n_splits):
    return int(0.8 * n_samples)
'''),
    dict(exercise="ex1-answer", rule="use the arguments, not the example's numbers", message="10 rows in 3 folds", source='''
def largest_training_size(n_samples, n_splits):
    return 7654
'''),
    # ---- Exercise 2: bias2_and_variance(predictions, true_value) -> (bias2, variance) floats, ddof=0, lists allowed
    dict(exercise="ex2-answer", rule="variance with ddof=0", message="ddof=0", source='''
def bias2_and_variance(predictions, true_value):
    predictions = np.asarray(predictions, dtype=float)
    return float((true_value - predictions.mean()) ** 2), float(predictions.var(ddof=1))
'''),
    dict(exercise="ex2-answer", rule="bias is squared", message="bias^2 = (f(x) - mean prediction)^2", source='''
def bias2_and_variance(predictions, true_value):
    predictions = np.asarray(predictions, dtype=float)
    return float(abs(true_value - predictions.mean())), float(predictions.var())
'''),
    dict(exercise="ex2-answer", rule="the order (bias2, variance)", message="bias^2 = (f(x) - mean prediction)^2", source='''
def bias2_and_variance(predictions, true_value):
    predictions = np.asarray(predictions, dtype=float)
    return float(predictions.var()), float((true_value - predictions.mean()) ** 2)
'''),
    dict(exercise="ex2-answer", rule="a tuple", message="return a tuple", source='''
def bias2_and_variance(predictions, true_value):
    predictions = np.asarray(predictions, dtype=float)
    return [float((true_value - predictions.mean()) ** 2), float(predictions.var())]
'''),
    dict(exercise="ex2-answer", rule="two floats", message="floats", source='''
def bias2_and_variance(predictions, true_value):
    predictions = np.asarray(predictions, dtype=float)
    return np.array([(true_value - predictions.mean()) ** 2]), np.array([predictions.var()])
'''),
    dict(exercise="ex2-answer", rule="predictions may be a list", message="np.asarray", source='''
def bias2_and_variance(predictions, true_value):
    return float((true_value - predictions.mean()) ** 2), float(predictions.var())
'''),
    # ---- Exercise 3: diagnose(train_error, val_error, target_error, max_gap) -> "high bias" / "high variance" / "good"
    dict(exercise="ex3-answer", rule="return a str", message="return a str", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if train_error > target_error:
        return ["high bias"]
    if val_error - train_error > max_gap:
        return ["high variance"]
    return ["good"]
'''),
    dict(exercise="ex3-answer", rule="the training error decides 'high bias' first", message="check the training error first",
         source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if val_error - train_error > max_gap:
        return "high variance"
    if train_error > target_error:
        return "high bias"
    return "good"
'''),
    dict(exercise="ex3-answer", rule="above the target: >, not >=", message="a training error equal to the target", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if train_error >= target_error:
        return "high bias"
    if val_error - train_error > max_gap:
        return "high variance"
    return "good"
'''),
    dict(exercise="ex3-answer", rule="more than max_gap: >, not >=", message="a gap equal to max_gap", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if train_error > target_error:
        return "high bias"
    if val_error - train_error >= max_gap:
        return "high variance"
    return "good"
'''),
    dict(exercise="ex3-answer", rule="bias compares the training error (not the validation error) with the target",
         message="compare the TRAINING error with the target", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if val_error > target_error:
        return "high bias"
    if val_error - train_error > max_gap:
        return "high variance"
    return "good"
'''),
    dict(exercise="ex3-answer", rule="the exact strings", message="high variance", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if train_error > target_error:
        return "high bias"
    if val_error - train_error > max_gap:
        return "overfitting"
    return "good"
'''),
    # ---- Exercise 4: early_stopping(val_losses, patience) -> (best_epoch, stop_epoch)
    dict(exercise="ex4-answer", rule="an equal loss is not an improvement", message="an equal loss is not an improvement",
         source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] <= val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
    dict(exercise="ex4-answer", rule="stop at the epoch that ends the run (not one later)", message="stop at 6", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited > patience:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
    dict(exercise="ex4-answer", rule="the best epoch up to the stop, not over all epochs", message="stop at 6", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return int(np.argmin(val_losses)) + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
    dict(exercise="ex4-answer", rule="no stop: the last epoch, numbered len(val_losses)", message="stop at the last", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses) - 1
'''),
    dict(exercise="ex4-answer", rule="use the patience argument", message="use the argument patience", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == 3:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
    dict(exercise="ex4-answer", rule="a tuple", message="return a tuple", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return [best_epoch + 1, epoch + 1]
    return [best_epoch + 1, len(val_losses)]
'''),
]

# ---- appended for issue 20: losses given as a NumPy array (list methods fail on it)
WRONG_ANSWERS += [
    dict(exercise="ex4-answer", rule="val_losses may be a NumPy array", message="val_losses may be a NumPy array",
         source='''
def early_stopping(val_losses, patience):
    waited, stop = 0, len(val_losses) - 1
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < min(val_losses[:epoch]):
            waited = 0
        else:
            waited += 1
            if waited == patience:
                stop = epoch
                break
    seen = val_losses[:stop + 1]
    return seen.index(min(seen)) + 1, stop + 1
'''),
]

# ---- appended for issue 30: the mistakes students made (students-and-accessibility review)
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="whole rows in each fold, not the share (k - 1) / k",
         message="rounding the share n * (k - 1) / k gives the same", source='''
def largest_training_size(n_samples, n_splits):
    return round(n_samples * (n_splits - 1) / n_splits)
'''),
    dict(exercise="ex3-answer", rule="the gap is val_error - train_error (validation below training is chance)",
         message="without abs()", source='''
def diagnose(train_error, val_error, target_error, max_gap):
    if train_error > target_error:
        return "high bias"
    if abs(val_error - train_error) > max_gap:
        return "high variance"
    return "good"
'''),
    dict(exercise="ex4-answer", rule="an improvement beats the best loss so far, not the previous epoch",
         message="not the previous epoch", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[epoch - 1]:
            waited = 0
            if val_losses[epoch] < val_losses[best_epoch]:
                best_epoch = epoch
        else:
            waited += 1
            if waited == patience:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
    dict(exercise="ex4-answer", rule="the count of epochs without improvement restarts after an improvement",
         message="reset the counter to 0", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch = epoch
        else:
            waited += 1
            if waited == patience:
                return best_epoch + 1, epoch + 1
    return best_epoch + 1, len(val_losses)
'''),
]

# ---- appended for issue 30, item 15: epochs are numbered from 1 (as in section 7), not by position
WRONG_ANSWERS += [
    dict(exercise="ex4-answer", rule="epochs numbered from 1: val_losses[0] is epoch 1",
         message="number the epochs from 1", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch, epoch
    return best_epoch, len(val_losses) - 1
'''),
    dict(exercise="ex4-answer", rule="epochs numbered from 1 for the best epoch as for the stop",
         message="epochs 4, 5 and 6 do not improve on epoch 3", source='''
def early_stopping(val_losses, patience):
    best_epoch, waited = 0, 0
    for epoch in range(1, len(val_losses)):
        if val_losses[epoch] < val_losses[best_epoch]:
            best_epoch, waited = epoch, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch, epoch + 1
    return best_epoch, len(val_losses)
'''),
]

# ---- appended for issue 45: the best epoch on a tie (stated: the earliest)
WRONG_ANSWERS += [
    dict(exercise="ex4-answer", rule="the best epoch is the earliest of the lowest losses (not the latest on a tie)",
         message="the earliest of the lowest losses", source='''
def early_stopping(val_losses, patience):
    best_epoch, best_loss, waited = 1, val_losses[0], 0
    for epoch, loss in enumerate(val_losses[1:], start=2):
        if loss <= best_loss:
            best_epoch = epoch              # a tie moves the best epoch to the latest
        if loss < best_loss:
            best_loss, waited = loss, 0
        else:
            waited += 1
            if waited == patience:
                return best_epoch, epoch
    return best_epoch, len(val_losses)
'''),
]
