"""The teacher's grade summary that `make grade` writes next to grades.csv (build/grades-NAME.html).

A made-up class of four is summarised: the figure's text alternative states how
many students got each score (counted by hand here), student names with HTML's
special characters are escaped, the page's table holds exactly the CSV's rows,
the counts of statuses, flags, notes and scores to give are right, and the bars
are drawn in a colour with at least 3:1 contrast against the white background.
tests/test_accessibility.py audits the page with axe-core.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import grading  # noqa: E402  (tools/grading/)

EVE = "<Eve & \"Co\">"


def small_class():
    """Two tested questions (max 2 and 1) and one graded by hand (max 3), four students."""
    plan = grading.Plan(name="01_metrics", questions=["q1", "q2"], points={"q1": 2.0, "q2": 1.0, "m1": 3.0},
                        manual=["m1"], answer_ids=[], test_ids={"q1", "q2"}, steps=[], question_answer={})
    results = [
        grading.Result("ada", "graded", {"q1": 2.0, "q2": 1.0, "m1": 3.0}),
        grading.Result("bob", "graded", {"q1": 2.0, "q2": 0.0, "m1": None}, flags=["patched pytest"]),
        grading.Result(EVE, "graded", {"q1": 0.0, "q2": 1.0, "m1": 1.0}),
        grading.Result("dan", "crashed", {"q1": 2.0, "q2": 0.0, "m1": 0.0}, note="os._exit in cell 4"),
    ]
    return plan, results


class Tables(HTMLParser):
    """The text of every table row's cells, and every image's attributes."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self.images: list[dict] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self.cell = []
        elif tag == "img":
            self.images.append(dict(attrs))

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.rows[-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def parsed(page: str) -> Tables:
    tables = Tables()
    tables.feed(page)
    return tables


def test_the_text_alternative_counts_each_score():
    plan, results = small_class()
    assert grading.distribution_summary(plan, results) == (
        "Bar charts of the score distribution of 4 submissions of 01_metrics, one per question and one for the "
        "total: q1 (max 2): 3 students scored 2, 1 scored 0; q2 (max 1): 2 students scored 1, 2 scored 0; "
        "m1 (max 3): 1 student scored 3, 1 scored 1, 1 scored 0; total (max 6): 1 student scored 6, 3 scored 2.")


def test_the_total_is_the_tables_after_late_penalties():
    plan, results = small_class()
    results[0].late, results[0].penalty = "2 days", 1.5
    rows = grading.table(results, plan, late=True)
    assert "total (max 6): 1 student scored 4.5, 3 scored 2." in grading.distribution_summary(plan, results)
    # with one student re-graded, the class's distribution comes from the table's rows: the same counts
    assert (grading.distribution_summary(plan, grading.results_of(rows, plan))
            == grading.distribution_summary(plan, results))


def test_a_question_nobody_has_a_score_for_says_so():
    plan, results = small_class()
    for r in results:
        r.scores["m1"] = None
    summary = grading.distribution_summary(plan, results[:1])
    assert "of 1 submission of 01_metrics" in summary
    assert "m1 (max 3): no score given yet" in summary and "total (max 6): 1 student scored 3." in summary


def test_the_page_holds_the_csv_rows_escaped(tmp_path):
    plan, results = small_class()
    rows = grading.table(results, plan)
    grading.write_files_atomically({tmp_path / "grades.csv": rows})
    with (tmp_path / "grades.csv").open(newline="") as handle:
        written = list(csv.reader(handle))
    page = grading.summary_page(plan, rows, results)

    assert parsed(page).rows == written
    assert [row[0] for row in written[1:]] == sorted(["ada", "bob", "dan", EVE])
    assert "&lt;Eve &amp; &quot;Co&quot;&gt;" in page and EVE not in page
    assert '<th scope="row">&lt;Eve' in page and page.count('<th scope="col">') == len(written[0])


def test_the_page_embeds_the_figure_with_its_description():
    plan, results = small_class()
    page = grading.summary_page(plan, grading.table(results, plan), results)
    [image] = parsed(page).images
    assert image["alt"] == grading.distribution_summary(plan, results)   # unescaped by the parser
    assert "3 students scored 2, 1 scored 0" in image["alt"]
    png = base64.b64decode(image["src"].removeprefix("data:image/png;base64,"))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def items(page: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", item)) for item in re.findall(r"<li>(.*?)</li>", page)]


def test_the_page_counts_statuses_flags_notes_and_scores_to_give():
    plan, results = small_class()
    page = grading.summary_page(plan, grading.table(results, plan), results)
    assert "<p>4 submissions." in page
    said = items(page)
    assert said[:2] == ["3 graded", "1 crashed: the notebook's process died: the questions not yet tested score 0"]
    assert said[2].startswith("1 flagged") and said[3] == "1 with a note"
    assert said[4].startswith("1 with a score still to give by hand") and len(said) == 5

    results[0].late, results[0].penalty = "2 days", 1.0
    results[2].late = "1 hour"
    assert items(grading.summary_page(plan, grading.table(results, plan, late=True), results))[5] == "2 handed in late"


def luminance(colour: str) -> float:
    channels = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def test_the_bars_reach_3_to_1_against_white():
    import matplotlib.image

    assert luminance("#767676") == pytest.approx(0.1812, abs=1e-3)   # the measure: WCAG's 4.54:1 grey
    assert (1.05) / (luminance(grading.BAR_COLOUR) + 0.05) >= 3.0
    plan, results = small_class()
    pixels = matplotlib.image.imread(io.BytesIO(grading.distribution_png(plan, results)))[..., :3]
    bar = np.array([int(grading.BAR_COLOUR[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    assert (np.abs(pixels - bar).max(axis=-1) < 2 / 255).sum() > 1000   # the bars are drawn in it


def test_plot_distribution_writes_the_same_png(tmp_path):
    plan, results = small_class()
    grading.plot_distribution(plan, results, tmp_path / "grades-01_metrics.png")
    written = (tmp_path / "grades-01_metrics.png").read_bytes()
    assert written.startswith(b"\x89PNG") and b"3 students scored 2" in written   # its Description
