"""notebooks/glossary.md: every term is taught where the glossary says, and every notebook links it."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "notebooks" / "glossary.md"
ROW = re.compile(r"^\|\s*(?P<term>[^|]+?)\s*\|\s*(?P<also>[^|]*?)\s*\|\s*(?P<definition>[^|]+?)\s*\|\s*"
                 r"\[(?P<nb>\d\d) §(?P<section>\d+)\]\((?P<file>[\w.]+)(?:#(?P<anchor>[^\s|]+))?\)\s*\|$")


def rows():
    lines = [line for line in GLOSSARY.read_text().splitlines() if line.startswith("| ") and "§" in line]
    parsed = [ROW.match(line) for line in lines]
    assert all(parsed), [line for line, match in zip(lines, parsed) if not match]
    return [match.groupdict() for match in parsed]


def sections(notebook: Path) -> dict[str, str]:
    """Section number -> the text of that section (markdown and code) of an executed notebook."""
    cells = json.loads(notebook.read_text())["cells"]
    text, found, current = "", {}, None
    for cell in cells:
        source = "".join(cell["source"])
        heading = re.match(r"## (\d+)\. ", source)
        if heading or source.startswith("## "):
            current = heading.group(1) if heading else None
        if current:
            found[current] = found.get(current, "") + "\n" + source
    return found


ROWS = rows()


def test_glossary_covers_every_notebook():
    assert {row["nb"] for row in ROWS} == {"01", "02", "03", "04", "05", "06"}
    terms = [row["term"].lower() for row in ROWS]
    assert len(terms) == len(set(terms)), "a term is listed twice"


@pytest.mark.parametrize("row", ROWS, ids=[row["term"] for row in ROWS])
def test_term_is_taught_in_the_section_named(row):
    notebook = ROOT / "notebooks" / row["file"]
    assert notebook.exists(), f"{row['file']} does not exist"
    assert row["file"].startswith(row["nb"] + "_"), "the link and the notebook number disagree"
    text = sections(notebook)
    assert row["section"] in text, f"{row['file']} has no section {row['section']}"
    term = row["term"].lower()
    assert term in text[row["section"]].lower(), f"'{row['term']}' does not appear in {row['file']} §{row['section']}"
    # review N4: the link opened the notebook at its top; it lands on the section's heading (its anchor as
    # JupyterLab names it; tests/test_links.py checks that the heading exists)
    assert (row["anchor"] or "").startswith(f"{row['section']}.-"), \
        f"'{row['term']}': link to {row['file']}#<the heading of §{row['section']}>, not to the notebook's top"


@pytest.mark.parametrize("notebook", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_every_notebook_links_the_glossary_in_its_introduction(notebook):
    first = "".join(json.loads(notebook.read_text())["cells"][0]["source"])
    assert "(glossary.md)" in first, f"{notebook.name}: link the glossary in the introduction"
