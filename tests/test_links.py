"""Every relative link works in every version a person opens.

The versions: the instructor notebooks (notebooks/), the student release
(build/release/, tools/grading/), the student's study folder (study/,
tools/study.py), the lecture versions (build/lecture/, tools/publishing/lecture.py) and
the offline decks (build/slides/, tools/publishing/decks.py). Each is built once per
test session in a temporary folder; then every relative link of every
notebook's markdown cells, of the glossary and of the decks' ``<a href>`` is
followed: its target must exist, and an anchor (``#section``) must be a
heading of its target when the target is a notebook or a markdown file,
named as JupyterLab names headings (tools/links.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "publishing"))
import lecture  # noqa: E402
import links  # noqa: E402
import decks  # noqa: E402  (tools/publishing/decks.py: the offline decks)

COURSE = sorted(path.stem for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def documents(folder: Path, suffixes=(".ipynb", ".md")) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in suffixes and ".backup-" not in p.name)


# --------------------------------------------------------------------------- the link checker itself

def write_notebook(path: Path, *markdown: str) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(text) for text in markdown]
    nbformat.write(notebook, path)
    return path


def test_heading_anchors_are_named_as_jupyterlab_names_them():
    """JupyterLab's createHeaderId: the heading's rendered text, spaces replaced by '-'."""
    source = "# 01 · Metrics\n\n## 4. The metric zoo, **by hand** and `sklearn`\n\n### What does a mistake cost?"
    path_anchors = {links.heading_id(t) for t in links._collect(links.markdown_html(source)).headings}
    assert path_anchors == {"01-·-Metrics", "4.-The-metric-zoo,-by-hand-and-sklearn", "What-does-a-mistake-cost?"}


def test_the_rule_is_the_installed_jupyterlabs():
    """The pinned JupyterLab computes heading ids this way (if an upgrade changes it, this fails)."""
    static = ROOT / ".venv" / "share" / "jupyter" / "lab" / "static"
    bundles = [p for p in static.glob("*.js") if "createHeaderId" in p.read_text(encoding="utf-8", errors="ignore")]
    assert bundles, f"no JupyterLab bundle defining createHeaderId in {static}"
    text = bundles[0].read_text(encoding="utf-8", errors="ignore")
    assert 'createHeaderId=function(e){var t;return(null!=(t=e.textContent)?t:"").replace(/ /g,"-")}' in text


def test_checker_finds_missing_files_and_anchors(tmp_path):
    write_notebook(tmp_path / "01_a.ipynb", "# A\n\n## 2. Second part\n\nSee [the glossary](glossary.md#Terms).")
    (tmp_path / "glossary.md").write_text("# Glossary\n\n## Terms\n\n[part two](01_a.ipynb#2.-Second-part)\n")
    good = [tmp_path / "01_a.ipynb", tmp_path / "glossary.md"]
    assert links.broken_links(good) == ([], 2)

    write_notebook(tmp_path / "02_b.ipynb",
                   "Back to [A](01_a.ipynb), on to [C](03_c.ipynb), [a part](01_a.ipynb#No-such-part), "
                   "[here](#Title), [there](#Nowhere), [web](https://example.org/x.ipynb), "
                   "[mail](mailto:a@b.c), `[code](not_a_link.ipynb)`, [space](my%20file.md)",
                   "# Title")
    (tmp_path / "my file.md").write_text("# Spaces work\n")
    problems, followed = links.broken_links([tmp_path / "02_b.ipynb"])
    assert followed == 6  # the web, mail and code-span "links" are not followed
    assert len(problems) == 3, problems
    assert "03_c.ipynb does not exist" in problems[0]
    assert "no heading with the anchor #No-such-part in 01_a.ipynb" in problems[1]
    assert "#Nowhere in 02_b.ipynb" in problems[2]


def test_companions_are_the_files_the_notebooks_link_to(tmp_path):
    write_notebook(tmp_path / "01_a.ipynb", "[glossary](glossary.md), [B](02_b.ipynb), [web](https://x.org/y.md)")
    write_notebook(tmp_path / "02_b.ipynb", "# B")
    (tmp_path / "glossary.md").write_text("[a figure](figures/roc.png) [A](01_a.ipynb)\n")
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "roc.png").write_bytes(b"png")
    (tmp_path / "unlinked.md").write_text("nobody links here")
    assert links.companions(tmp_path) == [Path("figures/roc.png"), Path("glossary.md")]


def test_deck_links_point_to_decks_and_rendered_pages():
    assert decks.deck_link("01_metrics.ipynb") == "01_metrics.slides.html"
    assert decks.deck_link("02_roc_by_hand.ipynb#3.-ROC") == "02_roc_by_hand.slides.html#3.-ROC"
    assert decks.deck_link("glossary.md#Terms") == "glossary.html#Terms"
    for unchanged in ("https://example.org/a.ipynb", "#local", "figure.png", "vendor/x.css"):
        assert decks.deck_link(unchanged) == unchanged
    page = '<p><a href="01_metrics.ipynb">01</a> <a class="x" href=\'glossary.md\'>g</a></p><link href="a.css">'
    assert decks.retarget(page) == ('<p><a href="01_metrics.slides.html">01</a> '
                                     '<a class="x" href=\'glossary.html\'>g</a></p><link href="a.css">')


# --------------------------------------------------------------------------- every version of the course

@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """Each version, built once in a temporary folder: name -> folder."""
    tmp = tmp_path_factory.mktemp("versions")
    build = tmp / "build"
    for command in (["tools/grading", "release", "--root", str(build)],
                    ["tools/study.py", "build", "--root", str(build), "--study", str(tmp / "study")]):
        result = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stdout + result.stderr
    lecture_dir, slides_dir = tmp / "lecture", tmp / "slides"
    for name in COURSE:
        lecture.write_lecture(NOTEBOOKS / f"{name}.ipynb", lecture_dir)
        notebook = nbformat.read(lecture_dir / f"{name}.ipynb", as_version=4)
        slides_dir.mkdir(exist_ok=True)
        (slides_dir / f"{name}.slides.html").write_text(decks.deck(notebook), encoding="utf-8")
    lecture.write_companions(lecture_dir)
    decks.write_companions(slides_dir)
    return {"instructor": NOTEBOOKS, "release": build / "release", "study": tmp / "study",
            "lecture": lecture_dir, "slides": slides_dir}


@pytest.fixture(scope="session")
def instructor_links() -> int:
    problems, followed = links.broken_links(documents(NOTEBOOKS))
    return followed


@pytest.mark.slow
@pytest.mark.parametrize("version", ["instructor", "release", "study", "lecture"])
def test_every_link_works_in_the_notebook_versions(built, instructor_links, version):
    folder = built[version]
    files = [p for p in documents(folder) if p.name != "README.md"]
    assert sorted(p.stem for p in files if p.suffix == ".ipynb") == COURSE, "the six notebooks side by side"
    assert (folder / "glossary.md").is_file()
    problems, followed = links.broken_links(files)
    if version == "release":   # the hand-out's student README (tools/handout.py) links the notebooks too
        readme_problems, readme_links = links.broken_links([folder / "README.md"])
        problems += readme_problems
        assert readme_links >= len(COURSE) + 4, "the README links the notebooks, glossary, licences and data"
    assert problems == [], "\n".join(problems)
    # the same links as the instructor notebooks: none lost on the way (and there are links to follow)
    assert followed == instructor_links and followed >= 2 * len(COURSE)


@pytest.mark.slow
def test_every_link_works_between_the_decks(built, instructor_links):
    folder = built["slides"]
    decks = sorted(folder.glob("*.slides.html"))
    assert [d.name.removesuffix(".slides.html") for d in decks] == COURSE
    files = decks + [folder / "glossary.html"]
    problems, followed = links.broken_links(files)
    assert problems == [], "\n".join(problems)
    assert followed >= instructor_links
    for deck in decks:
        hrefs = links.relative_links(deck)
        assert not [h for h in hrefs if h.split("#")[0].endswith((".ipynb", ".md"))], deck.name
        assert "glossary.html" in hrefs, f"{deck.name} links to the glossary page"


@pytest.mark.slow
def test_study_folder_records_what_it_handed_out(built):
    state = json.loads((built["study"] / ".handed-out.json").read_text())
    assert sorted(state["files"]) == sorted([f"{name}.ipynb" for name in COURSE] + ["glossary.md"])
    for name in COURSE:
        assert (built["study"] / f"{name}.ipynb").read_bytes() == (built["release"] / f"{name}.ipynb").read_bytes()


# --------------------------------------------------------------------------- the documentation (rendered by GitHub)

DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
# A command in a code span or block that needs an activated environment: a bare python, pytest, jupyter... The
# docs write `.venv/bin/python` or a make target. nbgrader's commands in docs/hub.md run in a hub terminal,
# whose PATH starts with the course environment (hub/jupyterhub_config.py).
BARE = re.compile(r"(?:^|[;&(|`]|(?<!-m)(?<!conda run -n model-evaluation)\s)"
                  r"(python3?|pytest|jupyter|pip|mutmut|jupyterhub|nbgrader)(?= )")


def code_texts(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    return blocks + spans


def test_github_heading_ids():
    assert links.github_heading_id("Handing out") == "handing-out"
    assert links.github_heading_id("Licence and how to cite") == "licence-and-how-to-cite"
    assert links.github_heading_id("Slides and presenting (offline, no Python)") == "slides-and-presenting-offline-no-python"
    assert links.github_heading_id("For lecturers, teachers and students") == "for-lecturers-teachers-and-students"


def test_every_link_in_the_documentation_works():
    assert {p.name for p in DOCS} >= {"README.md", "teaching.md", "slides.md", "grading.md", "hub.md",
                                      "accessibility.md"}
    problems, followed = links.broken_links(DOCS, name=links.github_heading_id)
    assert problems == [], "\n".join(problems)
    readme = {links.split(link)[0] for link in links.relative_links(ROOT / "README.md")}
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in readme, f"README.md does not link docs/{page.name}"
    for picture in sorted((ROOT / "docs" / "img").glob("*.png")):
        assert f"docs/img/{picture.name}" in readme, f"README.md does not show {picture.name}"
    assert followed >= 20, "the documentation links its pages, the licences and the pictures"


def test_documentation_commands_run_from_a_fresh_clone():
    """No command needs an activated environment, and every `make TARGET` named is a target of the Makefile."""
    targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    problems = []
    for path in DOCS:
        for code in code_texts(path):
            for line in code.splitlines():
                bare = [m for m in BARE.findall(line) if not (m == "nbgrader" and path.name == "hub.md")]
                if bare and "pip install -r requirements" not in line:
                    problems.append(f"{path.relative_to(ROOT)}: `{line.strip()}` needs an activated environment")
                for target in re.findall(r"(?:^|\s)make ([a-z][a-z-]*)", line):
                    if target not in targets:
                        problems.append(f"{path.relative_to(ROOT)}: `make {target}` is not a Makefile target")
    assert problems == [], "\n".join(problems)
