"""helpers/exercises.py: what the exercises' test cells check in an answer besides its results."""

from helpers.exercises import functions_called


def test_functions_called_reads_global_names_not_attributes():
    """helpers.exercises.functions_called, which the test cells use: a course or scikit-learn function read as a
    global (inside a comprehension too), a module read by name, but not an attribute of the same name (np.divide
    beside helpers.validation.divide) nor the answer's own variable."""
    namespace = {}
    exec("import numpy as np\nfrom sklearn import metrics\nfrom helpers.validation import divide\n"
         "from helpers.metrics import binary_metrics\n"
         "def honest(tn, fp):\n    return np.divide(tn, tn + fp)\n"
         "def cheat(tp, fp, fn, tn):\n    return binary_metrics(tp, fp, fn, tn)['specificity']\n"
         "def nested(y, p):\n    return [metrics.f1_score(a, b) + divide(1, 2) for a, b in zip(y, p)]\n"
         "def own(divide):\n    return divide(1, 2)\n", namespace)
    assert functions_called(namespace["honest"]) == []
    assert functions_called(namespace["cheat"]) == ["binary_metrics"]
    assert functions_called(namespace["nested"]) == ["divide", "metrics"]
    assert functions_called(namespace["nested"], ("sklearn",)) == ["metrics"]
    assert functions_called(namespace["own"]) == [] and functions_called(len) == []
