"""Honest habits cost nothing, tampering is still flagged (issue 20).

Every flag rule of tools/grading/ (static_flags, skip_shell and the student
worker's Watcher) is paired with an honest habit that looks like it and a
hostile version. On the two-question fixture of tests/test_grading.py, each
honest notebook gets full marks with a note saying what was skipped or
answered differently and why; each hostile one is flagged and scores 0 on the
questions tested after its cell. The unit tests check the same pairs on the
source alone, quickly.
"""

from __future__ import annotations

import uuid

import nbformat
import pytest

from conftest import grading_tests, release_homework

base = grading_tests()   # tests/test_grading.py's helpers (tests/conftest.py)
grading = base.grading

GOOD_SQUARE, GOOD_MEAN = base.GOOD_SQUARE, base.GOOD_MEAN

# rule: (an honest cell with the habit, words of the note or None, a hostile cell, words of the flag)
RULES = {
    "shell escape": ("!pip install imbalanced-learn\nimport math", "skipped !pip install imbalanced-learn",
                     "import os\nos.system('echo \"isclose = None\" > numpy.py')", "runs a shell command from Python"),
    "pip magic": ("%pip install -q optuna", "skipped %pip install -q optuna",
                  "get_ipython().system('pip install optuna')", "get_ipython().system"),
    "captured install": ("%%capture\n!pip install -q imbalanced-learn\nimport math", "skipped !pip install -q",
                         "import subprocess\nsubprocess.run(['pip', 'install', 'x'])", "imports subprocess"),
    "shell cell": ("%%bash\necho hello\nls", "skipped %%bash",
                   "import pty", "imports pty"),
    "shell output": ("files = !ls\nprint(len(files))", "skipped !ls",
                     "import os\nos.popen('ls').read()", "runs a shell command from Python (os.popen)"),
    "other magics": ("%matplotlib inline\n%load_ext autoreload\n%autoreload 2\n%time total = sum(range(10))", None,
                     "get_ipython().input_transformers_cleanup.append(lambda lines: lines)",
                     "input_transformers_cleanup"),
    "input": ("name = input('Your name? ')\nprint('hello', name)", "called input(): it got an empty string",
              "import builtins\nbuiltins.input = lambda *a: 'x'", "imports builtins"),
    "breakpoint": ("total = 0\nbreakpoint()\ntotal += 1", "called breakpoint(): ignored",
                   "exec('total = 1')", "uses exec()"),
    "cell raises": ("values = [1, 2]\nvalues[5]", "raised IndexError",
                    "import sys\nsys.excepthook = lambda *a: None", "excepthook"),
    "warning filters": ("import warnings\nwarnings.filterwarnings('ignore')\nwarnings.simplefilter('ignore')", None,
                        "import warnings, math\nmath.isclose = lambda *a, **k: True", "assigns math.isclose"),
    "stderr": ("import sys\nprint('debug', file=sys.stderr)\nsys.stderr.write('more\\n')", None,
               "import sys\nsys.modules['math'] = None", "uses .modules"),
    "display settings": ("import pandas as pd\nimport numpy as np\npd.options.display.max_columns = 50\n"
                         "pd.set_option('display.precision', 3)\nnp.set_printoptions(precision=3)", None,
                         "import numpy as np\nnp.testing.assert_allclose = lambda *a, **k: None",
                         "assigns np.testing.assert_allclose"),
    "gc and reload": ("import gc, importlib, helpers\ngc.collect()\nimportlib.reload(helpers)", None,
                      "import gc\nfound = gc.get_objects()", "uses gc beyond"),
    "importlib": ("from importlib import reload\nimport math\nreload(math)", None,
                  "from importlib import util", "imports importlib.util"),
    "process count": ("import multiprocessing as mp\nn_jobs = mp.cpu_count()", None,
                      "import multiprocessing as mp\nmp.Process(target=print).start()", "uses multiprocessing beyond"),
    "setattr on own objects": ("class Box:\n    def __init__(self, **values):\n        for key, value in values.items():\n"
                               "            setattr(self, key, value)\n\n    def __repr__(self):\n"
                               "        return self.__class__.__name__\n\nbox = Box(a=1)\nrepr(box)", None,
                               "import math\nsetattr(math, 'isclose', lambda *a, **k: True)", "calls setattr() on math"),
    "type name": ("x = 1.5\nprint(x.__class__.__name__)", None,
                  "class Fake:\n    pass\n\nfake = Fake()\nfake.__class__ = float", "assigns .__class__"),
    "sys.path": ("import sys, os\nsys.path.append('..')\nsys.path.insert(0, os.path.abspath('lib'))", None,
                 # a folder holding a numpy.py put first on the path (built so that no file name shows)
                 "import os, sys\nos.makedirs('lib', exist_ok=True)\n"
                 "open(os.path.join('lib', 'num' + 'py.' + 'p' + 'y'), 'w').write('isclose = None')\n"
                 "sys.path.insert(0, os.path.abspath('lib'))", "numpy.py (shadows a module)"),
    "files": ("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
              "ax.plot([0, 1], [0, 1])\nax.set_title('a line')\nfig.savefig('line.png')\nplt.show()", None,
              "open('math' + '.py', 'w').write('def isclose(*a, **k):\\n    return True\\n')",
              "creates math.py beside the notebook"),
}


@pytest.mark.parametrize("rule", RULES)
def test_honest_habit_is_not_flagged_and_hostile_version_is(rule):
    honest, _, hostile, words = RULES[rule]
    source, _ = grading.skip_shell(honest)
    assert grading.static_flags(source) == [], (rule, grading.static_flags(source))
    if rule not in ("sys.path", "files"):   # these two are noticed while the cell runs (the Watcher)
        flags = grading.static_flags(grading.skip_shell(hostile)[0])
        assert any(words in flag for flag in flags), (rule, flags)


def test_skip_shell_keeps_lines_and_skips_only_what_ipython_runs_as_shell():
    edited, skipped = grading.skip_shell("!pip install x\nx = 1\n%pip install y \\\n  z\nfiles = !ls\n")
    assert edited.split("\n") == ["pass", "x = 1", "pass", "", "files = []", ""]
    assert skipped == ["!pip install x", "%pip install y \\", "!ls"]
    inside = "def f():\n    !pip install x\n    return 1"
    assert grading.skip_shell(inside) == ("def f():\n    pass\n    return 1", ["!pip install x"])
    # an escape-looking line inside a string is no shell escape: nothing changes
    text = "s = '''\n!not a command\n'''"
    assert grading.skip_shell(text) == (text, [])
    assert grading.skip_shell("%%bash\necho 1\necho 2") == ("pass\n\n", ["%%bash"])
    assert grading.skip_shell("%%capture\n!pip install x\nimport math") == ("%%capture\npass\nimport math",
                                                                             ["!pip install x"])
    assert grading.skip_shell("%matplotlib inline\n%time x = 1") == ("%matplotlib inline\n%time x = 1", [])


@pytest.mark.slow
def test_habits_get_full_marks_with_a_note_and_tampering_is_still_flagged(tmp_path):
    build, submitted, common, released = release_homework(base, tmp_path)

    def put(student: str, extra: str | None, square: str = GOOD_SQUARE, mean: str = GOOD_MEAN) -> None:
        notebook = base.submission(released, (square, mean))
        if extra is not None:
            notebook.cells.insert(2, nbformat.v4.new_code_cell(extra))   # cell 3, before both answers
        folder = submitted / student / "hw"
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / "hw.ipynb")

    names = {}
    for n, (rule, (honest, _, hostile, _)) in enumerate(RULES.items()):
        names[rule] = (f"honest{n:02d}", f"hostile{n:02d}")
        # in the answer cell, which always runs whole (a cell magic needs a cell of its own)
        if honest.startswith("%%"):
            put(names[rule][0], honest)
        else:
            put(names[rule][0], None, square=GOOD_SQUARE + "\n" + honest + "\n")
        put(names[rule][1], None, square=hostile + "\n\n" + GOOD_SQUARE)
    # the habit in a cell of its own that the answers do not need is not even run; its shell escape is noted
    put("pip_cell", "!pip install imbalanced-learn")
    # a leftover breakpoint() and input() inside the tested function: the tests' calls still pass
    put("in_function", None, square="def square(x):\n    breakpoint()\n    input('go on?')\n    return x * x\n")

    uid_base = 63000 + (uuid.uuid4().int % 500) * 10
    result = base.run_tool("grade", *common, "--assignment", "hw", "--submissions", str(submitted),
                           "--timeout", "20", "--student-timeout", "60", "--uid-base", str(uid_base))
    print(result.stdout)
    grades = base.read_grades(build / "grades.csv")
    for rule, (honest, note, hostile, words) in RULES.items():
        good, bad = grades[names[rule][0]], grades[names[rule][1]]
        assert (good["total"], good["status"], good["flag"]) == ("5", "graded", ""), (rule, good)
        if note is not None:
            assert note in good["note"], (rule, good)
        assert (bad["square-tests"], bad["mean-tests"], bad["total"]) == ("0", "0", "0"), (rule, bad)
        assert words in bad["flag"], (rule, bad)
    assert grades["pip_cell"]["total"] == "5" and grades["pip_cell"]["flag"] == ""
    # the cell is named by the heading above it, as the student finds it (not "cell 3")
    assert 'a cell under the heading "Homework": skipped !pip install imbalanced-learn' in grades["pip_cell"]["note"]
    assert (grades["in_function"]["total"], grades["in_function"]["flag"]) == ("5", "")
    # the feedback page says what was skipped and why
    page = (build / "feedback" / "hw" / f"{names['shell escape'][0]}.html").read_text()
    assert "skipped !pip install imbalanced-learn" in page and "5 / 5" in page
    assert not base.leftover_processes(uid_base)
