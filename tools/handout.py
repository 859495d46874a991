"""The student hand-out: everything a student needs next to the student notebooks.

    .venv/bin/python tools/handout.py [--graded] [FOLDER]     # default build/release/ (make student calls it)
    .venv/bin/python tools/handout.py --binder     # binder/requirements.txt, the same pins (make lock calls it)

`make student` (tools/grading release) writes the student versions of the
notebooks and the glossary to ``build/release/``; :func:`write_kit` adds what
makes that folder run on a student's own machine, on its own:

- ``helpers/``, the package every notebook imports (found next to the
  notebooks: a kernel starts in its notebook's folder), and ``data/``, the two
  datasets it reads (``helpers.datasets`` looks beside the package), with
  their README (sources, licences, checksums);
- ``requirements.txt``: the exact versions of requirements.lock that a student
  needs (:func:`student_requirements`: the packages the notebooks and helpers
  import, JupyterLab and the widgets, and every package they depend on, as the
  lock records it), so a student installs the same versions the course is
  tested with, in one command;
- ``README.md`` for the student: what to install, how to open the notebooks,
  the notebooks and their times (notebooks/schedule.toml), the licences;
- ``LICENSE`` and ``LICENSE-CONTENT``, which CC BY 4.0 asks a copy to carry.

For graded homework (``--graded``, ``make student GRADED=1``) ``helpers/`` leaves out the source of the
functions that answer an exercise (:data:`GIVEAWAYS`): each module keeps an import of them from
``helpers/_compiled_<module>.pyc``, the module compiled without its source (:func:`graded_helpers`), since
the notebooks' own cells and visible tests call them.

The same folder is what an nbgitpuller repository holds (docs/teaching.md):
it never contains a solution or a hidden test. tests/test_handout.py copies
it alone to a fresh place, installs its requirements in a fresh environment
and runs every notebook up to its exercises there.
"""

from __future__ import annotations

import ast
import json
import py_compile
import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import schedule  # noqa: E402  (tools/schedule.py)

sys.path.pop(0)

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "requirements.lock"
# What the student notebooks and helpers import, and what opens them; the lock supplies the rest. The helpers
# package's own requirements are read from pyproject.toml (one list); the notebooks add these.
NOTEBOOK_PACKAGES = ("scipy", "optuna", "tqdm", "threadpoolctl", "jupyterlab", "ipykernel")


def helpers_requirements(pyproject: Path = REPO / "pyproject.toml") -> tuple[str, ...]:
    """The names of the distributions the helpers package requires (pyproject.toml's ``dependencies``)."""
    dependencies = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    return tuple(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", spec).group(0) for spec in dependencies)


STUDENT_PACKAGES = (*helpers_requirements(), *NOTEBOOK_PACKAGES)
REQUIREMENTS = "requirements.txt"
PYTHON = "3.11"


def canonical(name: str) -> str:
    """A distribution name as PyPI compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_lock(text: str) -> dict[str, tuple[str, set[str]]]:
    """requirements.lock (uv pip compile's output) -> {name: (its pin line, the names it is required via)}."""
    packages: dict[str, tuple[str, set[str]]] = {}
    current = None
    for line in text.splitlines():
        pin = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==\S+", line)
        if pin:
            current = canonical(pin.group(1))
            packages[current] = (line.strip(), set())
            continue
        via = re.match(r"^\s+#\s+(?:via\s+)?(\S.*)$", line)
        if current and via and via.group(1) != "via":
            for requirer in via.group(1).split(","):
                requirer = requirer.strip()
                if requirer and not requirer.startswith("-r"):
                    packages[current][1].add(canonical(requirer))
        elif not line.startswith(" "):
            current = None
    return packages


def student_requirements(lock_text: str, roots=STUDENT_PACKAGES) -> list[str]:
    """The pin lines of ``roots`` and of everything the lock says they pull in, in the lock's order."""
    packages = parse_lock(lock_text)
    missing = [name for name in roots if canonical(name) not in packages]
    if missing:
        raise ValueError(f"the lock has no pin for {', '.join(missing)}")
    chosen = {canonical(name) for name in roots}
    changed = True
    while changed:   # a package is needed when anything needed requires it
        changed = False
        for name, (_, requirers) in packages.items():
            if name not in chosen and requirers & chosen:
                chosen.add(name)
                changed = True
    return [line for name, (line, _) in packages.items() if name in chosen]


# What pip adds to the lock's packages: jupyter-events asks for jsonschema's format-nongpl extra, whose
# rfc3987-syntax (and its lark) the lock leaves out on purpose (requirements.in: the course never checks an
# "iri" and their import costs 2 s). pip installs them anyway, so the hand-out pins them too, at the versions
# pip chose for this lock (tests/test_handout.py checks that pip then installs exactly the pinned set).
PIP_EXTRAS = ["lark==1.3.1", "rfc3987-syntax==1.1.0"]


def requirements_text(lock_text: str) -> str:
    pins = student_requirements(lock_text)
    header = [f"# The packages the course's notebooks need, at the exact versions the course is tested with",
              f"# (Python {PYTHON}): {len(pins)} of requirements.lock, written by tools/handout.py (make student),",
              f"# then {len(PIP_EXTRAS)} that pip adds for an optional check of jsonschema the notebooks never use",
              "# (pinned too; the course's own environment leaves them out).",
              "# Install them with: python -m pip install -r requirements.txt"]
    return "\n".join(header + pins + PIP_EXTRAS) + "\n"


def notebook_title(path: Path) -> str:
    """The title of a notebook, from its first heading (``# 01 · Metrics for evaluation`` -> ``Metrics for
    evaluation``)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        heading = re.search(r"^# (.+)$", source, re.MULTILINE)
        if cell["cell_type"] == "markdown" and heading:
            return re.sub(r"^\d+\s*·\s*", "", heading.group(1)).strip()
    return path.stem


def student_readme(folder: Path, times: dict[str, schedule.Time]) -> str:
    notebooks = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    rows = ["| notebook | what it covers | teaching | exercises |", "|---|---|---:|---:|"]
    for path in notebooks:
        time = times.get(path.stem)
        minutes = f"{time.teaching} min | {time.exercises} min" if time else "- | -"
        rows.append(f"| [{path.name}]({path.name}) | {notebook_title(path)} | {minutes} |")
    table = "\n".join(rows)
    return f"""# Model Evaluation: the student notebooks

Six Jupyter notebooks on evaluating machine-learning models: which metric answers which
question, ROC and precision-recall curves, cross-validation, imbalanced data, learning
curves and hyperparameter search. Work through them in order: run each notebook from top
to bottom, then do its **Practice** section, where every exercise has tests that tell you
at once what to fix. Every term is defined in the [glossary](glossary.md).

## Install (once)
You need Python {PYTHON} ([python.org](https://www.python.org/downloads/) or your system's
package manager). In a terminal, in this folder, one command creates an environment in
`.venv/` with the exact versions the course is tested with (every package pinned, including two
that pip adds for an optional check the notebooks never use):

```
python{PYTHON} -m venv .venv && .venv/bin/python -m pip install -r {REQUIREMENTS}
```

On Windows (cmd, or PowerShell 7): `py -{PYTHON} -m venv .venv && .venv\\Scripts\\python -m pip install -r {REQUIREMENTS}`.
With conda: `conda create -y -n model-evaluation python={PYTHON} && conda run -n model-evaluation python -m pip install -r {REQUIREMENTS}`.

## Open the notebooks
```
.venv/bin/jupyter lab
```
(Windows: `.venv\\Scripts\\jupyter lab`; conda: `conda run -n model-evaluation jupyter lab`.) JupyterLab
opens in your browser; double-click `01_metrics.ipynb`, then *Run > Run All Cells*. Run All
stops, by design, at the first exercise: its function is yours to write and raises
`NotImplementedError` until you do. Nothing is broken; write the exercise, then run its tests.

Keep the notebooks in this folder: they import the `helpers/` package and read the data in
`data/` next to them. Nothing is downloaded while they run.

{table}

## Handing in
Hand in your notebook file (`01_metrics.ipynb`, ...) the way your teacher asks. Your
answers go where the notebook says `# YOUR CODE HERE`; the test cells can stay as they
are (grading runs its own copy of them, with more tests).

## Licence
The notebooks' text and figures: CC BY 4.0 ([LICENSE-CONTENT](LICENSE-CONTENT)); the code,
`helpers/` included: BSD 3-Clause ([LICENSE](LICENSE)); the datasets keep their own licences
([data/README.md](data/README.md)).
"""


class Giveaway(NamedTuple):
    """The helpers code that answers one graded exercise: in ``helpers/<module>.py``, the functions (or
    classes) ``names`` compute what ``answer``, exercise ``exercise`` of notebook ``notebook``, asks for."""

    notebook: str
    exercise: int
    answer: str
    module: str
    names: tuple[str, ...]


# For graded homework (`make student GRADED=1`): per exercise, the helpers code that gives its answer away
# (a working implementation of what the student is asked to write). The notebooks' own cells before the
# exercises use them, directly or through another helper, and most visible tests compare with them, so the
# graded hand-out cannot simply drop them: it leaves their source out and ships them compiled (graded_helpers).
GIVEAWAYS = (
    Giveaway("01_metrics", 1, "specificity_and_npv", "metrics", ("binary_metrics", "specificity_score", "npv_score")),
    Giveaway("01_metrics", 2, "fbeta_from_counts", "metrics", ("binary_metrics",)),
    Giveaway("01_metrics", 3, "macro_and_weighted_f1", "metrics", ("per_class_metrics",)),
    Giveaway("01_metrics", 4, "cohen_kappa", "metrics", ("kappa_by_hand",)),
    Giveaway("02_roc_by_hand", 1, "roc_point", "roc", ("_sweep", "roc_counts", "roc_table")),
    Giveaway("02_roc_by_hand", 2, "auc_by_pairs", "roc", ("auc_rank",)),
    Giveaway("02_roc_by_hand", 3, "cheapest_threshold", "roc", ("sweep_state",)),
    Giveaway("02_roc_by_hand", 4, "precision_at_recall", "roc", ("pr_table",)),
    Giveaway("02_roc_by_hand", 5, "calibration_error", "calibration", ("expected_calibration_error", "_binned")),
    Giveaway("02_roc_by_hand", 6, "mcnemar_p_value", "metrics", ("mcnemar_test",)),
    Giveaway("03_cross_validation", 5, "corrected_t", "cv", ("corrected_resampled_ttest",)),
    Giveaway("04_oversampling", 1, "interpolate", "resampling", ("smote_by_hand",)),
    Giveaway("04_oversampling", 2, "adasyn_numbers", "resampling", ("adasyn_allocation",)),
    Giveaway("04_oversampling", 3, "is_danger", "resampling", ("borderline_categories",)),
    Giveaway("05_learning_curves", 2, "bias2_and_variance", "curves", ("BiasVariance",)),
)
COMPILED = "_compiled_{module}"   # the graded hand-out's helpers/_compiled_<module>.pyc


def definitions(source: str, names) -> dict[str, tuple[int, int]]:
    """Where each top-level function or class ``names`` of a module's ``source`` is: name -> (first line
    index, decorators included, last line index + 1). A name the module does not define: ValueError."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in names:
            found[node.name] = (min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1, node.end_lineno)
    missing = sorted(set(names) - set(found))
    if missing:
        raise ValueError(f"the module defines no function or class {', '.join(missing)}")
    return found


def giveaway_source(entry: Giveaway, repo: Path = REPO) -> str:
    """The source of ``entry``'s helpers functions (what the similarity report compares hand-ins with)."""
    lines = (repo / "helpers" / f"{entry.module}.py").read_text(encoding="utf-8").splitlines(keepends=True)
    spans = definitions("".join(lines), entry.names)
    return "\n".join("".join(lines[start:end]) for start, end in sorted(spans.values()))


def graded_helpers(source_dir: Path, target: Path, entries=GIVEAWAYS) -> dict[str, list[str]]:
    """The graded hand-out's helpers in ``target`` (a copy of ``source_dir``): in each module with
    giveaways, their definitions are replaced by an import from ``helpers/_compiled_<module>.pyc``, the
    module compiled (bytecode, no source: the notebooks and their visible tests still call them, a student
    does not read them). Returns module -> the names left out of its source."""
    left_out: dict[str, list[str]] = {}
    for entry in entries:
        left_out.setdefault(entry.module, [])
        left_out[entry.module] += [n for n in entry.names if n not in left_out[entry.module]]
    for module, names in left_out.items():
        original = source_dir / f"{module}.py"
        lines = original.read_text(encoding="utf-8").splitlines(keepends=True)
        compiled = COMPILED.format(module=module)
        exercises = {name: ", ".join(f"{e.notebook[:2]} exercise {e.exercise}" for e in entries
                                     if e.module == module and name in e.names) for name in names}
        for name, (start, end) in sorted(definitions("".join(lines), names).items(), key=lambda kv: -kv[1][0]):
            lines[start:end] = [f"from helpers.{compiled} import {name}  # noqa: E402  (graded homework: "
                                f"{exercises[name]} asks for it, so its code is not handed out)\n"]
        (target / f"{module}.py").write_text("".join(lines), encoding="utf-8")
        py_compile.compile(str(original), cfile=str(target / f"{compiled}.pyc"), doraise=True,
                           dfile=f"<helpers/{module}.py, compiled for graded homework>",
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    return left_out


def is_graded(folder: Path) -> bool:
    """Whether the hand-out ``folder`` was written for graded homework (its helpers have compiled modules)."""
    return any((folder / "helpers").glob(COMPILED.format(module="*") + ".pyc"))


def copy_tree(source: Path, target: Path, pattern: str) -> None:
    """``target`` becomes a fresh copy of the files of ``source`` matching ``pattern`` (no caches)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in sorted(source.glob(pattern)):
        if path.is_file():
            shutil.copyfile(path, target / path.name)


def write_kit(folder: Path, repo: Path = REPO, graded: bool | None = False) -> list[Path]:
    """Add helpers/, data/, requirements.txt, README.md and the licences to the hand-out ``folder``
    (which holds the student notebooks); return what was written. ``graded``: helpers without the source of
    the functions the exercises ask for (graded_helpers); None keeps what the folder has (is_graded)."""
    folder.mkdir(parents=True, exist_ok=True)
    if graded is None:
        graded = is_graded(folder)
    copy_tree(repo / "helpers", folder / "helpers", "*.py")
    if graded:
        graded_helpers(repo / "helpers", folder / "helpers")
    copy_tree(repo / "data", folder / "data", "*")
    (folder / REQUIREMENTS).write_text(requirements_text((repo / "requirements.lock").read_text()))
    for name in ("LICENSE", "LICENSE-CONTENT"):
        shutil.copyfile(repo / name, folder / name)
    (folder / "README.md").write_text(student_readme(folder, schedule.load(repo / "notebooks" / "schedule.toml")),
                                      encoding="utf-8")
    return [folder / name for name in ("helpers", "data", REQUIREMENTS, "LICENSE", "LICENSE-CONTENT", "README.md")]


def main(argv: list[str]) -> int:
    if argv == ["--binder"]:  # `make lock`: Binder's environment is the hand-out's (tools/publishing/elsewhere.py)
        target = REPO / "binder" / REQUIREMENTS
        target.write_text(requirements_text(LOCK.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"{target.relative_to(REPO)}: written")
        return 0
    graded = "--graded" in argv
    argv = [a for a in argv if a != "--graded"]
    folder = Path(argv[0]) if argv else REPO / "build" / "release"
    for path in write_kit(folder, graded=graded):
        print(f"{path.name}: written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
