"""How long each notebook takes (notebooks/schedule.toml), and the sentences that state it.

    .venv/bin/python tools/schedule.py            # prints the table (as in the README)
    .venv/bin/python tools/schedule.py --write    # after changing a time: writes it where the course states it

notebooks/schedule.toml is the one source of truth: ``teaching`` minutes (the
lecture up to the Practice section, or reading and running alone; the speaker
notes' section times add up to it) and ``exercises`` minutes. The sentences
below are what the notebooks' first cells, the speaker notes' headers and the
student hand-out's README say; tests/test_docs.py checks that every place
agrees with the file.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import NamedTuple

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SCHEDULE = NOTEBOOKS / "schedule.toml"
OPTIONAL = 'Sections marked "(optional)" are deep-dives you can skip on a first pass.'


class Time(NamedTuple):
    teaching: int
    exercises: int


def load(path: Path = SCHEDULE) -> dict[str, Time]:
    """notebook stem -> its Time, in the file's order; a ValueError names a missing or bad entry."""
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    times = {}
    for name, entry in table.items():
        if not isinstance(entry, dict) or set(entry) != {"teaching", "exercises"}:
            raise ValueError(f"{path.name}: [{name}] must have exactly the keys teaching and exercises")
        if not all(isinstance(entry[k], int) and entry[k] > 0 for k in entry):
            raise ValueError(f"{path.name}: [{name}]: the minutes must be positive whole numbers")
        times[name] = Time(entry["teaching"], entry["exercises"])
    return times


def notebook_line(time: Time) -> str:
    """The time paragraph's first sentence in a notebook's first cell."""
    return (f"**Time**: about {time.teaching} minutes of teaching (alone: reading and running), "
            f"and {time.exercises} minutes for the exercises.")


def notes_line(time: Time) -> str:
    """The line of a speaker notes file's header."""
    return (f"Lecture length: {time.teaching} min of teaching (the sections' `Time:` lines below add up to it), "
            f"then {time.exercises} min of exercises.")


def hours(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d}"


def table(times: dict[str, Time]) -> str:
    """The Markdown table of times (the README's)."""
    rows = ["| notebook | teaching | exercises |", "|---|---:|---:|"]
    rows += [f"| `{name}` | {t.teaching} min | {t.exercises} min |" for name, t in times.items()]
    teaching = sum(t.teaching for t in times.values())
    exercises = sum(t.exercises for t in times.values())
    rows.append(f"| all six | {hours(teaching)} | {hours(exercises)} |")
    return "\n".join(rows)


def section_minutes(notes: str) -> list[int]:
    """The minutes of each section of a speaker notes file (its ``Time: N min`` lines)."""
    return [int(m) for m in re.findall(r"^Time: (\d+) min$", notes, re.MULTILINE)]


def write_twin(path: Path, time: Time) -> bool:
    """Put the time paragraph into the first cell of a py:percent twin (the paragraph that gives minutes);
    return whether the file changed."""
    lines = path.read_text(encoding="utf-8").split("\n")
    end = next(i for i in range(1, len(lines)) if lines[i].startswith("# %%"))
    paragraphs, start = [], 1
    for i in range(1, end + 1):
        if i == end or lines[i].rstrip() == "#" or not lines[i].startswith("#"):
            if i > start:
                paragraphs.append((start, i))
            start = i + 1
    found = [(a, b) for a, b in paragraphs if "minutes" in " ".join(lines[a:b])]
    if not found:
        raise ValueError(f"{path.name}: no paragraph of the first cell gives the minutes")
    a, b = found[0]
    text = notebook_line(time) + " " + OPTIONAL
    new = ["# " + line for line in textwrap.wrap(text, width=86, break_on_hyphens=False)]
    changed = lines[a:b] != new
    lines[a:b] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    return changed


def write_notebook_intro(notebook: Path, twin: Path) -> None:
    """The executed notebook's first cell takes its twin's source (only that cell's source changes)."""
    import nbformat
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import execute  # tools/execute.py
    finally:
        sys.path.pop(0)
    executed = nbformat.read(notebook, as_version=4)
    executed.cells[0].source = execute.build(twin).cells[0].source
    nbformat.write(executed, notebook)


def write_notes(path: Path, time: Time) -> None:
    """Put the header line into a speaker notes file (after its title)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\nLecture length: \d+ min[^\n]*\n", "\n", text, count=1)
    title, rest = text.split("\n", 1)
    path.write_text(f"{title}\n\n{notes_line(time)}\n\n{rest.lstrip(chr(10))}", encoding="utf-8")


def write(times: dict[str, Time], notebooks: Path = NOTEBOOKS) -> None:
    for name, time in times.items():
        twin = notebooks / "py" / f"{name}.py"
        write_twin(twin, time)
        write_notebook_intro(notebooks / f"{name}.ipynb", twin)
        write_notes(notebooks / "speaker_notes" / f"{name}.md", time)
        sections = sum(section_minutes((notebooks / "speaker_notes" / f"{name}.md").read_text(encoding="utf-8")))
        if sections != time.teaching:
            print(f"{name}: the speaker notes' sections add up to {sections} min, not {time.teaching}: "
                  "change their Time: lines", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the times into the notebooks' first cells "
                        "(twin and .ipynb) and the speaker notes' headers")
    args = parser.parse_args(argv)
    times = load()
    if args.write:
        write(times)
    print(table(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
