"""The student hand-out: everything a student needs next to the student notebooks.

    .venv/bin/python tools/handout.py [FOLDER]     # default build/release/ (make student calls it)
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

The same folder is what an nbgitpuller repository holds (docs/teaching.md):
it never contains a solution or a hidden test. tests/test_handout.py copies
it alone to a fresh place, installs its requirements in a fresh environment
and runs every notebook up to its exercises there.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
from pathlib import Path

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


def copy_tree(source: Path, target: Path, pattern: str) -> None:
    """``target`` becomes a fresh copy of the files of ``source`` matching ``pattern`` (no caches)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in sorted(source.glob(pattern)):
        if path.is_file():
            shutil.copyfile(path, target / path.name)


def write_kit(folder: Path, repo: Path = REPO) -> list[Path]:
    """Add helpers/, data/, requirements.txt, README.md and the licences to the hand-out ``folder``
    (which holds the student notebooks); return what was written."""
    folder.mkdir(parents=True, exist_ok=True)
    copy_tree(repo / "helpers", folder / "helpers", "*.py")
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
    folder = Path(argv[0]) if argv else REPO / "build" / "release"
    for path in write_kit(folder):
        print(f"{path.name}: written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
