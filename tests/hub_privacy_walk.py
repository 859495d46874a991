"""Walk the whole file system as the user running this and list every readable file that holds a secret.

    python tests/hub_privacy_walk.py NEEDLES.json|- [--other-uids UID,UID] [--limit-mb 5]

tests/test_hub.py runs it as a student of the hub's class (``runuser``): every regular file the
user can read (outside /proc, /sys, /dev, /run) is checked: by its name and owner, and the content
of every text file a person could have written or copied (notebooks, Python, Markdown, text, JSON,
HTML, CSV, SQLite, logs, backups, files without a suffix; up to ``--limit-mb``; not inside installed
third-party packages, site-packages and node_modules): a solution region or a hidden test of the course
(NEEDLES.json: {"solution": [line, ...], "hidden test": [...]}, a distinctive line of each region
of the instructor notebooks, which test_hub.py reads; found as written or JSON-escaped, as in a
notebook file), nbgrader's gradebook (``gradebook.db``, or an SQLite file with its tables) or a
file owned by another student (``--other-uids``). nbgrader's own ``BEGIN SOLUTION`` examples in
its package are not the course's secrets, hence lines of the course's regions rather than the markers. A folder that is another checkout of the course (``.git``, ``helpers``,
``notebooks``) is listed apart and not entered: it is not the class's deployment (on a shared
development machine, other engineers' clones), and the test names it. Prints JSON:
``{"checked": N, "searched": N, "secrets": [[path, kind], ...], "checkouts": [path, ...]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile

PSEUDO = {"/proc", "/sys", "/dev", "/run"}
# what a solution, a hidden test or a gradebook can be copied into (read whole); other files by name only
TEXT = {".ipynb", ".py", ".md", ".txt", ".json", ".html", ".htm", ".csv", ".db", ".sqlite", ".sqlite3", ".log",
        ".bak", ".orig", ".old", ".tmp", ".swp", ".yaml", ".yml", ".cfg", ".toml", ".ini", ".sh", ".tex", ".r", ""}
PACKAGES = {"site-packages", "dist-packages", "node_modules", "__pycache__"}   # installed code, not people's files


def readable_files(limit: int) -> tuple[int, list[str], list[tuple[str, os.stat_result, bool]], list[str]]:
    """Walk everything the user can read: (files checked, text files to search, (path, stat, in an installed
    package) of every readable file, other checkouts of the course, not entered)."""
    checked, texts, files_seen, checkouts = 0, [], [], []
    for top, dirs, files in os.walk("/", onerror=lambda error: None):
        if top == "/":
            dirs[:] = [d for d in dirs if "/" + d not in PSEUDO]
        if {".git", "helpers", "notebooks"} <= set(dirs) | set(files) and top != "/":
            checkouts.append(top)
            dirs[:] = []
            continue
        packaged = not PACKAGES.isdisjoint(top.split(os.sep))
        for name in files:
            path = os.path.join(top, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or not os.access(path, os.R_OK):
                continue
            checked += 1
            files_seen.append((path, st, packaged))
            if not packaged and st.st_size <= limit and os.path.splitext(name)[1].lower() in TEXT:
                texts.append(path)
    return checked, texts, files_seen, checkouts


def containing(paths: list[str], needles: dict[str, list[str]]) -> list[list[str]]:
    """[path, kind] of each file holding a needle, as written or JSON-escaped (grep's fixed-string search,
    many needles at once), then its kind from the first needle found in it."""
    forms = {form: kind for kind, lines in needles.items() for line in lines
             for form in (line, json.dumps(line)[1:-1])}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
        handle.write("\n".join(forms) + "\n")
    try:
        found = subprocess.run(["xargs", "-0", "grep", "-lsF", "--null", "-f", handle.name, "--"],
                               input="\0".join(paths).encode(), capture_output=True).stdout
    finally:
        os.unlink(handle.name)
    hits = []
    for path in filter(None, found.decode(errors="replace").split("\0")):
        with open(path, "rb") as text:
            data = text.read()
        hits.append([path, next((kind for form, kind in forms.items() if form.encode() in data), "solution")])
    return hits


def walk(others: set[int], limit: int, needles: dict[str, list[str]]) -> dict:
    checked, texts, files_seen, checkouts = readable_files(limit)
    secrets = []
    for path, st, packaged in files_seen:
        if st.st_uid in others:
            secrets.append([path, "another student's file"])
        elif packaged:   # nbgrader's own test gradebook is in its package
            continue
        elif os.path.basename(path) == "gradebook.db":
            secrets.append([path, "gradebook"])
        elif path.endswith((".db", ".sqlite", ".sqlite3")) and st.st_size <= limit:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            if data.startswith(b"SQLite format 3") and b"submitted_assignment" in data:
                secrets.append([path, "gradebook"])
    secrets += containing(texts, needles)
    return {"checked": checked, "searched": len(texts), "secrets": secrets, "checkouts": checkouts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("needles", help="JSON file ('-': standard input): {kind: [distinctive line, ...]}")
    parser.add_argument("--other-uids", default="", help="uids of the other students, comma-separated")
    parser.add_argument("--limit-mb", type=float, default=5, help="largest file read whole (MB)")
    args = parser.parse_args()
    others = {int(uid) for uid in args.other_uids.split(",") if uid}
    if args.needles == "-":
        needles = json.load(sys.stdin)
    else:
        with open(args.needles, encoding="utf-8") as handle:
            needles = json.load(handle)
    print(json.dumps(walk(others, int(args.limit_mb * 1024**2), needles)))


if __name__ == "__main__":
    main()
