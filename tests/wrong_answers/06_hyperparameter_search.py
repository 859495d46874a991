"""Plausible wrong answers to notebook 06's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: grid_size(param_grid): product per dict, sum over a list, an int, no ParameterGrid
    dict(exercise="ex1-answer", rule="count yourself, without ParameterGrid", message="count the candidates yourself",
         source='''
def grid_size(param_grid):
    from sklearn.model_selection import ParameterGrid
    return len(ParameterGrid(param_grid))
'''),
    dict(exercise="ex1-answer", rule="a dict: the product of the lengths", message="product of its lists' lengths", source='''
def grid_size(param_grid):
    grids = [param_grid] if isinstance(param_grid, dict) else param_grid
    return sum(len(values) for one in grids for values in one.values())
'''),
    dict(exercise="ex1-answer", rule="a list of dicts: add up", message="add up the candidates of each dict", source='''
def grid_size(param_grid):
    grids = [param_grid] if isinstance(param_grid, dict) else param_grid
    total = 1
    for one in grids:
        for values in one.values():
            total *= len(values)
    return total
'''),
    dict(exercise="ex1-answer", rule="param_grid may be a list of dicts", message="may also be a list of dicts", source='''
def grid_size(param_grid):
    size = 1
    for values in param_grid.values():
        size *= len(values)
    return size
'''),
    dict(exercise="ex1-answer", rule="return an int (np.prod gives a NumPy integer)", message="return an int", source='''
def grid_size(param_grid):
    grids = [param_grid] if isinstance(param_grid, dict) else param_grid
    return sum(np.prod([len(values) for values in one.values()]) for one in grids)
'''),
    # ---- Exercise 2: best_candidate(cv_results, metric): the params dict of the highest mean_test_<metric>, first on a tie
    dict(exercise="ex2-answer", rule="among ties, the first", message="among tied candidates, return the first", source='''
def best_candidate(cv_results, metric):
    means = np.asarray(cv_results[f"mean_test_{metric}"], dtype=float)
    return cv_results["params"][len(means) - 1 - int(np.argmax(means[::-1]))]
'''),
    dict(exercise="ex2-answer", rule="return the params dict, not the index", message="return the candidate's parameters",
         source='''
def best_candidate(cv_results, metric):
    return int(np.argmax(cv_results[f"mean_test_{metric}"]))
'''),
    dict(exercise="ex2-answer", rule="use the metric argument", message="mean_test_' + metric", source='''
def best_candidate(cv_results, metric):
    return cv_results["params"][int(np.argmax(cv_results["mean_test_score"]))]
'''),
    dict(exercise="ex2-answer", rule="the highest score, not the lowest", message="search.best_params_", source='''
def best_candidate(cv_results, metric):
    return cv_results["params"][int(np.argmin(cv_results[f"mean_test_{metric}"]))]
'''),
    # ---- Exercise 3: knn_objective(trial): n_neighbors int 1-30, weights categorical, scaled k-NN, 3-fold stratified CV
    dict(exercise="ex3-answer", rule="n_neighbors from 1 to 30", message="trial.suggest_int('n_neighbors', 1, 30)", source='''
def knn_objective(trial):
    n_neighbors = trial.suggest_int("n_neighbors", 1, 20)
    weights = trial.suggest_categorical("weights", ["uniform", "distance"])
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors, weights=weights))
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    return cross_val_score(knn, X_train, y_train, cv=cv).mean()
'''),
    dict(exercise="ex3-answer", rule="suggest weights too", message="suggest exactly n_neighbors and weights", source='''
def knn_objective(trial):
    n_neighbors = trial.suggest_int("n_neighbors", 1, 30)
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors))
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    return cross_val_score(knn, X_train, y_train, cv=cv).mean()
'''),
    dict(exercise="ex3-answer", rule="scale before the k-NN", message="check the cv and the scaler", source='''
def knn_objective(trial):
    n_neighbors = trial.suggest_int("n_neighbors", 1, 30)
    weights = trial.suggest_categorical("weights", ["uniform", "distance"])
    knn = KNeighborsClassifier(n_neighbors=n_neighbors, weights=weights)
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    return cross_val_score(knn, X_train, y_train, cv=cv).mean()
'''),
    dict(exercise="ex3-answer", rule="the stated cv (shuffled, random_state=0)", message="check the cv and the scaler", source='''
def knn_objective(trial):
    n_neighbors = trial.suggest_int("n_neighbors", 1, 30)
    weights = trial.suggest_categorical("weights", ["uniform", "distance"])
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors, weights=weights))
    return cross_val_score(knn, X_train, y_train, cv=3).mean()
'''),
    dict(exercise="ex3-answer", rule="n_neighbors is an integer", message="trial.suggest_int('n_neighbors', 1, 30)", source='''
def knn_objective(trial):
    n_neighbors = int(trial.suggest_float("n_neighbors", 1, 30))
    weights = trial.suggest_categorical("weights", ["uniform", "distance"])
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors, weights=weights))
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    return cross_val_score(knn, X_train, y_train, cv=cv).mean()
'''),
    # ---- Exercise 4: report_folds(trial, fold_scores): report the running mean at step i, prune, return the mean
    dict(exercise="ex4-answer", rule="report the running mean, not the fold's score", message="the mean of the scores so far",
         source='''
def report_folds(trial, fold_scores):
    for step, score in enumerate(fold_scores):
        trial.report(score, step=step)
        if step < len(fold_scores) - 1 and trial.should_prune():
            raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex4-answer", rule="ask should_prune and raise TrialPruned", message="raise optuna.TrialPruned()", source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex4-answer", rule="steps 0, 1, 2, ...", message="step = 0, 1, 2", source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step + 1)
        if step < len(fold_scores) - 1 and trial.should_prune():
            raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex4-answer", rule="return the mean of all scores", message="return the mean of all fold scores", source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
        if step < len(fold_scores) - 1 and trial.should_prune():
            raise optuna.TrialPruned()
    return float(fold_scores[-1])
'''),
    dict(exercise="ex4-answer", rule="prune when told, not only at the end", message="for each fold but the last",
         source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
    if trial.should_prune():
        raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
]

# ---- appended for issue 20: negative scores (the best is not searched from 0)
WRONG_ANSWERS += [
    dict(exercise="ex2-answer", rule="scores may all be negative", message="scores may all be negative", source='''
def best_candidate(cv_results, metric):
    best, best_score = None, 0
    for params, score in zip(cv_results["params"], cv_results[f"mean_test_{metric}"]):
        if score > best_score:
            best, best_score = params, score
    return best
'''),
]

# ---- appended for issue 30: the mistakes students made (students-and-accessibility review, content review 27)
WRONG_ANSWERS += [
    dict(exercise="ex4-answer", rule="report first, then ask should_prune()", message="first trial.report(mean, step=i)",
         source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        if trial.should_prune():
            raise optuna.TrialPruned()
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex4-answer", rule="raise TrialPruned, do not return it", message="raise optuna.TrialPruned()",
         source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
        if step < len(fold_scores) - 1 and trial.should_prune():
            return optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex2-answer", rule="read mean_test_<metric> (rank_test_<metric> is not always there)",
         message="read the scores from cv_results['mean_test_' + metric]", source='''
def best_candidate(cv_results, metric):
    ranks = list(cv_results[f"rank_test_{metric}"])
    return cv_results["params"][ranks.index(1)]
'''),
    dict(exercise="ex2-answer", rule="a failed (NaN) candidate is never the best", message="np.nanargmax skips it",
         source='''
def best_candidate(cv_results, metric):
    return cv_results["params"][int(np.argmax(cv_results[f"mean_test_{metric}"]))]
'''),
]

# ---- appended for issue 30, item 22: a finished trial is never pruned (no should_prune() after the last fold)
WRONG_ANSWERS += [
    dict(exercise="ex4-answer", rule="do not ask should_prune() after the last fold",
         message="after the last fold, report the mean but do not ask trial.should_prune()", source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores)):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
    dict(exercise="ex4-answer", rule="report after the last fold too (without asking)", message="report once per fold",
         source='''
def report_folds(trial, fold_scores):
    for step in range(len(fold_scores) - 1):
        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return float(np.mean(fold_scores))
'''),
]
