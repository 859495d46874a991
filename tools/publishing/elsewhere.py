"""Where a reader of the website runs a notebook without installing anything: Binder and Colab.

The website (tools/publishing/website.py) is published as a branch of the course's repository
(``SITE_BRANCH``, docs/site.md "Publish it"), and both services open notebooks from a GitHub branch:

- **Binder** builds an environment from the branch's ``binder/`` folder: the site's copy of the
  repository's ``binder/requirements.txt`` (the hand-out's pinned requirements, tools/handout.py),
  ``binder/runtime.txt`` (Python 3.11) and ``binder/postBuild`` (installs the site's helpers wheel),
  then opens ``handout/NN_name.ipynb``: the hand-out unpacked in the site, its ``helpers/`` and
  ``data/`` beside the student notebooks, as on a student's machine.
- **Colab** opens ``colab/NN_name.ipynb``: the student notebook with a first cell that installs the
  course's packages at the lock's versions and the ``helpers`` wheel from the site (:func:`colab_cell`),
  restarts Colab's runtime once when it changed a package Colab had loaded, and turns on Colab's custom
  widget manager, which the sliders' accessibility bridge (anywidget) needs: it loads the widgets'
  JavaScript from outside Colab.

JupyterLite, which runs the notebooks in the browser itself, is tools/publishing/lite.py.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))  # tools/: handout
import handout  # noqa: E402

SITE_BRANCH = "gh-pages"
BINDER = ROOT / "binder"
# what the Colab cell pins: the packages whose versions decide the course's numbers and figures, and the
# helpers' own requirements; never Colab's Jupyter front end (IPython, ipykernel, ipywidgets, its notebook),
# which Colab's runtime is built around
COLAB_PACKAGES = ("numpy", "scipy", "pandas", "scikit-learn", "imbalanced-learn", "matplotlib", "optuna",
                  "joblib", "threadpoolctl", "markdown-it-py", "anywidget", "tqdm")
COLAB_TAG = "colab-setup"


def github(repository: str) -> str:
    """``owner/name`` of a GitHub address (CITATION.cff's ``repository-code``)."""
    match = re.fullmatch(r"https://github\.com/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+?)(?:\.git)?/?",
                         repository)
    if not match:
        raise ValueError(f"Binder and Colab open notebooks from GitHub; the repository address {repository!r} "
                         "is not https://github.com/OWNER/NAME")
    return f"{match[1]}/{match[2]}"


def binder_url(repository: str, name: str, branch: str = SITE_BRANCH) -> str:
    """mybinder.org's address that builds the published branch's environment and opens the hand-out's notebook."""
    return f"https://mybinder.org/v2/gh/{github(repository)}/{branch}?urlpath=lab/tree/handout/{name}.ipynb"


def colab_url(repository: str, name: str, branch: str = SITE_BRANCH) -> str:
    """Colab's address of the published branch's ``colab/NAME.ipynb``."""
    return f"https://colab.research.google.com/github/{github(repository)}/blob/{branch}/colab/{name}.ipynb"


def pins(lock_text: str, names=COLAB_PACKAGES) -> dict[str, str]:
    """``{name: version}`` of ``names`` as requirements.lock pins them."""
    packages = handout.parse_lock(lock_text)
    found = {}
    for name in names:
        line = packages.get(handout.canonical(name), ("",))[0]
        match = re.match(r"^[A-Za-z0-9._-]+(?:\[[^\]]*\])?==(\S+)", line)
        if not match:
            raise ValueError(f"requirements.lock has no pin for {name}")
        found[name] = match[1]
    return found


def colab_cell(versions: dict[str, str], wheel_url: str) -> str:
    """The first cell of a Colab notebook: the course's packages at ``versions`` and the helpers wheel."""
    return f'''# Google Colab only (this cell is not in the course's other copies): install the packages at the
# versions the course is tested with, and the course's helpers. Colab then restarts its runtime once
# ("Your session crashed" is that restart): run this cell again, then Runtime > Run all.
import importlib.metadata, os, subprocess, sys

PINS = {json.dumps(versions, indent=4)}
HELPERS = "{wheel_url}"


def installed(name):
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


wrong = [f"{{name}}=={{version}}" for name, version in PINS.items() if installed(name) != version]
if wrong or installed("model-evaluation-helpers") is None:
    print("Installing", ", ".join(wrong) or "nothing else", "and the course's helpers ...", flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *wrong, HELPERS], check=True)
    print("Installed. Colab restarts its runtime now: run this cell again, then Runtime > Run all.", flush=True)
    os.kill(os.getpid(), 9)  # the packages Colab had loaded are replaced: only a new runtime imports them
else:
    from google.colab import output
    output.enable_custom_widget_manager()  # the sliders' accessibility bridge (anywidget) needs it
    print("Ready: the course's packages at their tested versions, and the helpers.")
'''


# a relative link to another notebook or the glossary: ](02_roc_by_hand.ipynb#anchor) or ](glossary.md#term)
LOCAL_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+?)\.(?:ipynb|md)(#[^)\s]*)?\)")


def site_links(source: str, site_url: str) -> str:
    """Markdown ``source`` with its links to the course's other notebooks and glossary sent to their pages on the
    site: a notebook opened alone in Colab has no file beside it."""
    return LOCAL_LINK.sub(lambda m: f"]({site_url.rstrip('/')}/{m[1]}.html{m[2] or ''})", source)


def colab_notebook(student: nbformat.NotebookNode, versions: dict[str, str], wheel_url: str,
                   site_url: str) -> nbformat.NotebookNode:
    """A copy of ``student`` with :func:`colab_cell` first (tagged ``colab-setup``) and its links to the other
    notebooks and the glossary sent to the site (:func:`site_links`); ``student`` is unchanged."""
    notebook = nbformat.from_dict(json.loads(json.dumps(student)))
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = site_links(cell.source, site_url)
    cell = nbformat.v4.new_code_cell(colab_cell(versions, wheel_url), metadata={"tags": [COLAB_TAG]})
    cell.id = COLAB_TAG  # a fixed id: the same file from every build
    notebook.cells.insert(0, cell)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["colab"] = {"provenance": []}
    return notebook


def write(out: Path, release: Path, repository: str, wheel_name: str, site_url: str) -> list[Path]:
    """Write into the site ``out``: ``binder/`` (the repository's environment files), ``handout/`` (the hand-out
    ``release`` as a student unpacks it) and ``colab/`` (each student notebook with its set-up cell, installing
    the helpers wheel ``downloads/WHEEL_NAME`` of the site at ``site_url``); return the files written."""
    github(repository)  # a clear error before anything is written
    written = []
    (out / "binder").mkdir(parents=True, exist_ok=True)
    for name in ("requirements.txt", "runtime.txt", "postBuild"):
        shutil.copy2(BINDER / name, out / "binder" / name)  # postBuild keeps its execute bit
        written.append(out / "binder" / name)
    shutil.copytree(release, out / "handout", ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"),
                    dirs_exist_ok=True)
    written.append(out / "handout")
    versions = pins((ROOT / "requirements.lock").read_text(encoding="utf-8"))
    wheel_url = site_url.rstrip("/") + "/downloads/" + wheel_name
    (out / "colab").mkdir(exist_ok=True)
    for path in sorted(release.glob("[0-9][0-9]_*.ipynb")):
        notebook = colab_notebook(nbformat.read(path, as_version=4), versions, wheel_url, site_url)
        nbformat.write(notebook, out / "colab" / path.name)
        written.append(out / "colab" / path.name)
    return written
