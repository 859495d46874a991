"""The student's path: a study folder of student versions, and a self-check with the hidden tests.

    python tools/study.py build [--fresh NAME ...]        # make study-files (make study also opens Lab)
    python tools/study.py check NAME [--file PATH]        # make check NB=01_metrics [FILE=path]

``build`` releases the student versions (tools/grading/: solutions and
hidden tests stripped by nbgrader) when the instructor notebooks changed, and
puts them in ONE flat folder ``study/`` (git-ignored) with the files they link
to (the glossary), so the links between notebooks work. It never overwrites a
file the student has edited: ``study/.handed-out.json`` records the SHA-256 of
every file as handed out. On a re-run

- a missing file is handed out;
- an unedited file (same hash as handed out) is refreshed when the release changed;
- an edited file is kept, and the run says so and how to get a fresh copy:
  ``--fresh NAME`` (``make study FRESH=NAME``) moves the old file to a dated
  backup next to it (never deleted) and hands out a fresh copy.

``check`` grades the student's own copy (``study/NAME.ipynb`` by default)
through tools/grading's ``grade``, exactly as a teacher's grading would:
the student's cells run, then the instructor's tests, hidden ones included,
and it prints per exercise passed / failed with the failing check's message
(the visible assertion's message; a hidden test's code is never shown) and
the score. It runs in the bubblewrap sandbox when it works here and without it
otherwise (it is the student's own code). Each run grades in its own temporary
course folder (``build/check-XXXXXXXX/``, removed when it ends), so two checks
started at once (two terminals) never share one; it is apart from a teacher's
``build/course/`` and ``build/grades.csv``. What the teacher's grading calls a
flag (something in the notebook that could fake a verdict) is told to a student
alone as what to change, not as an accusation.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading  # noqa: E402  (tools/grading/)
import links  # noqa: E402  (tools/links.py)

sys.path.pop(0)

REPO = Path(__file__).resolve().parent.parent
STATE = ".handed-out.json"
STUDENT = "you"  # the student's name in the check's grading


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def short(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- build

def release_files(course: grading.Course, names: list[str]) -> dict[str, Path]:
    """Release what changed; return {file name in study/: its handed-out version}."""
    stale = [name for name in names
             if grading.needs_release(course, name) or not course.student_release(name).is_file()]
    if stale:
        print(f"releasing the student version of {', '.join(stale)}", flush=True)
        with contextlib.redirect_stdout(io.StringIO()) as log:
            try:
                grading.release(course, stale)
            except SystemExit:
                sys.stdout.write(log.getvalue())
                raise
    files = {f"{name}.ipynb": course.student_release(name) for name in names}
    for relative in links.companions(course.notebooks):
        files[relative.as_posix()] = course.notebooks / relative
    return files


def resolve_names(requested: list[str], files: list[str]) -> list[str]:
    """File names in ``files`` for names as a student types them: 01_metrics, 01_metrics.ipynb, 01, glossary, all."""
    chosen = []
    for name in requested:
        for word in name.replace(",", " ").split():
            if word == "all":
                matches = list(files)
            else:
                stem = Path(word).name
                matches = [f for f in files if f == stem or Path(f).stem == stem]
                matches = matches or [f for f in files if re.fullmatch(r"\d+", stem) and f.startswith(stem + "_")]
            if len(matches) != 1 and word != "all":
                raise SystemExit(f"FRESH={word}: {'no' if not matches else 'more than one'} such file; "
                                 f"choose among {', '.join(Path(f).stem for f in files)} (or all)")
            chosen += [m for m in matches if m not in chosen]
    return chosen


def backup_path(path: Path, now: datetime.datetime) -> Path:
    stamp = now.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.stem}.backup-{stamp}{path.suffix}")
    index = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}.backup-{stamp}-{index}{path.suffix}")
        index += 1
    return candidate


def write_state(folder: Path, state: dict) -> None:
    handle = tempfile.NamedTemporaryFile("w", dir=folder, prefix=f"{STATE}.", suffix=".tmp", delete=False)
    with handle:
        json.dump(state, handle, indent=1, sort_keys=True)
        handle.write("\n")
    os.replace(handle.name, folder / STATE)


def hand_out(files: dict[str, Path], folder: Path, fresh: list[str] = (),
             now: datetime.datetime | None = None) -> dict[str, list[str]]:
    """Copy ``files`` into ``folder`` without ever overwriting an edited file; return what happened to each."""
    now = now or datetime.datetime.now()
    folder.mkdir(parents=True, exist_ok=True)
    state_path = folder / STATE
    try:
        state = json.loads(state_path.read_text())
        handed = dict(state.get("files", {}))
    except (OSError, ValueError, AttributeError):
        handed = {}
    report: dict[str, list[str]] = {"new": [], "updated": [], "fresh": [], "same": [], "kept": [],
                                    "kept-outdated": [], "backups": []}
    for name, source in files.items():
        target = folder / name
        new = sha256(source)
        if name in fresh:
            if target.exists() and sha256(target) != new:
                backup = backup_path(target, now)
                os.replace(target, backup)
                report["backups"].append(backup.name)
            shutil.copyfile(source, target)
            handed[name] = new
            report["fresh"].append(name)
        elif not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            handed[name] = new
            report["new"].append(name)
        else:
            current = sha256(target)
            if current == new:
                handed[name] = new
                report["same"].append(name)
            elif handed.get(name) == current:   # as handed out, and the release changed: refresh it
                shutil.copyfile(source, target)
                handed[name] = new
                report["updated"].append(name)
            else:                               # the student's work (or of unknown origin): never touched
                report["kept-outdated" if handed.get(name) != new else "kept"].append(name)
    write_state(folder, {"about": "SHA-256 of each file as tools/study.py handed it out; a file whose hash "
                                  "differs was edited and is never overwritten", "files": handed})
    return report


def print_report(report: dict[str, list[str]], folder: Path) -> None:
    where = short(folder)
    for key, verb in [("new", "handed out"), ("updated", "updated (you had not edited it)"),
                      ("fresh", "fresh copy")]:
        if report[key]:
            print(f"{verb}: {', '.join(report[key])}")
    if report["backups"]:
        print(f"your previous version kept as: {', '.join(f'{where}/{b}' for b in report['backups'])}")
    kept = report["kept"] + report["kept-outdated"]
    if kept:
        print(f"kept your edited copy of: {', '.join(kept)}")
        if report["kept-outdated"]:
            print(f"  (the course has a newer version of {', '.join(report['kept-outdated'])})")
        example = Path(kept[0]).stem
        print(f"  for a fresh copy: make study FRESH={example} (yours is kept as a dated backup in {where}/)")
    print(f"study folder: {where}/ ({len(report['new'] + report['updated'] + report['fresh'] + report['same'] + kept)}"
          " files); check your work: make check NB=01_metrics")


def build(root: Path, notebooks: Path, folder: Path, fresh: list[str] = ()) -> dict[str, list[str]]:
    course = grading.Course(root, notebooks)
    names = grading.find_assignments(course.notebooks)
    if not names:
        raise SystemExit(f"no notebook with exercises in {course.notebooks}")
    files = release_files(course, names)
    report = hand_out(files, folder, resolve_names(list(fresh), list(files)))
    print_report(report, folder)
    return report


# --------------------------------------------------------------------------- check

def exercise_titles(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """test grade_id -> the exercise's title (``Exercise 1``) from the markdown before it."""
    titles, last = {}, None
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            found = re.findall(r"\*\*(Exercise \d+)\b[^*]*\*\*", cell.source)
            if found:
                last = found[-1]
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade") and not meta.get("solution"):
            titles[meta["grade_id"]] = last or meta["grade_id"]
    return titles


def resolve_assignment(name: str, notebooks: Path) -> str:
    names = grading.find_assignments(notebooks)
    stem = Path(name).stem
    matches = [n for n in names if n == stem] or [n for n in names if n.startswith(stem + "_")]
    if len(matches) != 1:
        raise SystemExit(f"NB={name}: choose one of {', '.join(names)}")
    return matches[0]


def check(name: str, file: Path | None, root: Path, notebooks: Path, study: Path,
          sandboxed: bool | None = None, student_timeout: float = 900) -> int:
    """Grade one copy of a notebook; print per exercise passed / failed and the score. 0 when it ran.

    ``root`` is the folder in which this run makes its own temporary course folder.
    """
    root.mkdir(parents=True, exist_ok=True)
    own = Path(tempfile.mkdtemp(prefix="check-", dir=root))
    try:
        return check_in(name, file, own, notebooks, study, sandboxed, student_timeout)
    finally:
        shutil.rmtree(own, ignore_errors=True)


def check_in(name: str, file: Path | None, root: Path, notebooks: Path, study: Path,
             sandboxed: bool | None, student_timeout: float) -> int:
    """check() in the course folder ``root``, which no other run uses."""
    course = grading.Course(root, notebooks)
    name = resolve_assignment(name, course.notebooks)
    path = file or study / f"{name}.ipynb"
    if not path.is_file():
        hint = "run `make study` first" if file is None else "give the path of your notebook"
        print(f"no notebook {short(path)}: {hint}", file=sys.stderr)
        return 1
    if sandboxed is None:
        sandboxed = grading.sandbox.available() is None   # no bubblewrap: it is the student's own code
    settings = grading.Settings(sandboxed=sandboxed, student_timeout=student_timeout)
    print(f"{name}: checking {short(path)} with every test, hidden ones included "
          "(your answers and the cells they need: under a minute) ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="check-") as tmp:
        submissions = Path(tmp)
        shutil.copyfile(path, submissions / f"{STUDENT}.ipynb")   # graded from a copy taken now
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                results = grading.grade(course, name, submissions, settings, course.root / "grades.csv", jobs=1)
        except SystemExit as exc:
            text = log.getvalue().strip()
            reason = str(exc.code) if exc.code not in (None, 0) else ""
            print(re.sub(r"^cannot grade ", "cannot check ", reason) or text or "the check failed", file=sys.stderr)
            return 1
    result = results[0]
    plan = grading.make_plan(course, name)
    titles = exercise_titles(nbformat.read(course.source(name), as_version=4))
    width = max(len(titles.get(q, q)) for q in plan.questions)
    for question in plan.questions:
        score = result.scores.get(question) or 0.0
        points = plan.points[question]
        passed = score == points and points > 0
        print(f"  {titles.get(question, question).ljust(width)}  {'passed' if passed else 'FAILED'}  "
              f"{score:g} / {points:g}")
        if not passed:
            message = result.feedback.get(question) or "not tested (see the note below)"
            for line in message.strip().splitlines()[:12]:
                print(f"      {line}")
    total, maximum = result.scored, plan.maximum
    if result.note:
        print(f"note: {result.note}")
    for flag in result.flags:   # the teacher's "flag": to a student alone, what to change
        print(f"warning: {flag} (a teacher's grading gives 0 points to every exercise tested after this)")
    print(f"score: {total:g} / {maximum:g}" + ("" if result.status == "graded" else f" ({result.status})"))
    return 0


# --------------------------------------------------------------------------- CLI

def main(argv: list[str] | None = None) -> int:
    parser, commands, common = grading.command_parser(__doc__, {
        "--notebooks": (REPO / "notebooks", "folder of the instructor notebooks"),
        "--study": (REPO / "study", "the student's folder")})
    bui = commands.add_parser("build", parents=[common], help="hand out the student versions into the study folder")
    bui.add_argument("--root", type=Path, default=REPO / "build",
                     help="build folder of the release (default: %(default)s)")
    bui.add_argument("--fresh", nargs="*", default=[], metavar="NAME",
                     help="hand out a fresh copy of these files (01_metrics, glossary, all); the old one is "
                          "kept as a dated backup")
    che = commands.add_parser("check", parents=[common], help="run every test, hidden ones included, on your copy")
    che.add_argument("name", nargs="?", metavar="NAME", help="the notebook, e.g. 01_metrics (or 01)")
    che.add_argument("--file", type=Path, metavar="PATH", help="the notebook to check (default: STUDY/NAME.ipynb)")
    che.add_argument("--root", type=Path, default=REPO / "build",
                     help="where each check makes its own temporary course folder (default: %(default)s)")
    che.add_argument("--no-sandbox", action="store_true", help="run without bubblewrap even where it works")
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.root, args.notebooks, args.study, args.fresh)
        return 0
    if not args.name:
        names = grading.find_assignments(args.notebooks.resolve())
        print(f"which notebook? make check NB=NAME with NAME one of {', '.join(names)}", file=sys.stderr)
        return 1
    return check(args.name, args.file, args.root, args.notebooks, args.study,
                 sandboxed=False if args.no_sandbox else None)


if __name__ == "__main__":
    sys.exit(main())
