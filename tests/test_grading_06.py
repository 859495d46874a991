"""Grading notebook 06, whose exercises 3 and 4 are called with live Optuna trials.

The trial stays in the tests process; the student's function gets a stand-in
whose methods are forwarded as plain, type-checked data (tools/grading/worker.py,
``RemoteTrial`` and ``serve_trial``). Graded in one batch: the blank student
version scores 0; answers using every forwarded method (NumPy numbers passed to
``report``, ``trial.number``, ``params``, ``set_user_attr``) get full marks;
a wrong answer to exercise 3 or 4 loses exactly that question's points; hostile
answers (reaching for ``trial.study`` or the storage, calling methods a trial
does not have, passing an object equal to everything to ``report``, returning a
non-number, pruning every trial) score 0 on that question, and nothing else.
The instructor's notebook getting full marks is tested with the other course
notebooks in tests/test_grading.py. To keep the batch short, the answered
submissions keep only the set-up cell and the Practice section (a student may
delete cells: the grader runs the instructor's own set-up for the tests).
"""

from __future__ import annotations

import uuid

import nbformat
import pytest

import test_grading as base

NAME = "06_hyperparameter_search"
pytestmark = pytest.mark.slow

EX1 = ("def grid_size(param_grid):\n    grids = [param_grid] if isinstance(param_grid, dict) else param_grid\n"
       "    total = 0\n    for one in grids:\n        size = 1\n        for values in one.values():\n"
       "            size *= len(values)\n        total += size\n    return total\n")
EX2 = ("def best_candidate(cv_results, metric):\n"
       "    means = np.asarray(cv_results[f'mean_test_{metric}'], dtype=float)\n"
       "    return cv_results['params'][int(np.nanargmax(means))]\n")
EX3_HEAD = ("from sklearn.model_selection import cross_val_score\nfrom sklearn.neighbors import KNeighborsClassifier\n\n"
            "def knn_objective(trial):\n")
EX3_BODY = ("    n = trial.suggest_int('n_neighbors', 1, 30)\n"
            "    weights = trial.suggest_categorical('weights', ('uniform', 'distance'))\n"
            "    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n, weights=weights))\n"
            "    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)\n")
EX3 = EX3_HEAD + EX3_BODY + "    return cross_val_score(knn, X_train, y_train, cv=cv).mean()\n"
EX4 = ("def report_folds(trial, fold_scores):\n    for step in range(len(fold_scores)):\n"
       "        trial.report(float(np.mean(fold_scores[: step + 1])), step=step)\n"
       "        if step < len(fold_scores) - 1 and trial.should_prune():\n            raise optuna.TrialPruned()\n"
       "    return float(np.mean(fold_scores))\n")
# Correct, using more of the trial: NumPy numbers to report, properties, user attributes.
EX3_RICH = (EX3_HEAD + "    assert isinstance(trial.number, int) and isinstance(trial.params, dict)\n" + EX3_BODY
            + "    score = cross_val_score(knn, X_train, y_train, cv=cv).mean()\n"
            "    trial.set_user_attr('folds', [3, 'stratified'])\n"
            "    assert trial.user_attrs['folds'] == [3, 'stratified'] and set(trial.distributions) == {'n_neighbors', 'weights'}\n"
            "    return score\n")
EX4_RICH = ("def report_folds(trial, fold_scores):\n    scores = np.asarray(fold_scores, dtype=float)\n"
            "    for step in np.arange(len(scores)):\n"
            "        trial.report(scores[: step + 1].mean(), step)\n"
            "        if step + 1 < len(scores) and trial.should_prune():\n"
            "            raise optuna.TrialPruned(f'pruned at fold {step}')\n"
            "    return scores.mean()\n")
# Plausible mistakes.
EX3_WRONG = EX3.replace("'n_neighbors', 1, 30", "'n_neighbors', 1, 20")
EX4_WRONG = EX4.replace("np.mean(fold_scores[: step + 1])", "fold_scores[step]")
EX4_RETURNED = EX4.replace("raise optuna.TrialPruned()", "return optuna.TrialPruned()")
# Hostile answers.
EX3_STUDY = EX3_HEAD + "    return trial.study.best_value\n"
EX3_STORAGE = (EX3_HEAD + "    try:\n        storage = trial._storage\n    except AttributeError:\n"
               "        storage = trial.storage\n    storage.set_trial_state_values(0, 1, [1.0])\n    return 1.0\n")
EX3_STRING = EX3 + "\n_real = knn_objective\n\ndef knn_objective(trial):\n    return {'accuracy': _real(trial)}\n"
EX3_PRUNE_ALL = EX3_HEAD + EX3_BODY + "    raise optuna.TrialPruned()\n"
EX4_EVERYTHING = ("class Anything(float):\n    def __eq__(self, other):\n        return True\n\n"
                  "def report_folds(trial, fold_scores):\n    for step in range(len(fold_scores)):\n"
                  "        trial.report(Anything(0.5), step=step)\n    return Anything(0.8)\n")
EX4_MISSING = ("def report_folds(trial, fold_scores):\n"
               "    trial.set_intermediate_values({i: float(np.mean(fold_scores[: i + 1])) for i in range(len(fold_scores))})\n"
               "    return float(np.mean(fold_scores))\n")
EX4_SETATTR = ("def report_folds(trial, fold_scores):\n    trial.should_prune = lambda: False\n"
               "    return float(np.mean(fold_scores))\n")

ANSWERS = {  # student: {grade_id: source}, expected (ex1..ex4, total, flagged)
    "rich": ({"ex3-answer": EX3_RICH, "ex4-answer": EX4_RICH}, ("2", "2", "3", "3"), "10", False),
    "wrong3": ({"ex3-answer": EX3_WRONG}, ("2", "2", "0", "3"), "7", False),
    "wrong4": ({"ex4-answer": EX4_WRONG}, ("2", "2", "3", "0"), "7", False),
    "returned": ({"ex4-answer": EX4_RETURNED}, ("2", "2", "3", "0"), "7", True),
    "study": ({"ex3-answer": EX3_STUDY, "ex4-answer": EX4_MISSING}, ("2", "2", "0", "0"), "4", False),
    "storage": ({"ex3-answer": EX3_STORAGE, "ex4-answer": EX4_SETATTR}, ("2", "2", "0", "0"), "4", False),
    "string": ({"ex3-answer": EX3_STRING}, ("2", "2", "0", "3"), "7", False),
    "prune_all": ({"ex3-answer": EX3_PRUNE_ALL}, ("2", "2", "0", "3"), "7", False),
    "everything": ({"ex4-answer": EX4_EVERYTHING}, ("2", "2", "3", "0"), "7", True),
}


def slim(released: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """The set-up cell (imports, data) and the Practice section, answered."""
    notebook = nbformat.from_dict(released)
    code = [i for i, c in enumerate(notebook.cells) if c.cell_type == "code"]
    practice = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown" and "## Practice" in c.source)
    notebook.cells = [notebook.cells[code[0]]] + notebook.cells[practice:]
    mine = {"ex1-answer": EX1, "ex2-answer": EX2, "ex3-answer": EX3, "ex4-answer": EX4} | answers
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in mine:
            cell.source = mine[grade_id]
    return notebook


def test_optuna_exercises_are_graded_through_forwarded_trials(tmp_path):
    build, submitted = tmp_path / "build", tmp_path / "submitted"
    common = ["--root", str(build), "--notebooks", str(base.NOTEBOOKS)]
    base.run_tool("release", *common, "--assignment", NAME)
    released = nbformat.read(build / "release" / f"{NAME}.ipynb", as_version=4)
    submitted.mkdir()
    nbformat.write(released, submitted / "blank.ipynb")
    for student, (answers, *_expected) in ANSWERS.items():
        nbformat.write(slim(released, answers), submitted / f"{student}.ipynb")

    uid_base = 76000 + (uuid.uuid4().int % 500) * 10   # a range of its own
    result = base.run_tool("grade", *common, "--assignment", NAME, "--submissions", str(submitted),
                           "--timeout", "60", "--call-timeout", "20", "--student-timeout", "240",
                           "--uid-base", str(uid_base), timeout=1200)
    print(result.stdout)
    assert not base.leftover_processes(uid_base), base.leftover_processes(uid_base)
    grades = base.read_grades(build / "grades.csv")
    questions = [f"ex{i}-tests" for i in range(1, 5)]
    got = {s: (tuple(r[q] for q in questions), r["total"], r["status"], bool(r["flag"])) for s, r in grades.items()}
    expected = {s: (scores, total, "graded", flagged) for s, (_, scores, total, flagged) in ANSWERS.items()}
    expected["blank"] = (("0",) * 4, "0", "graded", False)
    assert got == expected
    assert "__eq__" in grades["everything"]["flag"]
    assert all(not grades[s]["note"] for s in expected), {s: grades[s]["note"] for s in expected}
    # the student reads why: the forwarded trial's own messages
    study = (build / "feedback" / NAME / "study.html").read_text()
    assert "no attribute &#x27;study&#x27;" in study and "set_intermediate_values" in study
    returned = (build / "feedback" / NAME / "returned.html").read_text()
    assert "returned the exception optuna.exceptions.TrialPruned instead of raising it" in returned, returned
    storage = (build / "feedback" / NAME / "storage.html").read_text()
    assert "no attribute &#x27;storage&#x27;" in storage
