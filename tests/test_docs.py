"""The documents a newcomer reads: licences, citation, the README's promises."""

from __future__ import annotations

import json
import re
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
    assert [path for _, path in images] == ["docs/img/jupyterlab-slider.png", "docs/img/deck-slide.png"]
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
