"""What the exercises' test cells check in an answer besides its results: the functions it calls.

A notebook imports the course's functions at its top (``binary_metrics``, ``auc_rank``...), so an answer can
call one without the word ``helpers`` in its text; a test that searches the text alone lets it through.
"""

from __future__ import annotations

import dis
import inspect

__all__ = ["functions_called"]


def functions_called(function, packages=("helpers", "sklearn", "imblearn")) -> list[str]:
    """The global names ``function`` reads that are bound to a function, class or module of ``packages``.

    Its nested functions and comprehensions count; attribute names do not (``np.divide`` reads the global
    ``np``, not a global ``divide``), nor do its own variables. A module read by name counts through its own
    name (``metrics`` bound to ``sklearn.metrics``). Sorted, each name once; empty for a callable that is not
    a Python function.
    """
    code = getattr(function, "__code__", None)
    if code is None:
        return []
    codes, names = [code], set()
    while codes:
        code = codes.pop()
        names |= {op.argval for op in dis.get_instructions(code) if op.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
        codes += [const for const in code.co_consts if inspect.iscode(const)]
    found = []
    for name in sorted(names):
        value = function.__globals__.get(name)
        if inspect.ismodule(value):
            where = value.__name__
        elif callable(value):
            where = getattr(value, "__module__", None) or ""
        else:
            continue
        if where.split(".")[0] in packages:
            found.append(name)
    return found
