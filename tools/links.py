"""Relative links between the course's files, followed the way JupyterLab follows them.

The notebooks link to each other (``02_roc_by_hand.ipynb``) and to the
glossary (``glossary.md``), possibly with an anchor (``01_metrics.ipynb#4.-Recall``).
Every version a person opens (instructor notebooks, student release, study
folder, lecture versions, slides) must keep those links working, so the tools
that build a version copy the files the notebooks link to (``companions``) and
the tests check every link with ``broken_links``.

Markdown is rendered with nbconvert's mistune renderer (so links inside code
spans or math are not links). A heading's anchor is computed as JupyterLab
does (``createHeaderId`` in @jupyterlab/rendermime): the heading's rendered
text with every space replaced by ``-``; nbconvert's HTML export uses the same
ids.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

NOTEBOOK_SUFFIXES = {".ipynb"}
DOCUMENT_SUFFIXES = {".ipynb", ".md"}  # files whose anchors are headings JupyterLab renders
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _Collector(HTMLParser):
    """The links (a href, img src) and heading texts of an HTML fragment."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.headings: list[str] = []
        self.ids: set[str] = set()
        self._heading: list[str] | None = None
        self._skip = 0  # inside an anchor-link (the pilcrow nbconvert adds to headings)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag in HEADINGS:
            self._heading = []
        if tag == "a":
            if "anchor-link" in (attrs.get("class") or "").split():
                self._skip += 1
            elif attrs.get("href") is not None:
                self.links.append(attrs["href"])
        elif tag == "img" and attrs.get("src") is not None:
            self.links.append(attrs["src"])

    def handle_endtag(self, tag):
        if tag == "a" and self._skip:
            self._skip -= 1
        if tag in HEADINGS and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data):
        if self._heading is not None and not self._skip:
            self._heading.append(data)


def markdown_html(text: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    return markdown2html_mistune(text)


def _collect(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector


def heading_id(text: str) -> str:
    """JupyterLab's id of a heading whose rendered text is ``text``."""
    return text.replace(" ", "-")


def github_heading_id(text: str) -> str:
    """GitHub's anchor of a heading in a rendered Markdown file (README.md, docs/): lower case, punctuation
    other than ``-`` and ``_`` dropped, each space a ``-``."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def markdown_sources(path: Path) -> list[str]:
    """The markdown of a document: a notebook's markdown cells, or a markdown file."""
    if path.suffix == ".ipynb":
        notebook = json.loads(path.read_text(encoding="utf-8"))
        sources = []
        for cell in notebook.get("cells", []):
            if cell.get("cell_type") == "markdown":
                source = cell.get("source", "")
                sources.append("".join(source) if isinstance(source, list) else source)
        return sources
    return [path.read_text(encoding="utf-8")]


def document_links(path: Path) -> list[str]:
    """Every link (href or src) of a notebook's markdown cells, a markdown file or an HTML page."""
    if path.suffix in (".html", ".htm"):
        return _collect(path.read_text(encoding="utf-8")).links
    return [link for source in markdown_sources(path) for link in _collect(markdown_html(source)).links]


def anchors(path: Path, name=heading_id) -> set[str]:
    """The anchors a link ``path#anchor`` can point to (headings named by ``name``: as JupyterLab names them,
    or :func:`github_heading_id`)."""
    if path.suffix in (".html", ".htm"):
        return _collect(path.read_text(encoding="utf-8")).ids
    return {name(text) for source in markdown_sources(path)
            for text in _collect(markdown_html(source)).headings}


def is_relative(link: str) -> bool:
    """A link to a file next to the document (no scheme such as https:, mailto: or attachment:, no host)."""
    parts = urlsplit(link)
    return not parts.scheme and not parts.netloc and not link.startswith("//")


def split(link: str) -> tuple[str, str]:
    """(path, anchor) of a relative link, both URL-decoded."""
    parts = urlsplit(link)
    return unquote(parts.path), unquote(parts.fragment)


def relative_links(path: Path) -> list[str]:
    return [link for link in document_links(path) if is_relative(link)]


def broken_links(files: list[Path], name=heading_id) -> tuple[list[str], int]:
    """Follow every relative link of ``files``: (problems, number of links followed).

    A link's target must exist; an anchor must be a heading of the target
    when the target is a notebook or a markdown file (HTML targets, such as
    the slide decks, are only checked to exist), its id made by ``name``.
    """
    problems, followed = [], 0
    cache: dict[Path, set[str]] = {}
    for document in files:
        for link in relative_links(document):
            followed += 1
            target_path, anchor = split(link)
            target = (document.parent / target_path).resolve() if target_path else document.resolve()
            if not target.exists():
                problems.append(f"{document}: link {link!r}: {target_path} does not exist")
                continue
            if anchor and target.suffix in DOCUMENT_SUFFIXES:
                if target not in cache:
                    cache[target] = anchors(target, name)
                if anchor not in cache[target]:
                    problems.append(f"{document}: link {link!r}: no heading with the anchor #{anchor} in "
                                    f"{target.name}")
    return problems, followed


def companions(folder: Path) -> list[Path]:
    """Files in ``folder`` other than notebooks that its notebooks link to, directly or through each other
    (the glossary...), relative to ``folder``: what must be copied next to the notebooks."""
    folder = folder.resolve()
    seen: set[Path] = set()
    todo = sorted(folder.glob("*.ipynb"))
    found: list[Path] = []
    while todo:
        document = todo.pop(0)
        if document in seen:
            continue
        seen.add(document)
        for link in relative_links(document):
            target_path, _ = split(link)
            if not target_path:
                continue
            target = (document.parent / target_path).resolve()
            if not target.is_file() or folder not in target.parents or target.suffix in NOTEBOOK_SUFFIXES:
                continue
            relative = target.relative_to(folder)
            if relative not in found:
                found.append(relative)
                if target.suffix == ".md":
                    todo.append(target)
    return sorted(found)
