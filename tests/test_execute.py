"""tools/execute.py: an edit in the twin or in the notebook is never lost, and committed notebooks diff cleanly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import execute  # noqa: E402  (tools/execute.py)

TWINS = sorted((ROOT / "notebooks" / "py").glob("*.py"))

TWIN = '''# %% [markdown]
# # 01 · A small notebook
#
# Some prose.

# %%
value = 6 * 7
value

# %% nbgrader={"grade": false, "grade_id": "ex1", "locked": false, "schema_version": 3, "solution": true, "task": false}
def answer():
    ### BEGIN SOLUTION
    return 42
    ### END SOLUTION
'''


@pytest.mark.parametrize("twin", TWINS, ids=lambda p: p.stem)
def test_syncing_an_unedited_notebook_gives_its_twin_back_byte_for_byte(twin):
    notebook = json.loads((ROOT / "notebooks" / f"{twin.stem}.ipynb").read_text(encoding="utf-8"))
    assert execute.twin_from_notebook(twin, notebook) == twin.read_text(encoding="utf-8")


def pair(tmp_path) -> tuple[Path, Path]:
    """A twin and its notebook as `make execute` leaves them (built, with the record; not run)."""
    (tmp_path / "notebooks" / "py").mkdir(parents=True)
    twin = tmp_path / "notebooks" / "py" / "01_small.py"
    twin.write_text(TWIN)
    notebook = execute.build(twin)
    notebook.metadata[execute.STAMP] = {"py_sha256": execute.sha256(TWIN),
                                        "cells_sha256": execute.cells_sha256(notebook.cells)}
    path = tmp_path / "notebooks" / "01_small.ipynb"
    nbformat.write(notebook, path)
    return twin, path


def edit_notebook(path: Path, index: int, source: str) -> None:
    """What JupyterLab does when a cell is edited and the notebook saved."""
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[index].source = source
    nbformat.write(notebook, path)


def test_an_edit_in_the_notebook_is_refused_by_execute_then_synced_into_the_twin(tmp_path, capsys):
    twin, path = pair(tmp_path)
    assert execute.status(twin) == ("in sync", [])
    edit_notebook(path, 1, "value = 6 * 7  # the answer\nvalue")
    before = path.read_bytes()
    assert execute.status(twin) == ("notebook edited", [1])
    assert execute.main([str(twin)]) == 1                      # make execute: refused, nothing run or written
    assert "make sync NB=01_small" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert execute.main(["--check", str(twin)]) == 1
    message = execute.sync(twin)
    assert "cells 1 of the notebook copied into 01_small.py" in message and "make execute NB=01_small" in message
    assert "value = 6 * 7  # the answer\nvalue\n" in twin.read_text()
    assert twin.read_text().replace("  # the answer", "") == TWIN     # nothing else of the twin changed
    assert execute.status(twin) == ("in sync", [])


def test_an_edit_in_the_twin_is_for_execute_and_sync_leaves_it(tmp_path):
    twin, path = pair(tmp_path)
    twin.write_text(TWIN.replace("Some prose.", "Better prose."))
    assert execute.status(twin) == ("twin edited", [0])
    assert "make execute NB=01_small" in execute.sync(twin)
    assert "Better prose." in twin.read_text() and "Some prose." in path.read_text()


def test_both_edited_is_refused_until_one_side_is_chosen(tmp_path):
    twin, path = pair(tmp_path)
    twin.write_text(TWIN.replace("Some prose.", "Twin prose."))
    edit_notebook(path, 2, "def answer():\n    return 41")
    assert execute.status(twin) == ("both edited", [0, 2])
    with pytest.raises(SystemExit, match="both .* were edited .* TAKE=notebook"):
        execute.sync(twin)
    with pytest.raises(SystemExit, match="both"):
        execute.execute(twin)
    execute.sync(twin, take="notebook")
    assert "return 41" in twin.read_text() and "Twin prose." not in twin.read_text()
    assert execute.status(twin) == ("in sync", [])


def test_both_edited_with_the_twin_taken_lets_execute_rebuild_from_the_twin(tmp_path):
    twin, path = pair(tmp_path)
    twin.write_text(TWIN.replace("Some prose.", "Twin prose."))
    edit_notebook(path, 2, "def answer():\n    return 41")
    execute.sync(twin, take="twin")
    assert "return 41" not in twin.read_text(), "the twin is kept as it is"
    assert execute.status(twin)[0] == "twin edited", "execute now rebuilds the notebook from the twin"


def test_a_cell_added_in_the_notebook_reaches_the_twin(tmp_path):
    twin, path = pair(tmp_path)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(1, nbformat.v4.new_markdown_cell("## A new section"))
    nbformat.write(notebook, path)
    assert execute.status(twin)[0] == "notebook edited"
    execute.sync(twin)
    assert "# %% [markdown]\n# ## A new section\n\n# %%\nvalue = 6 * 7" in twin.read_text()
    assert execute.status(twin) == ("in sync", [])


def test_without_a_record_git_head_tells_which_file_was_edited(tmp_path):
    twin, path = pair(tmp_path)
    notebook = json.loads(path.read_text())
    del notebook["metadata"][execute.STAMP]
    path.write_text(json.dumps(notebook, indent=1))
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=tmp_path, check=True, capture_output=True)
    edit_notebook(path, 0, "# 01 · A small notebook\n\nEdited in JupyterLab.")
    assert execute.status(twin) == ("notebook edited", [0])
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=tmp_path, check=True)
    twin.write_text(TWIN + "\n# %%\nprint(value)\n")
    assert execute.status(twin) == ("twin edited", [3])


# --------------------------------------------------------------------------- clean diffs

def widget_notebook(ids: list[str]) -> nbformat.NotebookNode:
    """Two outputs showing widgets; the stored state has a layout model the first refers to."""
    view, slider, layout = ids
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("w")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "text/plain": "IntSlider(value=3)", execute.WIDGET_VIEW: {"model_id": view, "version_major": 2,
                                                                   "version_minor": 0}})]
    other = nbformat.v4.new_code_cell("s")
    other.outputs = [nbformat.v4.new_output("display_data", data={execute.WIDGET_VIEW: {"model_id": slider}})]
    cell.id, other.id = "01-000", "01-001"   # as tools/execute.py names cells
    notebook.cells = [cell, other]
    notebook.metadata["widgets"] = {execute.WIDGET_STATE: {"state": {
        layout: {"model_name": "LayoutModel", "state": {}},
        view: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{slider}"],
                                                    "layout": f"IPY_MODEL_{layout}"}},
        slider: {"model_name": "IntSliderModel", "state": {"value": 3}}}, "version_major": 2, "version_minor": 0}}
    return notebook


def test_widget_ids_are_derived_from_the_notebook_and_order_in_state_and_outputs_alike():
    first = widget_notebook([uuid.uuid4().hex for _ in range(3)])
    second = widget_notebook([uuid.uuid4().hex for _ in range(3)])
    execute.stable_widget_ids(first, "01_small")
    execute.stable_widget_ids(second, "01_small")
    assert first == second, "two runs with other random ids give the same notebook"
    view, slider, layout = (uuid.uuid5(execute.WIDGET_IDS, f"01_small/{i}").hex for i in range(3))
    state = first.metadata["widgets"][execute.WIDGET_STATE]["state"]
    assert set(state) == {view, slider, layout}
    assert state[view]["state"] == {"children": [f"IPY_MODEL_{slider}"], "layout": f"IPY_MODEL_{layout}"}
    assert first.cells[0].outputs[0].data[execute.WIDGET_VIEW]["model_id"] == view
    assert first.cells[1].outputs[0].data[execute.WIDGET_VIEW]["model_id"] == slider
    other = widget_notebook([uuid.uuid4().hex for _ in range(3)])
    execute.stable_widget_ids(other, "02_other")
    assert other.cells[0].outputs[0].data[execute.WIDGET_VIEW]["model_id"] != view, "ids differ between notebooks"


def progress_bar_notebook(ids: list[str]) -> nbformat.NotebookNode:
    """A tqdm bar as nbclient saves it (an HBox of a text, a bar and a text, their layouts and styles) and a
    slider linked to a text box (the link, shown by no output, refers to both)."""
    bar, label, progress, times, bar_layout, slider, box, link = ids
    notebook = nbformat.v4.new_notebook()
    loop = nbformat.v4.new_code_cell("for _ in tqdm(range(20), leave=False): pass\nprint('done')")
    loop.outputs = [nbformat.v4.new_output("display_data", data={
        "text/plain": "  0%|          | 0/20 [00:00<?, ?it/s]", execute.WIDGET_VIEW: {"model_id": bar}}),
                    nbformat.v4.new_output("stream", name="stdout", text="done\n")]
    shown = nbformat.v4.new_code_cell("slider")
    shown.outputs = [nbformat.v4.new_output("display_data", data={execute.WIDGET_VIEW: {"model_id": slider}})]
    loop.id, shown.id = "01-000", "01-001"
    notebook.cells = [loop, shown]
    notebook.metadata["widgets"] = {execute.WIDGET_STATE: {"state": {
        bar: {"model_name": "HBoxModel", "state": {"children": [f"IPY_MODEL_{m}" for m in (label, progress, times)],
                                                   "layout": f"IPY_MODEL_{bar_layout}"}},
        label: {"model_name": "HTMLModel", "state": {"value": ""}},
        progress: {"model_name": "FloatProgressModel", "state": {"value": 20, "max": 20}},
        times: {"model_name": "HTMLModel", "state": {"value": "20/20 [00:12<00:00, 2.26it/s]"}},
        bar_layout: {"model_name": "LayoutModel", "state": {}},
        slider: {"model_name": "IntSliderModel", "state": {"value": 3}},
        box: {"model_name": "IntTextModel", "state": {"value": 3}},
        link: {"model_name": "LinkModel", "state": {"source": [f"IPY_MODEL_{slider}", "value"],
                                                    "target": [f"IPY_MODEL_{box}", "value"]}}}}}
    return notebook


def test_a_closed_progress_bar_is_dropped_with_its_models_and_nothing_else():
    ids = [uuid.uuid4().hex for _ in range(8)]
    bar, label, progress, times, bar_layout, slider, box, link = ids
    notebook = progress_bar_notebook(ids)
    assert execute.drop_closed_widgets(notebook, {bar}) == {bar, label, progress, times, bar_layout}
    assert [output.output_type for output in notebook.cells[0].outputs] == ["stream"]
    assert notebook.cells[1].outputs[0].data[execute.WIDGET_VIEW]["model_id"] == slider
    assert set(notebook.metadata["widgets"][execute.WIDGET_STATE]["state"]) == {slider, box, link}
    assert "it/s" not in json.dumps(notebook)
    # a model the bar refers to that a model still shown refers to too stays
    shared = progress_bar_notebook(ids)
    state = shared.metadata["widgets"][execute.WIDGET_STATE]["state"]
    state[slider]["state"]["layout"] = f"IPY_MODEL_{bar_layout}"
    assert execute.drop_closed_widgets(shared, {bar}) == {bar, label, progress, times}
    untouched = progress_bar_notebook(ids)
    assert execute.drop_closed_widgets(untouched, set()) == set() and untouched == progress_bar_notebook(ids)


# What a re-run would change: a measured duration ("0.17 s", "took 3 ms", "12.5 seconds") or a tqdm bar
# ("45%|####", "[00:12<00:00, 2.26it/s]"). "1 s per fit" (a whole number, a rate assumed in prose) is not one.
MEASURED = re.compile(r"\b\d+\.\d+ ?(?:s|ms|µs|sec|seconds)\b|\btook \d|\d ?(?:it/s|s/it)\b|\d%\||"
                      r"\[\d+:\d+(?::\d+)?(?:<|&lt;)")
IMAGES = re.compile(r"data:image/[a-z+]+;base64,[A-Za-z0-9+/=]+")


def shown_texts(notebook: dict):
    """(where, text) of everything a reader sees as text: streams, text outputs (HTML with its images left
    out), error messages, and the stored widgets' text values (a panel, a label, a bar's times)."""
    for index, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                yield f"cell {index}", "".join(output["text"])
            if output["output_type"] == "error":
                yield f"cell {index}", "\n".join(output["traceback"])
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/"):
                    yield f"cell {index} {mime}", IMAGES.sub("IMAGE", "".join(value))
    state = notebook["metadata"].get("widgets", {}).get(execute.WIDGET_STATE, {}).get("state", {})
    for model, value in state.items():
        for key, text in value.get("state", {}).items():
            if isinstance(text, str):
                yield f"widget {value.get('model_name')} {key}", IMAGES.sub("IMAGE", text)
            if key == "outputs":   # an Output widget's captured outputs
                yield from ((f"widget {model} output {w}", t) for w, t in shown_texts(
                    {"cells": [{"outputs": text}], "metadata": {}}))


def test_the_measured_pattern_finds_timings_and_progress_bars_and_nothing_else():
    found = [text for text in ("fitting took 0.17 s", "mean fit time 0.076 s", "took 3 ms", "12.5 seconds",
                               "configurations:  45%|####5     | 9/20", "20/20 [00:12<00:00, 2.26it/s]",
                               "100/100 [01:02<00:00, 1.60s/it]") if MEASURED.search(text)]
    assert len(found) == 7, found
    assert not any(MEASURED.search(text) for text in ("candidates  fits (5-fold)  hours at 1 s per fit",
                                                      "estimate 0.609, SD 0.038 | 25 fits", "AUC 0.75 (95 % CI)",
                                                      "k = 10 203,445 (9.0 times as many)"))


@pytest.mark.parametrize("twin", TWINS, ids=lambda p: p.stem)
def test_committed_notebooks_show_no_measured_times_or_progress_bars(twin):
    """What changes from run to run has no place in a committed output: re-executing gives the same file."""
    notebook = json.loads((ROOT / "notebooks" / f"{twin.stem}.ipynb").read_text(encoding="utf-8"))
    texts = list(shown_texts(notebook))
    assert len(texts) > 20, "the committed notebook has its outputs"
    found = [f"{where}: {match.group(0)!r} in {text[max(0, match.start() - 60):match.end() + 20]!r}"
             for where, text in texts for match in MEASURED.finditer(text)]
    assert not found, "re-running changes these outputs: print no measured time and no progress bar:\n" + \
        "\n".join(found)


@pytest.mark.slow
def test_executing_twice_gives_the_same_file_and_widgets_that_render(tmp_path):
    """A real run (one small notebook with a slider, a progress bar and two flushes of printed text, executed
    twice in fresh kernels): the second file is byte for byte the first, the bar (closed when its loop ended)
    is gone, the printed text is one output, and every widget an output shows is in the stored state."""
    (tmp_path / "py").mkdir()
    twin = tmp_path / "py" / "01_widget.py"
    twin.write_text("# %% [markdown]\n# # 01 · Widgets\n\n# %%\nimport time\nfrom tqdm.auto import tqdm\n"
                    "from helpers.widgets import fbeta_explorer\nfbeta_explorer()\n\n# %%\n"
                    "for _ in tqdm(range(3), desc='steps', leave=False):\n    time.sleep(0.2)\n"
                    "print('done', flush=True)\ntime.sleep(0.3)\nprint('and printed again')\n")
    out = tmp_path / "01_widget.ipynb"
    execute.execute(twin, out)
    first = out.read_bytes()
    execute.execute(twin, out)
    assert out.read_bytes() == first
    notebook = json.loads(first)
    assert [o.get("text") for o in notebook["cells"][2]["outputs"]] == [["done\n", "and printed again\n"]], \
        "only what was printed is left, as one output, however the kernel flushed it"
    assert not [match for _, text in shown_texts(notebook) for match in MEASURED.finditer(text)]
    state = notebook["metadata"]["widgets"][execute.WIDGET_STATE]["state"]
    assert not [m for m in state.values() if m["model_name"] == "FloatProgressModel"], "the bar's models are gone"
    shown = [o["data"][execute.WIDGET_VIEW]["model_id"] for c in notebook["cells"] if c["cell_type"] == "code"
             for o in c["outputs"] if execute.WIDGET_VIEW in o.get("data", {})]
    assert shown and all(model in state for model in shown)
    assert shown[0] == uuid.uuid5(execute.WIDGET_IDS, "01_widget/0").hex
    assert notebook["metadata"][execute.STAMP]["py_sha256"] == execute.sha256(twin.read_text())
