"""tools/execute.py: an edit in the twin or in the notebook is never lost, and committed notebooks diff cleanly."""

from __future__ import annotations

import json
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


def test_outputs_differing_only_in_timings_keep_the_committed_text():
    committed = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("fit()")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="fitting took 0.14 s\nscore 0.812\n"),
                    nbformat.v4.new_output("stream", name="stdout", text="search: 100%| 20/20 [00:03<00:00, 5.1it/s]")]
    committed.cells = [cell]
    new = nbformat.from_dict(json.loads(json.dumps(committed)))
    new.cells[0].outputs[0].text = "fitting took 0.31 s\nscore 0.812\n"
    new.cells[0].outputs[1].text = "search: 100%| 20/20 [00:05<00:00, 3.9it/s]"
    assert execute.keep_committed(new, json.loads(json.dumps(committed))) == 2
    assert new == committed
    new.cells[0].outputs[0].text = "fitting took 0.31 s\nscore 0.813\n"     # a real change is kept
    assert execute.keep_committed(new, json.loads(json.dumps(committed))) == 0
    assert new.cells[0].outputs[0].text.endswith("0.813\n")


@pytest.mark.slow
def test_executing_twice_gives_the_same_file_and_widgets_that_render(tmp_path):
    """A real run (one small notebook with a slider and a timing, executed twice in fresh kernels): the
    second file is byte for byte the first, every widget an output shows is in the stored state."""
    (tmp_path / "py").mkdir()
    twin = tmp_path / "py" / "01_widget.py"
    twin.write_text("# %% [markdown]\n# # 01 · Widgets\n\n# %%\nimport time\nfrom helpers.widgets import "
                    "fbeta_explorer\nstart = time.perf_counter()\nfbeta_explorer()\n\n# %%\n"
                    "print(f'took {time.perf_counter() - start:.4f} s')\n")
    out = tmp_path / "01_widget.ipynb"
    execute.execute(twin, out)
    first = out.read_bytes()
    execute.execute(twin, out)
    assert out.read_bytes() == first
    notebook = json.loads(first)
    state = notebook["metadata"]["widgets"][execute.WIDGET_STATE]["state"]
    shown = [o["data"][execute.WIDGET_VIEW]["model_id"] for c in notebook["cells"] if c["cell_type"] == "code"
             for o in c["outputs"] if execute.WIDGET_VIEW in o.get("data", {})]
    assert shown and all(model in state for model in shown)
    assert shown[0] == uuid.uuid5(execute.WIDGET_IDS, "01_widget/0").hex
    assert notebook["metadata"][execute.STAMP]["py_sha256"] == execute.sha256(twin.read_text())
