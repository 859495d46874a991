"""Speaker notes: each header states the lecture's length, and its sections' times add up to it.

The length is read from the header line ``Lecture length: N min`` and the times from each section's
``Time: N min`` (tools/publishing/lecture.py reads the same blocks), so a shared schedule can later write
either side and this test keeps them in agreement.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTES = sorted((ROOT / "notebooks" / "speaker_notes").glob("[0-9][0-9]_*.md"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import lecture  # noqa: E402

del sys.path[:2]
LENGTH = re.compile(r"^Lecture length: (\d+) min\b", re.MULTILINE)


def stated_length(text: str) -> int:
    """The lecture length the header (before the first section) states."""
    header = text.split("\n## ", 1)[0]
    found = LENGTH.findall(header)
    if len(found) != 1:
        raise ValueError(f"the header should state the lecture length once ('Lecture length: N min'); found {found}")
    return int(found[0])


def test_the_header_parser_refuses_a_missing_or_double_length():
    assert stated_length("# Speaker notes: x\n\nLecture length: 42 min (...)\n\n## 1. A\nTime: 42 min\n") == 42
    for bad in ["# Speaker notes: x\n\n## 1. A\nLecture length: 5 min\n",
                "# x\nLecture length: 5 min\nLecture length: 6 min\n"]:
        with pytest.raises(ValueError, match="state the lecture length once"):
            stated_length(bad)


def test_every_notebook_has_speaker_notes():
    assert [path.stem for path in NOTES] == sorted(p.stem for p in (ROOT / "notebooks" / "py").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("path", NOTES, ids=lambda p: p.stem)
def test_the_sections_times_add_up_to_the_stated_lecture_length(path):
    length = stated_length(path.read_text(encoding="utf-8"))
    times = {heading: int(fields["Time"].split()[0]) for heading, fields in lecture.read_speaker_notes(path).items()}
    assert sum(times.values()) == length, (f"{path.name}: the header says {length} min, the sections' times add up "
                                           f"to {sum(times.values())} min: {times}")
    assert 30 <= length <= 120, f"{path.name}: a lecture of {length} min"


SLOW_ENOUGH = 20  # seconds a stop needs at least, on a first class, unless the notes say how it is skimmed


def stops_per_block(path: Path) -> dict[str, int]:
    """The live slideshow's stops (slides and sub-slides of the lecture version) under each notes block: the part
    before section 1 (lecture.INTRO), then each section."""
    import nbformat

    version = lecture.lecture_version(nbformat.read(path, as_version=4), lecture.speaker_notes(path), path.name)
    counts, block = {}, None
    for cell in version.cells:
        if lecture.kind(cell) == "notes":
            block = cell.source.split("**Speaker notes: ", 1)[1].split("**", 1)[0]
            counts[block] = 0
        elif lecture.kind(cell) in ("slide", "subslide") and block is not None and cell.id != "lecture-end":
            counts[block] += 1
    return counts


@pytest.mark.parametrize("path", NOTES, ids=lambda p: p.stem)
def test_the_part_before_section_1_is_timed_and_short_sections_say_how_they_are_skimmed(path):
    """The notes have a block for the part before section 1 with its minutes; a block whose minutes give its stops
    less than SLOW_ENOUGH seconds each says how it is skimmed (a ``Pace: skimmed...`` line)."""
    notes = lecture.read_speaker_notes(path)
    assert lecture.INTRO in notes, f"{path.name}: no block '## {lecture.INTRO}' with the part before section 1's time"
    stops = stops_per_block(ROOT / "notebooks" / f"{path.stem}.ipynb")
    assert set(stops) == set(notes), f"{path.name}: blocks {sorted(notes)} against the notebook's {sorted(stops)}"
    rushed = {heading: round(int(fields["Time"].split()[0]) * 60 / stops[heading])
              for heading, fields in notes.items() if stops[heading]
              and int(fields["Time"].split()[0]) * 60 / stops[heading] < SLOW_ENOUGH
              and not fields.get(lecture.PACE, "").startswith("skimmed")}
    assert not rushed, f"{path.name}: seconds a stop, with no 'Pace: skimmed ...' line saying how: {rushed}"


def test_02_comparing_two_classifiers_has_time_for_its_stops():
    """The issue's case: 02 §13 (McNemar, DeLong, paired bootstrap) had 5 minutes for 20 stops."""
    path = ROOT / "notebooks" / "02_roc_by_hand.ipynb"
    heading = "13. Comparing two classifiers"
    minutes = int(lecture.speaker_notes(path)[heading]["Time"].split()[0])
    assert minutes * 60 / stops_per_block(path)[heading] >= 30, f"02 §13: {minutes} min"
