"""Plausible wrong answers to notebook 03's exercises, one or more per stated rule.

Each entry: the exercise's answer cell, the rule it breaks, the fragment of the
visible assertion message it must fail with, and the wrong answer's source.
tests/test_wrong_answers.py runs them against the visible tests.
"""

WRONG_ANSWERS = [
    # ---- Exercise 1: expected_oob_count(n) = n (1 - 1/n)^n
    dict(exercise="ex1-answer", rule="exact for small n, not the limit n/e", message="with one row", source='''
def expected_oob_count(n):
    return n * np.exp(-1)
'''),
    dict(exercise="ex1-answer", rule="a number of rows, not a share", message="n = 2", source='''
def expected_oob_count(n):
    return (1 - 1 / n) ** n
'''),
    dict(exercise="ex1-answer", rule="n draws, not n - 1", message="with one row", source='''
def expected_oob_count(n):
    return n * (1 - 1 / n) ** (n - 1)
'''),
    # ---- Exercise 2: fold_aucs(model, X, y, cv): loop over cv.split(X, y), fit a clone, NumPy array, AUC of scores
    dict(exercise="ex2-answer", rule="fit a fresh clone, leave the model passed in unfitted", message="fit a clone",
         source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X, y):
        model.fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], model.predict_proba(X[test])[:, 1]))
    return np.array(aucs)
'''),
    dict(exercise="ex2-answer", rule="return a NumPy array, not a list", message="return a NumPy array", source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 1]))
    return aucs
'''),
    dict(exercise="ex2-answer", rule="AUC from predict_proba(...)[:, 1], not labels", message="use scores (predict_proba), not labels",
         source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict(X[test])))
    return np.array(aucs)
'''),
    dict(exercise="ex2-answer", rule="fit on the training fold only", message="fit on the training fold", source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X, y)
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 1]))
    return np.array(aucs)
'''),
    dict(exercise="ex2-answer", rule="loop over cv.split(X, y) (a stratified splitter needs y)", message="cv.split(X, y)",
         source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X):
        fitted = clone(model).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 1]))
    return np.array(aucs)
'''),
    # ---- Exercise 3: selection_pipeline(k): SelectKBest(f_classif, k) then LogisticRegression, one Pipeline
    dict(exercise="ex3-answer", rule="use the k argument, not a constant", message="use the argument k", source='''
def selection_pipeline(k):
    return make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression())
'''),
    dict(exercise="ex3-answer", rule="return a Pipeline", message="return a Pipeline", source='''
def selection_pipeline(k):
    return LogisticRegression()
'''),
    dict(exercise="ex3-answer", rule="the selection scores features with f_classif", message="SelectKBest(f_classif, k=20)",
         source='''
def selection_pipeline(k):
    from sklearn.feature_selection import mutual_info_classif
    return make_pipeline(SelectKBest(mutual_info_classif, k=k), LogisticRegression())
'''),
    dict(exercise="ex3-answer", rule="the logistic regression comes last", message="the last step should be", source='''
def selection_pipeline(k):
    from sklearn.ensemble import RandomForestClassifier
    return make_pipeline(SelectKBest(f_classif, k=k), RandomForestClassifier(random_state=0))
'''),
    # ---- Exercise 4: shares_groups(splits, groups): any split, iterate once, groups list or array
    dict(exercise="ex4-answer", rule="check every split, not only the first", message="check every split", source='''
def shares_groups(splits, groups):
    groups = np.asarray(groups)
    train, test = next(iter(splits))
    return np.intersect1d(groups[train], groups[test]).size > 0
'''),
    dict(exercise="ex4-answer", rule="groups may be a list", message="groups may be a list", source='''
def shares_groups(splits, groups):
    return any(set(groups[train]) & set(groups[test]) for train, test in splits)
'''),
    dict(exercise="ex4-answer", rule="iterate over splits only once (a generator)", message="iterate over it only once",
         source='''
def shares_groups(splits, groups):
    groups = np.asarray(groups)
    n_splits = len(list(splits))
    return any(np.intersect1d(groups[train], groups[test]).size > 0 for train, test in splits)
'''),
    dict(exercise="ex4-answer", rule="compare the groups, not the row indices", message="shuffled KFold", source='''
def shares_groups(splits, groups):
    return any(np.intersect1d(train, test).size > 0 for train, test in splits)
'''),
    dict(exercise="ex4-answer", rule="one group on both sides is enough (not the same groups on both sides)",
         message="shuffled KFold", source='''
def shares_groups(splits, groups):
    groups = np.asarray(groups)
    return any(set(groups[train]) == set(groups[test]) for train, test in splits)
'''),
    # ---- Exercise 5: corrected_t(differences, n_train, n_test)
    dict(exercise="ex5-answer", rule="the sample variance (ddof=1)", message="ddof=1", source='''
def corrected_t(differences, n_train, n_test):
    differences = np.asarray(differences, dtype=float)
    variance = (1 / differences.size + n_test / n_train) * differences.var()
    return differences.mean() / np.sqrt(variance)
'''),
    dict(exercise="ex5-answer", rule="the factor 1/J + n_test/n_train (not 1/J alone)", message="1/J + n_test/n_train",
         source='''
def corrected_t(differences, n_train, n_test):
    differences = np.asarray(differences, dtype=float)
    return differences.mean() / np.sqrt(differences.var(ddof=1) / differences.size)
'''),
    dict(exercise="ex5-answer", rule="n_test / n_train, not n_train / n_test", message="1/J + n_test/n_train", source='''
def corrected_t(differences, n_train, n_test):
    differences = np.asarray(differences, dtype=float)
    variance = (1 / differences.size + n_train / n_test) * differences.var(ddof=1)
    return differences.mean() / np.sqrt(variance)
'''),
    dict(exercise="ex5-answer", rule="differences may be a list", message="may be a list", source='''
def corrected_t(differences, n_train, n_test):
    variance = (1 / len(differences) + n_test / n_train) * differences.var(ddof=1)
    return differences.mean() / np.sqrt(variance)
'''),
    dict(exercise="ex5-answer", rule="write the formula yourself (no helpers.cv)", message="write the formula yourself",
         source='''
def corrected_t(differences, n_train, n_test):
    from helpers.cv import corrected_resampled_ttest
    return corrected_resampled_ttest(differences, np.zeros(len(differences)), n_train, n_test).t
'''),
]

# ---- appended for issue 20: a selection fitted on all rows, outside the folds
WRONG_ANSWERS += [
    dict(exercise="ex3-answer", rule="the selection is fitted inside every training fold, not on all rows",
         message="something was chosen on all the rows", source='''
def selection_pipeline(k):
    from sklearn.compose import ColumnTransformer
    chosen = SelectKBest(f_classif, k=k).fit(X_noise, y_noise).get_support(indices=True)
    return make_pipeline(ColumnTransformer([("chosen", "passthrough", chosen)]), SelectKBest(f_classif, k=k),
                         LogisticRegression())
'''),
]

# ---- appended for issue 45: n = 1 (stated: 0) with a formula that takes log(1 - 1/n), and the AUC from the
# negative class's column
WRONG_ANSWERS += [
    dict(exercise="ex1-answer", rule="n = 1 is allowed (0), not a log of 1 - 1/n = 0",
         message="n = 1 is allowed", source='''
def expected_oob_count(n):
    import math
    return n * math.exp(n * math.log1p(-1 / n))  # accurate for large n, undefined for n = 1
'''),
    dict(exercise="ex2-answer", rule="the AUC from the positive class's column predict_proba(...)[:, 1], not [:, 0]",
         message="should equal cross_val_score", source='''
def fold_aucs(model, X, y, cv):
    aucs = []
    for train, test in cv.split(X, y):
        fitted = clone(model).fit(X[train], y[train])
        aucs.append(roc_auc_score(y[test], fitted.predict_proba(X[test])[:, 0]))
    return np.array(aucs)
'''),
]
