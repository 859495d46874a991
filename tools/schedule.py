"""How long each notebook takes (notebooks/schedule.toml), and the sentences that state it.

    .venv/bin/python tools/schedule.py        # prints the table (as in the README)

notebooks/schedule.toml is the one source of truth: ``teaching`` minutes (the
lecture up to the Practice section, or reading and running alone; the speaker
notes' section times add up to it) and ``exercises`` minutes. The sentences
below are what the notebooks' first cells, the speaker notes' headers and the
student hand-out's README say; tests/test_docs.py checks that every place
agrees with the file.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

SCHEDULE = Path(__file__).resolve().parent.parent / "notebooks" / "schedule.toml"


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
    return (f"Time: {time.teaching} min of teaching (the sections' times below add up to it), "
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


if __name__ == "__main__":
    print(table(load()))
    sys.exit(0)
