"""The two processes that grade one submission, each in its own sandbox (see tools/grading/sandbox.py).

    python -I worker.py       student    runs the student's cells (untrusted)
    python -I worker.py       tests      runs the instructor's setup and test cells (trusted)

Both read one JSON payload line on stdin, then exchange JSON lines with the
grader (tools/grading/), which relays the tests' requests to the student's
process. The tests process never runs student code: every name an exercise
defines is fetched from the student's process as *data* (numbers, strings,
lists, NumPy arrays, pandas objects, objects of the scientific libraries
rebuilt by a restricted unpickler) or as a proxy that calls the student's
function remotely and gets data back. An object of a class the student wrote
(say one whose ``__eq__`` is always true) cannot cross, nor can a patched
``math.isclose``, an input transformer or a ``numpy.py`` beside the notebook:
they live in the other process. The visible tests run first (their messages
are the feedback); the full test cell, hidden tests included, gives the score.

This file imports only the standard library at start-up and is run with
``python -I`` (no current directory, no PYTHON* variables on sys.path).
"""

from __future__ import annotations

import ast
import base64
import io
import json
import linecache
import os
import pickle
import resource
import signal
import sys
import time
import traceback
import types

T0 = time.perf_counter()   # after the interpreter's start-up

MESSAGE_LIMIT = 2000        # characters kept of an error message
OUTPUT_LIMIT = 10_000       # characters kept of a cell's printed output
ALLOWED_ROOTS = {"numpy", "pandas", "sklearn", "imblearn", "scipy"}
SAFE_BUILTINS = {"slice", "set", "frozenset", "list", "dict", "tuple", "complex", "bytearray", "range",
                 "int", "float", "str", "bytes", "bool", "object"}
RECONSTRUCTORS = ("_reconstruct", "scalar", "__bit_generator_ctor", "__generator_ctor", "__randomstate_ctor",
                  "__pyx_unpickle_", "_unpickle", "_new_Index", "_mareconstruct")


def short(text: str, limit: int = MESSAGE_LIMIT) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} characters cut]"


def safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except BaseException:  # a student's exception whose __str__ fails
        return "?"


def describe(exc: BaseException) -> str:
    message = safe_str(exc)
    return short(f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


# The built-in exceptions a student's function may raise that a test can catch by type (a visible
# test turns a ZeroDivisionError or TypeError into a hint; a test may expect a ValueError on bad input).
CATCHABLE = (ZeroDivisionError, OverflowError, FloatingPointError, ArithmeticError, TypeError, ValueError,
             IndexError, KeyError, LookupError, AttributeError, NotImplementedError, RecursionError, RuntimeError)


def builtin_kind(exc: BaseException) -> str | None:
    """The name of the most specific built-in exception in CATCHABLE that ``exc`` is an instance of."""
    for kind in CATCHABLE:
        if isinstance(exc, kind):
            return kind.__name__
    return None


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and its waited-for children."""
    t = os.times()
    return round(t.user + t.system + t.children_user + t.children_system, 3)


# --------------------------------------------------------------------------- channel

class Channel:
    """JSON lines on private copies of fds 0 and 1; the real fds 0-2 go to /dev/null."""

    def __init__(self):
        self.rfile = os.fdopen(os.dup(0), "r", encoding="utf-8")
        self.wfile = os.fdopen(os.dup(1), "w", encoding="utf-8")
        self.pid = os.getpid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)

    def send(self, message: dict) -> None:
        if os.getpid() != self.pid:   # a process the student forked never speaks for the notebook
            os._exit(0)
        self.wfile.write(json.dumps(message, allow_nan=True) + "\n")
        self.wfile.flush()

    def receive(self) -> dict | None:
        line = self.rfile.readline()
        return json.loads(line) if line else None


class CappedOutput(io.TextIOBase):
    """A sys.stdout/stderr replacement keeping the first OUTPUT_LIMIT characters."""

    def __init__(self):
        self.parts, self.size = [], 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        if self.size < OUTPUT_LIMIT:
            self.parts.append(text[:OUTPUT_LIMIT - self.size])
        self.size += len(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        if self.size > OUTPUT_LIMIT:
            text += f"\n... [{self.size - OUTPUT_LIMIT} characters cut]"
        self.parts, self.size = [], 0
        return text


# --------------------------------------------------------------------------- data encoding

class UntrustedValue(Exception):
    """A value from the student's process that is not plain data."""


def encode(obj, depth: int = 0, handles: dict | None = None):
    """Plain JSON for plain data, tagged dicts for the rest. Exact types only (no subclasses)."""
    if depth > 50:
        raise ValueError("nested too deeply")
    kind = type(obj)
    if obj is None or kind in (bool, int, str):
        return obj
    if kind is float:
        return obj if obj == obj and obj not in (float("inf"), float("-inf")) else {"__t": "float", "v": repr(obj)}
    if kind in (list, tuple, set, frozenset):
        return {"__t": kind.__name__, "v": [encode(x, depth + 1, handles) for x in obj]}
    if kind is dict:
        return {"__t": "dict", "v": [[encode(k, depth + 1, handles), encode(v, depth + 1, handles)]
                                     for k, v in obj.items()]}
    if kind is complex:
        return {"__t": "complex", "v": [obj.real, obj.imag]}
    if kind is bytes:
        return {"__t": "bytes", "v": base64.b64encode(obj).decode()}
    if isinstance(obj, types.GeneratorType) or kind.__name__ in ("zip", "map", "filter", "list_iterator",
                                                                  "tuple_iterator", "range_iterator"):
        # a one-pass iterator (splitters yield generators): its items, iterable once on arrival
        return {"__t": "iter", "v": [encode(x, depth + 1, handles) for x in obj]}
    module = getattr(kind, "__module__", "") or ""
    if handles is not None and callable(obj) and module.split(".")[0] not in ALLOWED_ROOTS | {"builtins"}:
        handles.append(obj)   # a function of the student's: called remotely
        return {"__t": "callable", "id": len(handles) - 1, "name": getattr(obj, "__name__", "?")}
    if handles is not None and kind.__name__ in ("function", "builtin_function_or_method", "method"):
        handles.append(obj)
        return {"__t": "callable", "id": len(handles) - 1, "name": getattr(obj, "__name__", "?")}
    # NumPy, pandas, scikit-learn... objects and anything else: pickled, checked on arrival
    return {"__t": "pickle", "class": f"{module}.{kind.__qualname__}",
            "v": base64.b64encode(pickle.dumps(obj, protocol=4)).decode()}


class RestrictedUnpickler(pickle._Unpickler):
    """Rebuilds only objects of the scientific libraries; calls only their classes and reconstructors."""

    def find_class(self, module, name):
        root = module.split(".")[0]
        if "." in name or name.startswith("__") and not name.startswith(("__bit_generator", "__generator",
                                                                           "__randomstate", "__pyx_unpickle")):
            raise UntrustedValue(f"refused {module}.{name}")
        if module == "builtins" and name in SAFE_BUILTINS:
            return super().find_class(module, name)
        if (module, name) in (("copyreg", "_reconstructor"), ("collections", "OrderedDict")):
            return super().find_class(module, name)
        if root not in ALLOWED_ROOTS:
            raise UntrustedValue(f"an object of {module}.{name} (not NumPy, pandas, scikit-learn, "
                                 "imbalanced-learn or SciPy)")
        found = super().find_class(module, name)
        if not plain_global(found):   # a module, a dict, a scorer object... could be changed in place
            raise UntrustedValue(f"refused {module}.{name} (not a class or a function)")
        return found

    def _checked_build(self):
        if plain_global(self.stack[-2]):   # never set the state of a class or function of the library
            raise UntrustedValue("refused to change a library's class or function")
        return pickle._Unpickler.dispatch[pickle.BUILD[0]](self)

    dispatch = dict(pickle._Unpickler.dispatch)

    def _checked_reduce(self):
        args = self.stack[-1]
        func = self.stack[-2]
        name = getattr(func, "__name__", "")
        if not (isinstance(func, type) or name.startswith(RECONSTRUCTORS)):
            raise UntrustedValue(f"refused to call {name}")
        return pickle._Unpickler.dispatch[pickle.REDUCE[0]](self)

    dispatch[pickle.REDUCE[0]] = _checked_reduce
    dispatch[pickle.BUILD[0]] = _checked_build


def plain_global(obj) -> bool:
    """Classes and functions: the only module-level objects a pickle may name."""
    return isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)) or type(obj).__name__ in (
        "ufunc", "cython_function_or_method", "fused_cython_function")


def decode(value, trusted: bool, proxy_factory=None, trial_factory=None):
    if isinstance(value, list):   # never produced by encode; refuse rather than guess
        raise UntrustedValue("malformed value")
    if not isinstance(value, dict):
        return value
    tag, v = value.get("__t"), value.get("v")
    rec = lambda x: decode(x, trusted, proxy_factory, trial_factory)  # noqa: E731
    if tag == "float":
        return float(v)
    if tag == "list":
        return [rec(x) for x in v]
    if tag == "tuple":
        return tuple(rec(x) for x in v)
    if tag == "set":
        return {rec(x) for x in v}
    if tag == "frozenset":
        return frozenset(rec(x) for x in v)
    if tag == "dict":
        return {rec(k): rec(x) for k, x in v}
    if tag == "complex":
        return complex(*v)
    if tag == "iter":
        return iter([rec(x) for x in v])
    if tag == "bytes":
        return base64.b64decode(v)
    if tag == "trial":   # an Optuna trial of the tests: only ever sent to the student's process
        if trial_factory is None:
            raise UntrustedValue("a trial where data was expected")
        return trial_factory(int(value["id"]))
    if tag == "callable":
        if proxy_factory is None:
            raise UntrustedValue("a function where data was expected")
        return proxy_factory(value["id"], value.get("name", "?"))
    if tag == "pickle":
        data = base64.b64decode(v)
        if trusted:
            return pickle.loads(data)
        try:
            return RestrictedUnpickler(io.BytesIO(data)).load()
        except UntrustedValue as exc:
            raise UntrustedValue(f"returned {value.get('class')}: {exc}") from None
        except Exception as exc:
            raise UntrustedValue(f"returned {value.get('class')}, which could not be rebuilt ({describe(exc)})") from None
    raise UntrustedValue(f"unknown value tag {tag!r}")


# --------------------------------------------------------------------------- Optuna trials across the boundary
#
# Some exercises are Optuna objectives: the tests call the student's function with a live trial
# of their study. The trial stays in the tests process; the student's function gets a RemoteTrial
# whose methods send {"callback": {"trial", "method", "args", "kwargs"}} and wait for the answer
# (the grader relays both ways). The tests process checks the method against TRIAL_API and every
# argument's type (plain data only: numbers, strings, booleans, None, lists, tuples, dicts) before
# calling the real trial, and sends back plain data. optuna.TrialPruned raised by the student's
# function arrives as optuna.TrialPruned in the tests process; anything else as an error.

TRIAL_ERRORS = {"ValueError": ValueError, "TypeError": TypeError, "AttributeError": AttributeError,
                "KeyError": KeyError, "NotImplementedError": NotImplementedError, "RuntimeError": RuntimeError}
TRIAL_PROPERTIES = ("number", "params", "distributions", "user_attrs", "datetime_start")


def _plain_arg(value):
    """A NumPy scalar (np.float64 from np.mean, np.int64 from np.arange) as the Python number it holds."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return value.item()
    if type(value) in (list, tuple):
        return type(value)(_plain_arg(v) for v in value)
    return value


class RemoteTrial:
    """The student's view of an Optuna trial that lives in the tests process (methods forwarded)."""

    __slots__ = ("_call",)

    def __init__(self, call):
        object.__setattr__(self, "_call", call)

    def suggest_int(self, name, low, high, *, step=1, log=False):
        return self._call("suggest_int", [name, low, high], {"step": step, "log": log})

    def suggest_float(self, name, low, high, *, step=None, log=False):
        return self._call("suggest_float", [name, low, high], {"step": step, "log": log})

    def suggest_categorical(self, name, choices):
        return self._call("suggest_categorical", [name, list(choices) if type(choices) is not list else choices], {})

    def report(self, value, step):
        return self._call("report", [value, step], {})

    def should_prune(self):
        return self._call("should_prune", [], {})

    def set_user_attr(self, key, value):
        return self._call("set_user_attr", [key, value], {})

    number = property(lambda self: self._call("number", [], {}))
    params = property(lambda self: self._call("params", [], {}))
    distributions = property(lambda self: self._call("distributions", [], {}))
    user_attrs = property(lambda self: self._call("user_attrs", [], {}))
    datetime_start = property(lambda self: self._call("datetime_start", [], {}))

    def __getattr__(self, name):
        raise AttributeError(f"the trial passed by the grader has no attribute {name!r}: it offers "
                             "suggest_int, suggest_float, suggest_categorical, report, should_prune, "
                             "set_user_attr, number, params, distributions, user_attrs and datetime_start")

    def __setattr__(self, name, value):
        raise AttributeError(f"the trial passed by the grader has no attribute {name!r} to set")

    def __repr__(self):
        return "<optuna trial (forwarded by the grader)>"


def remote_trial_factory(channel: "Channel"):
    """Student side: makes the RemoteTrial for the tests' trial number ``handle``."""
    def make(handle: int) -> RemoteTrial:
        def call(method, args, kwargs):
            try:
                message = {"callback": {"trial": handle, "method": method,
                                        "args": [encode(_plain_arg(a)) for a in args],
                                        "kwargs": {k: encode(_plain_arg(v)) for k, v in kwargs.items()}}}
            except Exception as exc:
                raise TypeError(f"trial.{method}: pass numbers, strings, booleans, None or lists of them "
                                f"({describe(exc)})") from None
            channel.send(message)
            reply = channel.receive()
            if reply is None:
                os._exit(0)
            if "error" in reply:
                raise TRIAL_ERRORS.get(reply.get("kind"), RuntimeError)(str(reply["error"]))
            return decode(reply.get("value"), trusted=True)
        return RemoteTrial(call)
    return make


def plain(value, depth: int = 0):
    """Tests side: decode a student's argument, accepting plain data only (never a pickle or a function)."""
    if depth > 20:
        raise TypeError("nested too deeply")
    if value is None or type(value) in (bool, int, float, str):
        return value
    if type(value) is dict:
        tag, v = value.get("__t"), value.get("v")
        if tag == "float" and type(v) is str and v in ("nan", "inf", "-inf"):
            return float(v)
        if tag in ("list", "tuple") and type(v) is list:
            items = [plain(x, depth + 1) for x in v]
            return items if tag == "list" else tuple(items)
        if tag == "dict" and type(v) is list and all(type(p) is list and len(p) == 2 for p in v):
            out = {}
            for k, x in v:
                key = plain(k, depth + 1)
                if type(key) not in (str, int, float, bool) and key is not None:
                    raise TypeError("dict keys must be strings or numbers")
                out[key] = plain(x, depth + 1)
            return out
        raise TypeError(f"an object of {value.get('class', tag)!s:.80} (only numbers, strings, booleans, None, "
                        "lists, tuples and dicts cross to the grader's trial)")
    raise TypeError("malformed argument")


def _check(value, kinds, what):
    if type(value) not in kinds:
        names = " or ".join(k.__name__ if k is not type(None) else "None" for k in kinds)
        raise TypeError(f"{what} must be {names}, not {type(value).__name__}")
    return value


def _choices(choices):
    _check(choices, (list, tuple), "choices")
    for choice in choices:
        _check(choice, (type(None), bool, int, float, str), "each choice")
    return choices


_NUMBER = (int, float)
TRIAL_API = {
    "suggest_int": lambda t, name, low, high, *, step=1, log=False: t.suggest_int(
        _check(name, (str,), "name"), _check(low, (int,), "low"), _check(high, (int,), "high"),
        step=_check(step, (int,), "step"), log=_check(log, (bool,), "log")),
    "suggest_float": lambda t, name, low, high, *, step=None, log=False: t.suggest_float(
        _check(name, (str,), "name"), _check(low, _NUMBER, "low"), _check(high, _NUMBER, "high"),
        step=_check(step, _NUMBER + (type(None),), "step"), log=_check(log, (bool,), "log")),
    "suggest_categorical": lambda t, name, choices: t.suggest_categorical(_check(name, (str,), "name"),
                                                                          _choices(choices)),
    "report": lambda t, value, step: t.report(_check(value, _NUMBER, "value"), _check(step, (int,), "step")),
    "should_prune": lambda t: bool(t.should_prune()),
    "set_user_attr": lambda t, key, value: t.set_user_attr(_check(key, (str,), "key"), value),
    **{name: (lambda attribute: lambda t: getattr(t, attribute))(name) for name in TRIAL_PROPERTIES},
}


def serve_trial(callback, trials: dict) -> dict:
    """Tests side: one method call of the student's RemoteTrial on the real trial, checked; plain data back."""
    try:
        if type(callback) is not dict:
            raise TypeError("malformed request")
        handle, method = callback.get("trial"), callback.get("method")
        if type(handle) is not int or handle not in trials:
            raise RuntimeError("no such trial (the call it belonged to is over)")
        if type(method) is not str or method not in TRIAL_API:
            raise AttributeError(f"the trial passed by the grader has no method {str(method)[:80]!r}")
        args, kwargs = callback.get("args"), callback.get("kwargs")
        if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
            raise TypeError("malformed arguments")
        args = [plain(a) for a in args]
        kwargs = {k: plain(v) for k, v in kwargs.items()}
        if type(args[0] if args else None) is bool and method == "report":
            raise TypeError("value must be a number, not bool")
        value = TRIAL_API[method](trials[handle], *args, **kwargs)
        return {"value": encode(value)}
    except Exception as exc:  # noqa: BLE001 (the student's function gets it as its own exception)
        kind = type(exc).__name__
        return {"error": describe(exc), "kind": kind if kind in TRIAL_ERRORS else "RuntimeError"}


def copy_back(target, new) -> None:
    """Apply to an argument of the tests the changes the student's function made to its copy."""
    try:
        if isinstance(target, list) and isinstance(new, list):
            target[:] = new
        elif isinstance(target, dict) and isinstance(new, dict):
            target.clear()
            target.update(new)
        elif type(target).__name__ == "ndarray" and type(new).__name__ == "ndarray" and target.shape == new.shape:
            target[...] = new
        elif type(target) is type(new) and hasattr(target, "__dict__"):
            target.__dict__.clear()
            target.__dict__.update(new.__dict__)
    except Exception:
        pass


# --------------------------------------------------------------------------- student side

WATCHED_MODULES = ["builtins", "math", "cmath", "operator", "inspect", "numpy", "numpy.testing", "pandas",
                   "pandas.testing", "pytest", "unittest", "sklearn.metrics", "helpers", "IPython"]
WATCHED_SHELL = ["run_cell", "run_code", "run_ast_nodes", "run_cell_async", "transform_cell",
                 "showtraceback", "_showtraceback", "set_custom_exc"]


class Watcher:
    """Notices, after each student cell, tampering that could fake tests in an ordinary notebook run.

    Advisory: this runs in the student's process, so a determined student could
    hide from it; the grader also reads the source, and the scores never depend
    on this process's honesty.
    """

    def __init__(self, shell):
        self.shell = shell
        self.cwd_entries = set(os.listdir("."))
        self.path = list(sys.path)
        self.snapshots = {}
        self.modules = {}
        self.transformers = self._transformers()
        self.methods = {attr: getattr(type(shell), attr, None) for attr in WATCHED_SHELL}
        self.snapshot()

    def _transformers(self):
        s = self.shell
        return [list(map(id, s.input_transformers_cleanup)), list(map(id, s.input_transformers_post)),
                list(map(id, s.ast_transformers))]

    def snapshot(self):
        for name in WATCHED_MODULES:
            module = sys.modules.get(name)
            if module is not None and name not in self.snapshots:
                self.snapshots[name] = dict(vars(module))
                self.modules[name] = module

    def check(self) -> list[str]:
        reasons = []
        if self._transformers() != self.transformers:
            reasons.append("installs an IPython input or AST transformer (rewrites later cells)")
            self.transformers = self._transformers()
        for attr in WATCHED_SHELL:
            if attr in vars(self.shell) or getattr(type(self.shell), attr, None) is not self.methods[attr]:
                reasons.append(f"patches IPython's {attr}")
                self.shell.__dict__.pop(attr, None)
                setattr(type(self.shell), attr, self.methods[attr])
        for name, before in self.snapshots.items():
            module = sys.modules.get(name)
            if module is not self.modules[name]:
                reasons.append(f"replaces the module {name}")
                continue
            now = vars(module)
            changed = sorted(k for k, v in before.items() if k in now and now[k] is not v and not k.startswith("__")
                             and not reloaded(module, k, now[k]))
            removed = sorted(k for k in before if k not in now)
            added = sorted(k for k in now if k not in before and not k.startswith("_") and name == "builtins")
            for key in (changed + removed + added)[:3]:
                reasons.append(f"patches {name}.{key}")
            if changed or removed or added:
                self.snapshots[name] = dict(now)
        entries = set(os.listdir("."))
        new = sorted(e for e in entries - self.cwd_entries
                     if e.endswith((".py", ".pth", ".pyc", ".so")) or os.path.isfile(os.path.join(e, "__init__.py")))
        if new:
            reasons.append(f"creates {', '.join(new[:3])} beside the notebook (shadows a module)")
        self.cwd_entries = entries
        if sys.path != self.path:   # adding a folder ("..", a helpers folder) is a habit; shadowing is not
            shadows = sorted({f"{entry}/{name}" for entry in sys.path if entry not in self.path
                              for name in shadowing_files(entry)})
            if shadows:
                reasons.append(f"adds to sys.path a folder holding {', '.join(shadows[:3])} (shadows a module)")
            self.path = list(sys.path)
        if sys.gettrace() is not None or sys.getprofile() is not None:
            reasons.append("sets a trace or profile function")
        self.snapshot()
        return reasons


def reloaded(module, key: str, value) -> bool:
    """Whether a module's new attribute is its own, re-made (importlib.reload(helpers)): same name,
    defined in the module's own files."""
    if getattr(value, "__name__", None) != key:
        return False
    name = getattr(value, "__module__", None)
    if not isinstance(name, str) or name.split(".")[0] != module.__name__.split(".")[0]:
        return False
    code = getattr(value, "__code__", None)
    home = getattr(module, "__file__", None)
    if code is None or not home:
        return isinstance(value, type) and name in sys.modules and value.__module__ == name
    return os.path.realpath(code.co_filename).startswith(os.path.dirname(os.path.realpath(home)) + os.sep)


def shadowing_files(folder) -> list[str]:
    """The modules in ``folder`` named like a module already imported or watched (numpy.py, math/)."""
    names = {name.split(".")[0] for name in list(sys.modules)} | {n.split(".")[0] for n in WATCHED_MODULES}
    try:
        entries = os.listdir(folder or ".")
    except (OSError, TypeError):
        return []
    found = []
    for entry in entries:
        stem = entry.split(".")[0]
        path = os.path.join(folder or ".", entry)
        if stem in names and (entry.endswith((".py", ".pyc", ".so", ".pth"))
                              or os.path.isfile(os.path.join(path, "__init__.py"))):
            module = sys.modules.get(stem)
            where = getattr(module, "__file__", None) or ""
            same = where and os.path.realpath(where) in (os.path.realpath(path),
                                                          os.path.realpath(os.path.join(path, "__init__.py")))
            if not same:   # the module already imported from there (helpers/ beside the notebooks) is no shadow
                found.append(entry)
    return sorted(found)


def new_shell():
    """An IPython shell without history (no sqlite file, no history thread)."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    return InteractiveShell.instance(config=config)


class CellTimeout(Exception):
    pass


def where_stopped(exc: BaseException) -> str | None:
    """Where a cell's time went when ``exc`` stopped it: the name of the innermost function of the student's
    cells running then, "" for a cell's own code outside any function, None when no cell frame is found.
    IPython compiles each cell as ``<ipython-input-N-HASH>``; its top level is ``<module>``."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith("<ipython-input-"):
            found = "" if code.co_name == "<module>" else code.co_name
        tb = tb.tb_next
    return found


# --------------------------------------------------------------------------- the student's other processes
#
# What a cell (or a function a test calls) starts is stopped when that cell or call ends, before
# the next one runs: a fork bomb stopped at the cell limit, or a "daemon" left running, would
# otherwise spin on the CPU that the later cells and the tests need (and hold process slots).
# In a sandbox, the student's processes are every process of its PID namespace but its init
# (PID 1, bwrap's, owned by another user) and this one (PID 2): a process that called setsid or
# setpgid, or whose parent died (it is then the init's child), is still one of them. kill(-1)
# reaches exactly those, and the kernel delivers it to a fork in progress as well, so a fork bomb
# cannot slip through. Outside a sandbox (--no-sandbox) this process is a child subreaper
# (orphans become its children, not the machine's init's), so the student's processes are its
# descendants: they are stopped (SIGSTOP, until no new one appears), then killed.

SANDBOXED = False
STOPPED: set[int] = set()   # processes the alarm stopped during the current cell or call
SANDBOX_PID = 2             # the worker's PID in its sandbox (bwrap's init is 1)


def become_subreaper() -> bool:
    """Orphaned descendants become this process's children (Linux PR_SET_CHILD_SUBREAPER)."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every process in /proc (a sandbox's own /proc)."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
            fields = stat[stat.rindex(b")") + 2:].split()
            table[int(entry)] = (int(fields[1]), fields[0].decode())
        except (OSError, ValueError, IndexError):
            continue   # gone meanwhile
    return table


def in_sandbox() -> bool:
    """kill(-1) is used only here: as the sandbox's PID 2 (never on the machine, where it would reach
    every process of the user grading)."""
    return SANDBOXED and os.getpid() == SANDBOX_PID


def other_processes() -> dict[int, tuple[int, str]]:
    """The student's processes but this one, zombies included: pid -> (parent pid, state)."""
    me, table = os.getpid(), process_table()
    if in_sandbox():
        return {pid: info for pid, info in table.items() if pid not in (1, me)}
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = {}, list(children.get(me, []))
    while todo:
        pid = todo.pop()
        if pid not in found:
            found[pid] = table[pid]
            todo.extend(children.get(pid, []))
    return found


def running(processes: dict[int, tuple[int, str]]) -> set[int]:
    return {pid for pid, (_, state) in processes.items() if state not in "ZXx"}


def signal_others(others: dict[int, tuple[int, str]] | None = None) -> set[int]:
    """SIGSTOP then SIGKILL every other process of the student (no waiting); the running ones seen.
    ``others`` is a fresh ``other_processes()`` when the caller has one."""
    seen = running(other_processes() if others is None else others)
    if in_sandbox():
        # stopped processes cannot fork: stop them all (a fork bomb forks while being stopped), then kill
        for sig in [signal.SIGSTOP] * 5 + [signal.SIGKILL] * 2:
            try:
                os.kill(-1, sig)
            except OSError:   # ESRCH: nothing else is left
                break
        return seen
    stopped: set[int] = set()
    for _ in range(100):   # until a look at the tree finds no process not yet stopped
        new = running(other_processes()) - stopped
        if not new:
            break
        seen |= new
        for pid in new:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
        stopped |= new
    for pid in other_processes():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return seen


def stop_processes(timeout: float = 5.0) -> set[int]:
    """Kill every other process of the student and wait until they are gone (this process's dead
    children reaped, so that they hold no process slot); returns the pids that were running.
    After ``timeout`` seconds it gives up (a process stuck in the kernel): the sandbox's end kills it."""
    seen: set[int] = set()
    deadline = time.monotonic() + timeout
    me = os.getpid()
    while True:
        others = other_processes()
        if not others:
            return seen
        if running(others):
            seen |= signal_others(others)
        for pid, (parent, state) in others.items():
            if parent == me and state in "ZXx":
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
        if time.monotonic() > deadline:
            return seen
        time.sleep(0.005)


ARMED = [False]
IN_ALARM = [False]
NPROC = [None]   # the soft process limit while forks are blocked


def block_forks() -> None:
    """No more fork in this process (RLIMIT_NPROC 0) until the cell or call ends: a fork bomb's loop runs
    in this process too, and it must not refill the sandbox while the others are killed."""
    if NPROC[0] is None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (0, hard))
            NPROC[0] = soft
        except (ValueError, OSError):
            pass


def allow_forks() -> None:
    if NPROC[0] is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        resource.setrlimit(resource.RLIMIT_NPROC, (NPROC[0], hard))
        NPROC[0] = None


def _alarm(signum, frame):
    # Re-fires every tenth of a second while armed: an exception raised inside an at-fork hook or
    # a __del__ is swallowed by Python, so one alarm is not always enough to stop a cell.
    if ARMED[0] and not IN_ALARM[0]:
        IN_ALARM[0] = True
        try:   # a cell over its limit stops with every process it started (a fork bomb)
            block_forks()
            STOPPED.update(signal_others())
        finally:
            IN_ALARM[0] = False
        raise CellTimeout("the cell ran over its time limit and was stopped")


def arm(seconds: float) -> None:
    ARMED[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)


def disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    ARMED[0] = False
    allow_forks()


def end_of_step() -> int:
    """After a cell or a call: kill what it left running (and what the alarm stopped); how many."""
    stopped = STOPPED | stop_processes()
    STOPPED.clear()
    return len(stopped)


def run_student(channel: Channel, payload: dict) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    global SANDBOXED
    SANDBOXED = bool(payload.get("sandboxed"))
    if not SANDBOXED:   # orphans of the student's processes stay this process's descendants
        become_subreaper()
    shell = new_shell()
    started = time.perf_counter()
    habits: list[str] = []   # what the current cell did that grading answers in its own way

    def no_input(prompt="", *args, **kwargs):   # stdin is not the student's: a leftover input() gets ""
        habits.append("input")
        return ""

    def no_breakpoint(*args, **kwargs):   # a leftover breakpoint() would wait for a debugger
        habits.append("breakpoint")

    shell.user_ns["input"] = no_input
    sys.breakpointhook = no_breakpoint
    watcher = Watcher(shell)
    out = CappedOutput()
    sys.stdout = sys.stderr = out
    signal.signal(signal.SIGALRM, _alarm)
    cell_timeout = float(payload["cell_timeout"])
    cells, flags = [], []
    for cell in payload["cells"]:
        start = time.perf_counter()
        error = where = None
        # the cell about to run: if the process dies in it, the grader names it
        channel.send({"op": "running", "index": cell["index"]})
        try:
            arm(cell_timeout)
            result = shell.run_cell(cell["source"], store_history=True)
            disarm()
            exc = result.error_in_exec or result.error_before_exec
            if exc is not None:
                error = describe(exc)
                where = where_stopped(exc) if isinstance(exc, CellTimeout) else None
        except BaseException as exc:  # noqa: BLE001 (a SystemExit or the alarm outside run_cell)
            disarm()
            error = describe(exc)
            where = where_stopped(exc) if isinstance(exc, CellTimeout) else None
        finally:
            disarm()
        if os.getpid() != channel.pid:   # a forked copy of the notebook's process: it stops here
            os._exit(0)
        seconds = round(time.perf_counter() - start, 3)
        # what the cell started ends before the next cell runs (a fork bomb, a detached "daemon")
        cells.append({"index": cell["index"], "error": error, "output": out.take(),
                      "timeout": bool(error and "CellTimeout" in error), "where": where, "seconds": seconds,
                      "stopped": end_of_step(), "habits": sorted(set(habits))})
        habits.clear()
        try:
            flags.extend({"index": cell["index"], "reason": r} for r in watcher.check())
        except Exception as exc:
            flags.append({"index": cell["index"], "reason": f"breaks the grader's checks ({describe(exc)})"})
    timing = {"start": round(started - T0, 3), "cells": round(time.perf_counter() - started, 3), "cpu": cpu_seconds()}
    channel.send({"op": "ready", "cells": cells, "flags": flags, "timing": timing})

    handles: list = []
    trials = remote_trial_factory(channel)
    call_timeout = float(payload["call_timeout"])
    while True:
        request = channel.receive()
        if os.getpid() != channel.pid:
            os._exit(0)
        if request is None or request.get("op") == "bye":
            return
        try:
            arm(call_timeout)
            if request["op"] == "get":
                if request["name"] not in shell.user_ns:
                    reply = {"missing": True}
                else:
                    reply = {"value": encode(shell.user_ns[request["name"]], handles=handles)}
            elif request["op"] == "call":
                func = handles[request["id"]]
                args = [decode(a, trusted=True, trial_factory=trials) for a in request["args"]]
                kwargs = {k: decode(v, trusted=True, trial_factory=trials) for k, v in request["kwargs"].items()}
                value = func(*args, **kwargs)
                changed = {}
                for i, (before, arg) in enumerate(zip(request["args"], args)):
                    if isinstance(before, dict) and before.get("__t") in ("list", "dict", "pickle"):
                        after = encode(arg)
                        if after != before:
                            changed[str(i)] = after
                reply = {"value": encode(value, handles=handles), "changed": changed}
            else:
                reply = {"error": f"unknown request {request.get('op')!r}"}
        except BaseException as exc:  # noqa: BLE001
            disarm()
            reply = {"error": describe(exc), "kind": builtin_kind(exc)}
            optuna = sys.modules.get("optuna")
            pruned = getattr(optuna, "TrialPruned", None) if optuna is not None else None
            if isinstance(pruned, type) and isinstance(exc, pruned):
                reply["pruned"] = True
        finally:
            disarm()
        if os.getpid() != channel.pid:   # a forked copy of the notebook's process: it stops here
            os._exit(0)
        out.take()
        stopped = end_of_step()   # what the call started ends before the tests go on
        if stopped:
            reply["stopped"] = stopped
        try:
            channel.send(reply)
        except Exception as exc:
            channel.send({"error": f"the answer could not be sent ({describe(exc)})"})


# --------------------------------------------------------------------------- tests side

class StudentError(Exception):
    """The student's function raised (its message is the student's exception)."""


def student_error(name: str, reply: dict) -> StudentError:
    """The StudentError for a failed call, also an instance of the built-in type the student raised.

    Only the type's name crosses (checked against CATCHABLE), so a test's ``except ZeroDivisionError``
    hint or ``pytest.raises(ValueError)`` works as in the notebook, and nothing of the student's
    exception object does.
    """
    message = f"{name} raised {reply['error']}"
    kinds = {kind.__name__: kind for kind in CATCHABLE}
    kind = kinds.get(reply.get("kind")) if isinstance(reply.get("kind"), str) else None
    if kind is None:
        return StudentError(message)
    if kind is NotImplementedError and reply["error"] == "NotImplementedError":   # a bare raise, as the stub
        # the stub as handed out: a student reads "not answered yet", not an exception of the grader's
        message = f"{name} is not answered yet (it still raises NotImplementedError: write your answer in its cell)"
    # named as the built-in type the student raised, as the feedback page shows it
    error = type(kind.__name__, (StudentError, kind), {})(message)
    return error


def run_tests(channel: Channel, payload: dict) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = new_shell()
    timing = {"start": round(time.perf_counter() - T0, 3), "setup": 0.0, "wait": 0.0, "tests": 0.0}
    out = CappedOutput()
    sys.stdout = sys.stderr = out
    state = {"test": None}
    flags, setup_errors, results = [], [], {}

    def ask(request: dict) -> dict:
        channel.send(request)
        reply = channel.receive()
        if reply is None:
            raise SystemExit("the grader closed the channel")
        return reply

    def untrusted(reason: str, where: str) -> None:
        flags.append({"where": where, "reason": reason})

    def make_proxy(handle: int, name: str, definition: dict | None = None):
        def call(*args, **kwargs):
            trials: dict = {}

            def argument(value):
                optuna = sys.modules.get("optuna")
                base = getattr(getattr(optuna, "trial", None), "BaseTrial", None)
                if isinstance(base, type) and isinstance(value, base):   # stays here; the student gets a stand-in
                    trials[len(trials)] = value
                    return {"__t": "trial", "id": len(trials) - 1}
                return encode(value)

            try:
                request = {"op": "call", "id": handle, "args": [argument(a) for a in args],
                           "kwargs": {k: argument(v) for k, v in kwargs.items()}}
            except Exception as exc:
                raise StudentError(f"the test's arguments could not be sent to {name} ({describe(exc)})") from None
            reply = ask(request)
            while isinstance(reply, dict) and "callback" in reply and trials:   # the stand-in trial's methods
                reply = ask({"op": "trial_result", **serve_trial(reply["callback"], trials)})
            trials.clear()
            if "error" in reply:
                if reply.get("pruned") is True:
                    import optuna
                    raise optuna.TrialPruned(f"{name} pruned the trial")
                raise student_error(name, reply)
            try:
                value = decode(reply.get("value"), trusted=False, proxy_factory=make_proxy)
                for i, new in reply.get("changed", {}).items():
                    copy_back(args[int(i)], decode(new, trusted=False))
            except UntrustedValue as exc:
                untrusted(f"{name} {exc}", state["test"] or name)
                returned = str((reply.get("value") or {}).get("class", "")) if isinstance(reply.get("value"), dict) else ""
                if returned.rsplit(".", 1)[-1].endswith(("Pruned", "Error", "Exception", "Warning")):
                    raise StudentError(f"{name} returned the exception {returned} instead of raising it: "
                                       f"write raise {returned.rsplit('.', 1)[-1]}(), not return") from None
                raise StudentError(f"{name} did not return plain data: {exc}") from None
            return value

        source = None
        if definition:   # so that inspect.getsource shows the student's def (some tests read it)
            filename = f"<answer {name}>"
            lines = definition["text"].splitlines(keepends=True)
            linecache.cache[filename] = (len(definition["text"]), None, lines, filename)
            source = "\n" * (definition["lineno"] - 1) + f"def {name}(*args, **kwargs):\n    return _call(*args, **kwargs)\n"
            namespace = {"_call": call}
            exec(compile(source, filename, "exec"), namespace)
            proxy = namespace[name]
        else:
            def proxy(*args, **kwargs):
                return call(*args, **kwargs)
            proxy.__name__ = proxy.__qualname__ = name
        return proxy

    student_ready = False
    for step in payload["steps"]:
        clock = time.perf_counter()
        if step["kind"] == "setup":
            result = shell.run_cell(step["source"], store_history=False)
            exc = result.error_in_exec or result.error_before_exec
            if exc is not None:
                setup_errors.append({"index": step["index"], "error": describe(exc)})
            out.take()
        elif step["kind"] == "bind":
            if not student_ready:
                waited = time.perf_counter()
                reply = ask({"op": "wait"})
                timing["wait"] += time.perf_counter() - waited
                clock += time.perf_counter() - waited
                student_ready = True
                if "error" in reply:
                    continue
            for name in step["names"]:
                reply = ask({"op": "get", "name": name})
                if reply.get("missing") or "error" in reply or "value" not in reply:
                    shell.user_ns.pop(name, None)
                    continue
                try:
                    value = reply["value"]
                    if isinstance(value, dict) and value.get("__t") == "callable":
                        shell.user_ns[name] = make_proxy(value["id"], name, payload["defs"].get(name))
                    else:
                        shell.user_ns[name] = decode(value, trusted=False, proxy_factory=make_proxy)
                except UntrustedValue as exc:
                    untrusted(f"{name} {exc}", step["grade_id"])
                    shell.user_ns.pop(name, None)
        elif step["kind"] == "test":
            grade_id = step["grade_id"]
            state["test"] = grade_id
            outcome = {"passed": False, "visible_passed": False, "message": ""}
            result = shell.run_cell(step["visible"], store_history=False)
            exc = result.error_in_exec or result.error_before_exec
            if exc is not None:
                outcome["message"] = describe(exc)
            else:
                outcome["visible_passed"] = True
                result = shell.run_cell(step["full"], store_history=False)
                exc = result.error_in_exec or result.error_before_exec
                outcome["passed"] = exc is None
                if exc is not None:
                    outcome["message"] = f"passes the visible tests but fails a hidden test: {describe(exc)}"
            out.take()
            results[grade_id] = outcome
            state["test"] = None
        phase = {"setup": "setup", "test": "tests"}.get(step["kind"], "tests")
        timing[phase] += time.perf_counter() - clock
    timing = {k: round(v, 3) for k, v in timing.items()} | {"cpu": cpu_seconds()}
    channel.send({"op": "results", "tests": results, "flags": flags, "setup_errors": setup_errors,
                  "timing": timing})


def main() -> None:
    mode = sys.argv[1]
    channel = Channel()
    payload = channel.receive()
    os.environ.setdefault("MPLBACKEND", "Agg")
    try:
        if mode == "student":
            run_student(channel, payload)
        else:
            run_tests(channel, payload)
    except BaseException:  # noqa: BLE001
        channel.send({"op": "crash", "error": short(traceback.format_exc())})
        raise
    finally:
        sys.stdout.flush()
    os._exit(0)  # no atexit handlers of student code


if __name__ == "__main__":
    main()
