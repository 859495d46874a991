"""Return the feedback pages of tools/grading/ through nbgrader's exchange.

    .venv/bin/python hub/return_feedback.py --assignment 01_metrics [--root build]

``make grade`` (tools/grading/) writes each student's page to
``ROOT/feedback/NAME/STUDENT.html``. nbgrader releases feedback from its own
layout, ``ROOT/course/feedback/STUDENT/NAME/NOTEBOOK.html``, next to the
submission's ``timestamp.txt`` and ``submission_secret.txt`` (which
``nbgrader collect`` put in ``ROOT/course/submitted/STUDENT/NAME/``): the
exchange names each released page by a hash of that secret, so only the
student who submitted can find it. This script copies every graded student's
page into that layout and runs ``nbgrader release_feedback NAME`` in the course
folder; each student then gets their own page with ``nbgrader fetch_feedback
NAME`` (or the Assignments tab of their JupyterLab), in ``NAME/feedback/TIMESTAMP/``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def stage(root: Path, name: str) -> list[str]:
    """Copy the graded pages into nbgrader's feedback layout; return the students staged."""
    course = root / "course"
    pages = root / "feedback" / name
    staged = []
    for submitted in sorted((course / "submitted").glob(f"*/{name}")):
        student = submitted.parent.name
        page = pages / f"{student}.html"
        notebooks = sorted(submitted.glob("*.ipynb"))
        secret = submitted / "submission_secret.txt"
        if not page.is_file() or len(notebooks) != 1 or not secret.is_file():
            print(f"{student}: no feedback page, no single notebook or no submission secret; skipped")
            continue
        target = course / "feedback" / student / name
        target.mkdir(parents=True, exist_ok=True)
        for extra in ("timestamp.txt", "submission_secret.txt"):
            shutil.copyfile(submitted / extra, target / extra)
        html = target / f"{notebooks[0].stem}.html"   # nbgrader matches the page to the notebook by name
        shutil.copyfile(page, html)
        html.chmod(0o644)   # the exchange keeps the mode: the student must read it; its name is the secret
        staged.append(student)
    return staged


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assignment", required=True, metavar="NAME", help="notebook stem, e.g. 01_metrics")
    parser.add_argument("--root", type=Path, default=REPO / "build",
                        help="build folder of tools/grading/ (default: %(default)s)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    staged = stage(root, args.assignment)
    if not staged:
        raise SystemExit(f"no graded submission of {args.assignment} under {root / 'course' / 'submitted'}")
    print(f"feedback staged for {len(staged)} student(s): {', '.join(staged)}")
    result = subprocess.run([sys.executable, "-m", "nbgrader", "release_feedback", args.assignment],
                            cwd=root / "course")
    if result.returncode != 0:
        raise SystemExit(f"nbgrader release_feedback {args.assignment} failed ({result.returncode})")


if __name__ == "__main__":
    main()
