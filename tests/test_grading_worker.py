"""What crosses from a student's process to the tests process (tools/grading/worker.py), and the source checks.

Values are encoded by exact type; objects of the scientific libraries are
rebuilt by a restricted unpickler that refuses anything else (a class the
student wrote, a pickle that would call os.system). A one-pass iterator stays
one-pass. tools/grading/ reads each student cell for tampering. What the
student's code started is killed after each cell or call: outside a sandbox,
the worker's whole process tree (a setsid orphan included) and nothing else.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
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


worker = load("grading_worker", ROOT / "tools" / "grading" / "worker.py")   # as a file, as the sandbox runs it
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/)

sys.path.pop(0)


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


# --------------------------------------------------------------------------- Optuna trials across the boundary

def bridged(trials: dict):
    """A student's stand-in trial wired straight to serve_trial (the grader's relay left out)."""
    def call(method, args, kwargs):
        message = {"trial": 0, "method": method, "args": [worker.encode(worker._plain_arg(a)) for a in args],
                   "kwargs": {k: worker.encode(worker._plain_arg(v)) for k, v in kwargs.items()}}
        reply = worker.serve_trial(message, trials)
        if "error" in reply:
            raise worker.TRIAL_ERRORS.get(reply["kind"], RuntimeError)(reply["error"])
        return worker.decode(reply["value"], trusted=True)
    return worker.RemoteTrial(call)


def test_a_forwarded_trial_suggests_reports_and_prunes_on_the_real_one():
    import optuna

    study = optuna.create_study(direction="maximize", pruner=optuna.pruners.ThresholdPruner(lower=0.5))
    real = study.ask()
    trial = bridged({0: real})
    n = trial.suggest_int("n", 1, 30)
    x = trial.suggest_float("x", 1e-3, 1.0, log=True)
    kind = trial.suggest_categorical("kind", ("a", None, 2))
    assert type(n) is int and type(x) is float and kind in ("a", None, 2)
    assert trial.params == real.params and trial.number == real.number == 0
    assert set(trial.distributions) == {"n", "x", "kind"}
    assert isinstance(trial.distributions["n"], optuna.distributions.IntDistribution)
    trial.report(np.float64(0.75), np.int64(0))    # NumPy numbers arrive as Python numbers
    assert not trial.should_prune()
    trial.report(0.25, step=1)
    assert trial.should_prune() is True
    trial.set_user_attr("folds", [3, {"shuffle": True}])
    assert real.user_attrs == {"folds": [3, {"shuffle": True}]} == trial.user_attrs
    assert study.trials[0].intermediate_values == {0: 0.75, 1: 0.25}


def test_a_forwarded_trial_refuses_objects_unknown_methods_and_bad_types():
    import optuna

    study = optuna.create_study()
    real = study.ask()
    trial = bridged({0: real})
    with pytest.raises(TypeError, match="only numbers, strings"):
        trial.report(Always("0.5"), 0)           # an object equal to everything: refused, not reported
    with pytest.raises(TypeError, match="value must be"):
        trial.report(True, 0)
    with pytest.raises(TypeError, match="step must be int"):
        trial.report(0.5, 1.5)
    with pytest.raises(TypeError, match="only numbers, strings"):
        trial.set_user_attr("model", LogisticRegression())
    with pytest.raises(TypeError, match="each choice"):
        trial.suggest_categorical("c", [[1, 2]])
    for name in ("study", "storage", "_storage", "_trial_id", "set_system_attr"):
        with pytest.raises(AttributeError, match="no attribute"):
            getattr(trial, name)
    with pytest.raises(AttributeError):
        trial.should_prune = lambda: False
    assert study.trials[0].intermediate_values == {}   # nothing refused was reported
    # forged requests (a student can write to the channel): unknown method, trial or shape, all refused
    assert "no method" in worker.serve_trial({"trial": 0, "method": "study", "args": [], "kwargs": {}},
                                             {0: real})["error"]
    assert "no such trial" in worker.serve_trial({"trial": 1, "method": "number", "args": [], "kwargs": {}},
                                                 {0: real})["error"]
    assert "no such trial" in worker.serve_trial({"trial": [0], "method": "number"}, {0: real})["error"]
    boom = {"__t": "pickle", "class": "x.Boom", "v": ""}
    reply = worker.serve_trial({"trial": 0, "method": "set_user_attr", "args": ["k", boom], "kwargs": {}}, {0: real})
    assert reply["kind"] == "TypeError" and real.user_attrs == {} and real.params == {}


def test_a_trial_tag_from_the_students_process_is_refused():
    with pytest.raises(worker.UntrustedValue, match="trial"):
        worker.decode({"__t": "trial", "id": 0}, trusted=False)


def test_the_student_runs_only_what_the_answers_need():
    sources = ["import time\nimport numpy as np\nimport matplotlib.pyplot as plt\npauses = []",
               "pauses = pauses + [1]\nplt.plot([1, 2])",
               "slow = sum(range(10**8))\nprint(slow)",
               "np.random.seed(0)\nfrom math import *",
               "def f(x):\n    return len(pauses) + np.mean(x) + tau"]
    kept = grading.needed_statements(sources, answers={4})
    assert kept[0] == "import numpy as np\npauses = []\n"      # matplotlib and time are not needed
    assert kept[1] == "pauses = pauses + [1]\n"                # x = x + ... needs the earlier x
    assert kept[2] is None                                      # nothing the answer reads
    assert kept[3] == sources[3] and kept[4] == sources[4]      # a star import: kept whole; the answer: whole


class _Refined(ValueError):
    """A student's own exception class: only its built-in base's name crosses."""


@pytest.mark.parametrize("raised, caught", [
    (ZeroDivisionError("division by zero"), ZeroDivisionError),
    (TypeError("unsupported operand"), TypeError),
    (_Refined("bad p"), ValueError),
    (KeyError("weights"), KeyError),
    (IndexError("out of range"), LookupError),
    (AttributeError("no attribute 'shape'"), AttributeError),
])
def test_a_student_exception_is_caught_by_its_builtin_type_in_the_tests(raised, caught):
    # a visible test's `except ZeroDivisionError:` hint must fire under grading as in the notebook
    reply = {"error": worker.describe(raised), "kind": worker.builtin_kind(raised)}
    error = worker.student_error("ratio", reply)
    assert isinstance(error, caught) and isinstance(error, worker.StudentError)
    assert error.args == (f"ratio raised {worker.describe(raised)}",)
    with pytest.raises(caught):
        raise error


def test_a_stub_reads_not_answered_and_names_no_grader_class():
    # review T21: "StudentNotImplementedError: f raised NotImplementedError" read as the grader's own error
    error = worker.student_error("specificity_and_npv", {"error": "NotImplementedError", "kind": "NotImplementedError"})
    assert isinstance(error, NotImplementedError) and isinstance(error, worker.StudentError)
    assert worker.describe(error) == ("NotImplementedError: specificity_and_npv is not answered yet (it still raises "
                                      "NotImplementedError: write your answer in its cell)")
    # a NotImplementedError of the student's own, with a message, keeps it
    own = worker.student_error("f", {"error": "NotImplementedError: not for sparse input", "kind": "NotImplementedError"})
    assert str(own) == "f raised NotImplementedError: not for sparse input"


@pytest.mark.parametrize("kind", [None, "SystemExit", "KeyboardInterrupt", "GeneratorExit", "os.system", 42,
                                  "AssertionError", "Exception"])
def test_other_kinds_stay_a_plain_student_error(kind):
    # a student cannot make the tests' process see an exit, an interrupt, a passing assertion or any class
    error = worker.student_error("f", {"error": "boom", "kind": kind})
    assert type(error) is worker.StudentError and str(error) == "f raised boom"


def test_builtin_kind_names_the_most_specific_catchable_base():
    assert worker.builtin_kind(ZeroDivisionError()) == "ZeroDivisionError"
    assert worker.builtin_kind(_Refined()) == "ValueError"
    assert worker.builtin_kind(KeyError()) == "KeyError"
    assert worker.builtin_kind(AssertionError()) is None and worker.builtin_kind(SystemExit()) is None


# --------------------------------------------------------------------------- the student's other processes

# A stand-in for the student's process outside a sandbox: a child subreaper with a tree of processes,
# one in a session of its own whose parent exits (its child is orphaned), one in its own process group
# with a child, one plain child; two of them spin on the CPU.
PROCESS_TREE = """
import importlib.util, json, os, sys, time
spec = importlib.util.spec_from_file_location("grading_worker", sys.argv[1])
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)
assert worker.become_subreaper()
read, write = os.pipe()

def spin():
    while True:
        pass

def child(body):
    pid = os.fork()
    if pid == 0:
        body()
        os._exit(0)
    return pid

def detached():              # setsid, then a grandchild that outlives it
    os.setsid()
    grandchild = child(spin)
    os.write(write, f"{grandchild} ".encode())

def own_group():             # setpgid, then a child; waits
    os.setpgid(0, 0)
    os.write(write, f"{child(spin)} ".encode())
    time.sleep(60)

short_lived = child(detached)
os.waitpid(short_lived, 0)
tree = [child(own_group), child(lambda: time.sleep(60))]
while len(tree) < 4:
    tree += [int(pid) for pid in os.read(read, 100).split()]
time.sleep(0.2)              # the orphan is this process's child by now
print(json.dumps({"me": os.getpid(), "orphan": tree[2], "tree": tree,
                  "before": sorted(worker.running(worker.other_processes()))}), flush=True)
sys.stdin.readline()
stopped = worker.stop_processes()
print(json.dumps({"stopped": sorted(stopped), "left": sorted(worker.other_processes())}), flush=True)
sys.stdin.readline()
"""


def test_stop_processes_kills_the_whole_tree_setsid_and_orphans_included_and_nothing_else():
    outsider = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    helper = subprocess.Popen([sys.executable, "-c", PROCESS_TREE, str(ROOT / "tools" / "grading" / "worker.py")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = json.loads(helper.stdout.readline())
        tree, orphan = first["tree"], first["orphan"]
        assert len(set(tree)) == 4 and first["me"] not in tree
        # the setsid grandchild whose parent exited: another session, this process's child (subreaper)
        assert psutil.Process(orphan).ppid() == first["me"]
        assert os.getsid(orphan) != os.getsid(first["me"])
        assert sorted(first["before"]) == sorted(tree)
        helper.stdin.write("go\n")
        helper.stdin.flush()
        second = json.loads(helper.stdout.readline())
        assert sorted(second["stopped"]) == sorted(tree) and second["left"] == []
        assert [pid for pid in tree if psutil.pid_exists(pid)] == []   # killed and reaped, not zombies
        assert helper.poll() is None and outsider.poll() is None       # itself and strangers spared
    finally:
        grading.kill_tree(helper.pid)
        outsider.kill()
        outsider.wait()


def test_kill_minus_one_only_as_a_sandboxs_pid_2(monkeypatch):
    # kill(-1) outside a sandbox would reach every process of the user grading: never here
    monkeypatch.setattr(worker, "SANDBOXED", True)
    assert os.getpid() != worker.SANDBOX_PID and worker.in_sandbox() is False
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        # pytest's own child, in another session: found as a descendant, not through /proc's whole list
        assert sleeper.pid in worker.other_processes() and 1 not in worker.other_processes()
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="makes a user namespace for the nobody account (runuser), as root")
def test_blocked_user_namespaces_are_explained(monkeypatch):
    """A teacher grading in their own account where unprivileged user namespaces are blocked (Ubuntu 23.10+) is
    told what to change. The block is real: bwrap runs in a user namespace whose user.max_user_namespaces is 0."""
    sandbox = grading.sandbox
    blocked = subprocess.run(["runuser", "-u", "nobody", "--", "unshare", "--user", "--map-root-user", "sh", "-c",
                              "echo 0 > /proc/sys/user/max_user_namespaces && "
                              f"{sandbox.BWRAP} --unshare-user --ro-bind / / /bin/true"],
                             capture_output=True, text=True, timeout=60)
    assert blocked.returncode != 0 and "namespace" in blocked.stderr, blocked.stderr
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 1000)   # the teacher, not root
    advice = sandbox.userns_advice(blocked.stderr)
    assert "unprivileged user namespaces are blocked" in advice
    assert "kernel.apparmor_restrict_unprivileged_userns=0" in advice and "kernel.unprivileged_userns_clone=1" in advice
    assert sandbox.userns_advice("bwrap: execvp /bin/nothing: No such file or directory") == ""
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    assert sandbox.userns_advice(blocked.stderr) == ""   # root needs no user namespace
