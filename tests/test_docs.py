"""The documents a newcomer reads: licences, citation, the README's promises."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import links  # noqa: E402  (tools/links.py)
import schedule  # noqa: E402  (tools/schedule.py)

README = ROOT / "README.md"


def readme_links() -> set[str]:
    return {links.split(link)[0] for link in links.relative_links(README)}


def test_licence_files_name_the_licences_the_citation_declares():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["license"] == ["BSD-3-Clause", "CC-BY-4.0"]
    code = (ROOT / "LICENSE").read_text(encoding="utf-8")
    content = (ROOT / "LICENSE-CONTENT").read_text(encoding="utf-8")
    assert code.startswith("BSD 3-Clause License")
    assert "Neither the name of the copyright holder" in code   # the third clause, the one BSD-2 lacks
    assert content.startswith("Creative Commons Attribution 4.0 International (CC BY 4.0)")
    assert "https://creativecommons.org/licenses/by/4.0/legalcode" in content
    # each file says where the other part of the course is licensed, and that the data keep theirs
    for text, other in ((code, "LICENSE-CONTENT"), (content, "LICENSE")):
        assert f"(see {other})" in text and "data/README.md" in text
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert citation["version"] == version, "CITATION.cff's version is the package's (pyproject.toml)"


def test_readme_links_the_licences_the_citation_and_the_datasets_licences():
    linked = readme_links()
    for name in ("LICENSE", "LICENSE-CONTENT", "CITATION.cff", "data/README.md"):
        assert name in linked, f"README.md does not link {name}"
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    text = README.read_text(encoding="utf-8")
    assert citation["title"] in re.sub(r"\s*\n>\s*", " ", text).replace("*", ""), "the credit line cites the title"
    data = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    assert data.count("**License.** Creative Commons Attribution 4.0") == 2, "data/README.md: each dataset's licence"


# --------------------------------------------------------------------------- times (notebooks/schedule.toml)

TIMES = schedule.load()
COURSE = sorted(path.stem for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def first_cell(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "".join(cells[0]["source"])


def test_schedule_lists_every_notebook_once_in_order():
    assert list(TIMES) == COURSE


def test_speaker_notes_notebooks_and_readme_state_the_schedules_times():
    readme = " ".join(README.read_text(encoding="utf-8").split())
    disagree = []
    for name, time in TIMES.items():
        notes = (ROOT / "notebooks" / "speaker_notes" / f"{name}.md").read_text(encoding="utf-8")
        if sum(schedule.section_minutes(notes)) != time.teaching:
            disagree.append(f"speaker_notes/{name}.md: sections add up to {sum(schedule.section_minutes(notes))} "
                            f"min, the schedule says {time.teaching}")
        if schedule.notes_line(time) not in notes:
            disagree.append(f"speaker_notes/{name}.md: the header does not say {schedule.notes_line(time)!r}")
        if schedule.notebook_line(time) not in " ".join(first_cell(name).split()):
            disagree.append(f"{name}.ipynb: the first cell does not say {schedule.notebook_line(time)!r}")
        row = re.search(rf"\| \[?`{name}`\]?[^|]*\|[^|]*\| (\d+) min \| (\d+) min \|", readme)
        if not row or (int(row[1]), int(row[2])) != time:
            disagree.append(f"README.md: the row of {name} does not give {time.teaching} min | {time.exercises} min")
    total = (schedule.hours(sum(t.teaching for t in TIMES.values())),
             schedule.hours(sum(t.exercises for t in TIMES.values())))
    if f"| all six | | {total[0]} | {total[1]} |" not in readme:
        disagree.append(f"README.md: the total row does not give {total}")
    assert disagree == [], "run `.venv/bin/python tools/schedule.py --write`, then fix the rest:\n" + "\n".join(disagree)


def test_schedule_refuses_a_malformed_entry(tmp_path):
    bad = tmp_path / "schedule.toml"
    bad.write_text("[01_x]\nteaching = 60\n")
    with pytest.raises(ValueError, match=r"\[01_x\] must have exactly the keys teaching and exercises"):
        schedule.load(bad)
    bad.write_text("[01_x]\nteaching = 60\nexercises = 0\n")
    with pytest.raises(ValueError, match="positive whole numbers"):
        schedule.load(bad)


def test_readme_puts_the_course_first_and_operations_in_docs():
    """A newcomer reads what the course is, who it is for and sees it before any command; grading and the hub
    live in docs/, not in the README."""
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## The notebooks", "## Two commands", "## For lecturers, teachers and students", "## Layout",
                        "## Licence and how to cite"]
    before_commands = text[:text.index("## Two commands")]
    assert "Who it is for" in before_commands and "Prerequisites" in before_commands
    assert "make " not in text[:text.index("## The notebooks")], "no command before the course is described"
    images = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", before_commands)
    assert [path for _, path in images] == ["docs/img/jupyterlab-slider.png", "docs/img/deck-slide.png",
                                            "docs/img/site-explorer.png"]
    assert all(len(alt.split()) >= 15 for alt, _ in images), "each picture says in words what it shows"
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: details belong in docs/"
    for words in ("How grading protects itself", "The flag rules", "Zero to JupyterHub", "axe-core (WCAG"):
        assert words not in text, f"{words!r}: a detail of docs/, not of the README"


def test_writing_the_speaker_notes_header_twice_changes_nothing(tmp_path):
    """`tools/schedule.py --write` replaces the header line, keeps one blank line around it, and a second run
    leaves the file as the first left it."""
    notes = tmp_path / "01_metrics.md"
    notes.write_text("# Speaker notes: 01_metrics\n\nLecture length: 5 min (old)\n\nOne block per section.\n")
    time = TIMES["01_metrics"]
    schedule.write_notes(notes, time)
    once = notes.read_text()
    assert once == f"# Speaker notes: 01_metrics\n\n{schedule.notes_line(time)}\n\nOne block per section.\n"
    schedule.write_notes(notes, time)
    assert notes.read_text() == once


# --------------------------------------------------------------------------- the docs' commands, as written

from test_links import DOCS, code_texts  # noqa: E402  (every document a newcomer reads; its code blocks and spans)

MAKE = re.compile(r"(?:^|(?<=\s))((?:[A-Z_]+=\S+ )*make(?: [A-Za-z_-]+(?:=(?:\"[^\"]*\"|\S+))?)*)")
# Variables a documented command sets that the Makefile does not read itself: the program it starts does.
READ_BY_THE_PROGRAM = {"JUPYTER_PORT": "JupyterLab's port", "OMP_NUM_THREADS": "OpenMP's threads",
                       "OPENBLAS_NUM_THREADS": "OpenBLAS's threads"}


def documented(pattern: re.Pattern) -> list[tuple[str, str]]:
    """(document, command) for every match of ``pattern`` in the documents' code, each command once."""
    found = {}
    for path in DOCS:
        for code in code_texts(path):
            for line in code.splitlines():
                for match in pattern.finditer(line):
                    found.setdefault(match.group(1).strip(), path.relative_to(ROOT).as_posix())
    return sorted((where, command) for command, where in found.items())


def test_every_documented_make_command_is_one_make_understands():
    """`make -n` (print, run nothing) of each `make ...` the documents show, as written: a target that does not
    exist or a variable the Makefile never reads (a typo a newcomer cannot see) fails here."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    commands = documented(MAKE)
    assert len(commands) >= 30, commands
    problems = []
    for where, command in commands:
        words = command.split()
        variables = [w.split("=")[0] for w in words if "=" in w]
        unread = [v for v in variables if v not in READ_BY_THE_PROGRAM and not re.search(
            rf"\$\({v}\)|\$\(origin {v}\)|^{v} \?=|^export {v}$", makefile, re.MULTILINE)]
        if unread:
            problems.append(f"{where}: `{command}`: the Makefile never reads {', '.join(unread)}")
        args = [w.strip('"') for w in words[words.index("make") + 1:]]
        env = dict(v.split("=", 1) for v in words[:words.index("make")])
        result = subprocess.run(["make", "-n", "-C", str(ROOT), *args], capture_output=True, text=True,
                                env={**os.environ, **env}, timeout=60)
        if result.returncode != 0 or "No rule to make target" in result.stderr:
            problems.append(f"{where}: `{command}`: {result.stderr.strip()[-300:]}")
    assert problems == [], "\n".join(problems)


def clean_environment() -> dict:
    """A newcomer's shell: nothing activated, the course's .venv not on PATH."""
    venv = str(ROOT / ".venv")
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if not p.startswith(venv))
    return {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")} | {
        "PATH": path}


@pytest.mark.slow
def test_every_documented_script_exists_and_starts_from_the_clone_without_activating_anything():
    """Each `.venv/bin/TOOL` the documents name is one `make install` puts there, and each script run with
    `.venv/bin/python` exists and, where it takes options, answers `--help` from the clone's root with nothing
    activated (a bare `python` gave ModuleNotFoundError: nbformat)."""
    tools = documented(re.compile(r"(\.venv/bin/[\w-]+)"))
    missing = [f"{where}: {tool}" for where, tool in tools if not (ROOT / tool).is_file()]
    assert not missing, "not installed by make install:\n" + "\n".join(missing)
    scripts = {command.split()[1]: where for where, command in   # a script, or a package run as a folder
               documented(re.compile(r"(\.venv/bin/python [\w/]+?(?:\.py|(?=[\s`])))"))}
    assert {"tools/grading", "tools/schedule.py", "bench/run.py"} <= set(scripts), scripts
    absent = [f"{where}: {script}" for script, where in scripts.items()
              if not ((ROOT / script).is_file() or (ROOT / script / "__main__.py").is_file())]
    assert not absent, "the documents run scripts that do not exist:\n" + "\n".join(absent)
    with_options = [s for s in sorted(scripts) if (ROOT / s).is_dir()   # tools/grading: its parser is in cli.py
                    or "argparse" in (ROOT / s).read_text(encoding="utf-8")]
    runs = {s: subprocess.Popen([".venv/bin/python", s, "--help"], cwd=ROOT, env=clean_environment(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for s in with_options}
    failed = []
    for script, process in runs.items():
        output, _ = process.communicate(timeout=120)
        if process.returncode != 0 or "usage:" not in output:
            failed.append(f"{scripts[script]}: .venv/bin/python {script} --help: {output.strip()[-300:]}")
    assert len(runs) >= 4 and not failed, "\n".join(failed)
