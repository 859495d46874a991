"""Cheating, snooping and sabotage against the grading of notebook 01 (tools/grading/).

One batch of submissions built from the released 01_metrics: an honest one
(the instructor's answers), a blank one, every cheat of issue 13 (an input
transformer, a patched run_code, patched math.isclose, NumPy checks or
pytest.approx, an object equal to everything, a numpy.py beside the notebook,
manual_score written into the gradebook, solutions copied from source/ into
the student's own file), a quiet snoop reading solutions and another student's
file, a vandal attacking other students' files, the gradebook, the grade table
(also from a process meant to outlive the grading), tools/ and the hand-outs,
and a killer signalling every process it can see. The cheats score 0 on what
they faked and are flagged; the others' files, scores and the CSV are intact.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from conftest import grading_tests

ROOT = Path(__file__).resolve().parent.parent
NAME = "01_metrics"
base = grading_tests()   # tests/test_grading.py's helpers (tests/conftest.py)
grading = base.grading

pytestmark = pytest.mark.slow
STUB = "    raise NotImplementedError()\n"


def answers_of_instructor() -> dict[str, str]:
    instructor = nbformat.read(ROOT / "notebooks" / f"{NAME}.ipynb", as_version=4)
    return {c.metadata.nbgrader["grade_id"]: c.source for c in grading.nbgrader_cells(instructor)
            if c.metadata.nbgrader.get("solution")}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "absent"


def cheats(good: dict[str, str], paths: dict[str, str]) -> dict[str, dict[str, str]]:
    """Student -> {answer grade_id: cell source}; answers not given keep the released stub."""
    stubs = {
        "ex1-answer": "def specificity_and_npv(tp, fp, fn, tn):\n    return 0.5, 0.5\n",
        "ex5-answer": "def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):\n    return 'B'\n",
    }
    split = lambda text: " + ".join(repr(text[i:i + 3]) for i in range(0, len(text), 3))  # noqa: E731
    return {
        "honest": dict(good),
        "blank": {},
        # rewrites every later cell that asserts into `pass`
        "transformer": {"ex1-answer": stubs["ex1-answer"] +
                        "ip = get_ipython()\nip.input_transformers_cleanup.append(\n"
                        "    lambda lines: ['pass\\n'] if any('assert' in l for l in lines) else lines)\n"},
        # runs nothing any more: every later cell "passes"
        "run_code": {"ex1-answer": stubs["ex1-answer"] +
                     "from IPython.core.interactiveshell import InteractiveShell\n\n"
                     "async def run_code(self, code_obj, result=None, *, async_=False):\n    return False\n\n"
                     "InteractiveShell.run_code = run_code\n"},
        "isclose": {"ex1-answer": stubs["ex1-answer"] + "import math\nmath.isclose = lambda *a, **k: True\n"
                    "math.isnan = lambda x: True\n"},
        # answers 1 and 2 are right: they keep their points; 3 to 5 are faked
        "numpy_checks": {"ex1-answer": good["ex1-answer"], "ex2-answer": good["ex2-answer"],
                         "ex3-answer": "import numpy as np\nnp.isclose = np.allclose = lambda *a, **k: True\n"
                                       "np.testing.assert_allclose = lambda *a, **k: None\n"
                                       "def macro_and_weighted_f1(y_true, y_pred):\n    return 0.0, 0.0\n"},
        "approx": {"ex1-answer": good["ex1-answer"], "ex2-answer": good["ex2-answer"],
                   "ex3-answer": good["ex3-answer"],
                   "ex4-answer": "import pytest\npytest.approx = lambda expected, *a, **k: expected\n"
                                 "def cohen_kappa(cm):\n    return 0.7509\n"},
        # ex5 only compares with ==: an object equal to everything (answers 1-4 are right)
        "eq_everything": {**{k: good[k] for k in ["ex1-answer", "ex2-answer", "ex3-answer", "ex4-answer"]},
                          "ex5-answer": "class Always(str):\n    def __eq__(self, other):\n        return True\n\n"
                                        "def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):\n"
                                        "    return Always('?')\n"},
        "shadow_numpy": {"ex1-answer": stubs["ex1-answer"] +
                         "with open('numpy.py', 'w') as f:\n"
                         "    f.write('def isclose(*a, **k):\\n    return True\\nallclose = isclose\\n')\n"},
        "manual_score": {"ex1-answer": stubs["ex1-answer"] +
                         "import sqlite3\ntry:\n"
                         f"    db = sqlite3.connect({paths['gradebook']!r})\n"
                         "    db.execute('update grade set manual_score = 99')\n    db.commit()\n"
                         "except Exception:\n    pass\n"},
        "copy_solutions": {"ex1-answer": stubs["ex1-answer"] +
                           "import json\ntry:\n"
                           f"    source = json.load(open({paths['source']!r}))\n"
                           "    cells = [c for c in source['cells'] if c['metadata'].get('nbgrader', {}).get('solution')]\n"
                           f"    mine = json.load(open({paths['own']!r}))\n"
                           "    for cell in mine['cells']:\n"
                           "        for c in cells:\n"
                           "            if c['metadata']['nbgrader']['grade_id'] == cell['metadata'].get('nbgrader', {}).get('grade_id'):\n"
                           "                cell['source'] = c['source']\n"
                           f"    json.dump(mine, open({paths['own']!r}, 'w'))\n"
                           "    for c in cells:\n        exec(''.join(c['source']))\n"
                           "except Exception:\n    pass\n"},
        # no suspicious word: right only if it can read the solutions or another student's file
        "snoop": {**{k: good[k] for k in ["ex1-answer", "ex2-answer", "ex3-answer"]},
                  "ex4-answer": good["ex4-answer"].replace(
                      "def cohen_kappa(cm):\n",
                      f"def cohen_kappa(cm):\n    open({split(paths['honest'])}).read()\n"),
                  "ex5-answer": good["ex5-answer"].replace(
                      "def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):\n",
                      "def cheaper_classifier(counts_a, counts_b, cost_fp, cost_fn):\n"
                      f"    open({split(paths['source'])}).read()\n")},
        # attacks everything it knows the path of, then leaves a process to rewrite the table later
        "vandal": {**dict(good), "ex1-answer": good["ex1-answer"] + "\nimport os, subprocess, sys\n"
                   f"for target in {[paths['honest'], paths['csv'], paths['tool'], paths['handout'], paths['gradebook'], paths['source']]!r}:\n"
                   "    try:\n        with open(target, 'w') as f:\n            f.write('vandalised')\n"
                   "    except OSError:\n        pass\n"
                   "    try:\n        os.remove(target)\n    except OSError:\n        pass\n"
                   "later = 'import time; time.sleep(4); open(%r, \"w\").write(\"vandal,12\")' % "
                   f"{paths['csv']!r}\n"
                   "subprocess.Popen([sys.executable, '-c', later], start_new_session=True)\n"},
        # signals every process it can see (itself included)
        "killer": {"ex1-answer": stubs["ex1-answer"] + "import os, signal\n"
                   "for pid in sorted((int(p) for p in os.listdir('/proc') if p.isdigit()), reverse=True):\n"
                   "    try:\n        os.kill(pid, signal.SIGKILL)\n    except OSError:\n        pass\n"},
    }


EXPECTED = {  # student: (ex1..ex5, total, status, words in the flag or None)
    "honest": (("2", "2", "3", "3", "2"), "12", "graded", None),
    "blank": (("0",) * 5, "0", "graded", None),
    "transformer": (("0",) * 5, "0", "graded", "input_transformers_cleanup"),
    "run_code": (("0",) * 5, "0", "graded", "run_code"),
    "isclose": (("0",) * 5, "0", "graded", "math.isclose"),
    "numpy_checks": (("2", "2", "0", "0", "0"), "4", "graded", "np.isclose"),
    "approx": (("2", "2", "3", "0", "0"), "7", "graded", "pytest.approx"),
    "eq_everything": (("2", "2", "3", "3", "0"), "10", "graded", "__eq__"),
    "shadow_numpy": (("0",) * 5, "0", "graded", "numpy.py"),
    "manual_score": (("0",) * 5, "0", "graded", "sqlite3"),
    "copy_solutions": (("0",) * 5, "0", "graded", "exec"),
    "snoop": (("2", "2", "3", "0", "0"), "7", "graded", None),
    "vandal": (("0",) * 5, "0", "graded", "subprocess"),
    "killer": (("0",) * 5, "0", "crashed", "kill"),
}


def test_cheats_snoops_and_vandals_against_notebook_01(tmp_path):
    build, submitted = tmp_path / "build", tmp_path / "submitted"
    common = ["--root", str(build), "--notebooks", str(ROOT / "notebooks")]
    base.run_tool("release", *common, "--assignment", NAME)
    released = nbformat.read(build / "release" / f"{NAME}.ipynb", as_version=4)
    course = build / "course"
    evil_tool = ROOT / "tools" / f"evil_{uuid.uuid4().hex[:8]}.py"
    paths = {"gradebook": str(course / "gradebook.db"), "source": str(course / "source" / NAME / f"{NAME}.ipynb"),
             "honest": str(submitted / "honest" / NAME / f"{NAME}.ipynb"), "csv": str(build / "grades.csv"),
             "tool": str(evil_tool), "handout": str(build / "release" / f"{NAME}.ipynb"),
             "own": str(submitted / "copy_solutions" / NAME / f"{NAME}.ipynb")}

    good = answers_of_instructor()
    for student, answers in cheats(good, paths).items():
        notebook = nbformat.from_dict(released)
        for cell in notebook.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                cell.source = answers[grade_id]
        folder = submitted / student / NAME
        folder.mkdir(parents=True)
        nbformat.write(notebook, folder / f"{NAME}.ipynb")
    files = {p: digest(p) for p in submitted.rglob("*.ipynb")}
    protected = {Path(paths["source"]): digest(Path(paths["source"])),
                 Path(paths["handout"]): digest(Path(paths["handout"]))}
    tools_before = sorted(p.name for p in (ROOT / "tools").iterdir())

    uid_base = 64000 + (uuid.uuid4().int % 500) * 10
    try:
        result = base.run_tool("grade", *common, "--assignment", NAME, "--submissions", str(submitted),
                               "--timeout", "30", "--student-timeout", "120", "--uid-base", str(uid_base),
                               timeout=1200)
        print(result.stdout)
        assert not base.leftover_processes(uid_base), base.leftover_processes(uid_base)
        grades = base.read_grades(build / "grades.csv")
        assert base.printed_table_matches_csv(result.stdout, build / "grades.csv")
        questions = [f"ex{i}-tests" for i in range(1, 6)]
        for student, (scores, total, status, flag) in EXPECTED.items():
            row = grades[student]
            assert (tuple(row[q] for q in questions), row["total"], row["status"]) == (scores, total, status), row
            if flag is None:
                assert row["flag"] == "", row
            else:
                assert flag in row["flag"], row
        assert set(grades) == set(EXPECTED)

        # nothing outside the sandboxes changed: files, tools/, hand-outs, source, the gradebook
        assert {p: digest(p) for p in submitted.rglob("*.ipynb")} == files
        assert {p: digest(p) for p in protected} == protected
        assert sorted(p.name for p in (ROOT / "tools").iterdir()) == tools_before
        with sqlite3.connect(course / "gradebook.db") as db:
            manual = db.execute("select count(*) from grade where manual_score is not null").fetchone()[0]
            honest = db.execute("select sum(auto_score) from grade join submitted_notebook n on grade.notebook_id = n.id "
                                "join submitted_assignment a on n.assignment_id = a.id where a.student_id = 'honest'"
                                ).fetchone()[0]
        assert manual == 0 and honest == 12
        # the vandal's late writer never runs: the table stays as printed
        table = (build / "grades.csv").read_bytes()
        time.sleep(6)
        assert (build / "grades.csv").read_bytes() == table
        # feedback names the flag and never shows hidden tests
        page = (build / "feedback" / NAME / "eq_everything.html").read_text()
        assert "__eq__" in page and "9560" not in page and "BEGIN HIDDEN" not in page
        assert re.search(r"12 / 12", (build / "feedback" / NAME / "honest.html").read_text())
    finally:
        evil_tool.unlink(missing_ok=True)
