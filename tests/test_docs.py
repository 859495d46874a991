"""The documents a newcomer reads: licences, citation, the README's promises."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import links  # noqa: E402  (tools/links.py)

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
