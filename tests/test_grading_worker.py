"""What crosses from a student's process to the tests process (tools/grade_worker.py), and the source checks.

Values are encoded by exact type; objects of the scientific libraries are
rebuilt by a restricted unpickler that refuses anything else (a class the
student wrote, a pickle that would call os.system). A one-pass iterator stays
one-pass. tools/grading.py reads each student cell for tampering.
"""

from __future__ import annotations

import importlib.util
import io
import os
import pickle
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline

ROOT = Path(__file__).resolve().parent.parent


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


worker = load("grade_worker", ROOT / "tools" / "grade_worker.py")
grading = load("grading", ROOT / "tools" / "grading.py")


def cross(value):
    """Encode in the student's process, decode in the tests process."""
    return worker.decode(worker.encode(value), trusted=False)


class Always(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class Boom:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_plain_data_crosses_with_its_type():
    value = {"a": (1, 2.5, float("nan")), 3: [True, None, "x"], "s": {1, 2}, "inf": float("-inf")}
    back = cross(value)
    assert back["a"][:2] == (1, 2.5) and np.isnan(back["a"][2]) and back["inf"] == float("-inf")
    assert back[3] == [True, None, "x"] and back["s"] == {1, 2}
    assert type(back["a"]) is tuple and type(back[3][0]) is bool


def test_library_objects_are_rebuilt():
    pipe = make_pipeline(SelectKBest(f_classif, k=2), LogisticRegression())
    back = cross(pipe)
    assert isinstance(back, Pipeline) and back.steps[0][1].score_func is f_classif
    frame = cross(pd.DataFrame({"x": [1, 2]}, index=["a", "b"]))
    assert frame.equals(pd.DataFrame({"x": [1, 2]}, index=["a", "b"]))
    array = cross(np.arange(6).reshape(2, 3))
    assert isinstance(array, np.ndarray) and array.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert cross(np.float64(0.25)) == 0.25


def test_objects_of_the_students_classes_are_refused():
    with pytest.raises(worker.UntrustedValue, match="Always"):
        cross(Always("?"))
    with pytest.raises(worker.UntrustedValue):
        cross([1, Always("?")])


def test_a_pickle_calling_os_system_is_refused():
    data = pickle.dumps(Boom())
    with pytest.raises(worker.UntrustedValue):
        worker.RestrictedUnpickler(io.BytesIO(data)).load()


def test_a_pickle_changing_a_library_object_is_refused():
    # BUILD on numpy.testing would replace assert_allclose in the tests process
    data = b"\x80\x04cnumpy\ntesting\n}\x8c\x0fassert_allclose\x8c\x03abssb."
    with pytest.raises(worker.UntrustedValue):
        worker.RestrictedUnpickler(io.BytesIO(data)).load()
    data = b"\x80\x04cnumpy\nisclose\n}\x8c\x03foo\x8c\x03barsb."
    with pytest.raises(worker.UntrustedValue):
        worker.RestrictedUnpickler(io.BytesIO(data)).load()


def test_a_generator_crosses_as_a_one_pass_iterator():
    back = cross((i * i for i in range(3)))
    assert list(back) == [0, 1, 4] and list(back) == []


@pytest.mark.parametrize("source, words", [
    ("import math\nmath.isclose = lambda *a, **k: True", "math.isclose"),
    ("get_ipython().input_transformers_cleanup.append(f)", "input_transformers_cleanup"),
    ("class A:\n    def __eq__(self, other):\n        return True", "__eq__"),
    ("open('numpy.py', 'w').write('')", "numpy.py"),
    ("import subprocess", "subprocess"),
    ("exec('x = 1')", "exec"),
    ("import sys\nsys.modules['numpy'] = None", "modules"),
    ("!rm -rf ~", "shell command"),
])
def test_source_checks_flag_tampering(source, words):
    assert any(words in reason for reason in grading.static_flags(source)), grading.static_flags(source)


@pytest.mark.parametrize("source", [
    "import numpy as np\n\ndef f(x):\n    return np.asarray(x).mean()",
    "import logging, sys\nlogging.warning('x')\nprint('y', file=sys.stderr)",
    "%matplotlib inline\nimport matplotlib.pyplot as plt\nplt.rcParams['figure.dpi'] = 100",
])
def test_source_checks_leave_honest_code_alone(source):
    assert grading.static_flags(source) == []
