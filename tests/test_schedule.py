"""The test run's schedule (tests/conftest.py): files heaviest first, by recorded seconds."""

from __future__ import annotations

import json
from types import SimpleNamespace

import conftest


def items(*nodeids):
    return [SimpleNamespace(nodeid=nodeid) for nodeid in nodeids]


def test_files_are_ordered_by_recorded_seconds_and_unrecorded_files_keep_their_order_after():
    order = items("tests/test_a.py::test_1", "tests/test_b.py::test_1", "tests/test_new.py::test_x",
                  "tests/test_a.py::test_2", "notebooks/01_metrics.ipynb::Cell 0", "tests/test_other.py::test_y",
                  "tests/test_b.py::test_2")
    conftest.heaviest_first(order, {"tests/test_a.py": 3.0, "tests/test_b.py": 40.5,
                                    "notebooks/01_metrics.ipynb": 12.0})
    assert [item.nodeid for item in order] == [
        "tests/test_b.py::test_1", "tests/test_b.py::test_2",  # heaviest first, its own tests in their order
        "notebooks/01_metrics.ipynb::Cell 0",
        "tests/test_a.py::test_1", "tests/test_a.py::test_2",
        "tests/test_new.py::test_x", "tests/test_other.py::test_y",  # not recorded: after, in collection order
    ]


def test_the_committed_schedule_names_existing_files_with_their_seconds():
    recorded = conftest.recorded_durations()
    assert len(recorded) >= 30, "tests/durations.json records every test file of a whole run"
    for name, seconds in recorded.items():
        assert (conftest.ROOT / name).is_file(), f"tests/durations.json names {name}, which no longer exists"
        assert seconds >= 0, name
    assert max(recorded.values()) > 60, "a whole run has files of minutes: a schedule of a partial run?"
    assert json.loads(conftest.DURATIONS.read_text()) == recorded


def test_a_node_id_names_its_file():
    assert conftest.file_of("tests/test_hub.py::test_x[a::b]") == "tests/test_hub.py"
    assert conftest.file_of("notebooks/01_metrics.ipynb::Cell 3") == "notebooks/01_metrics.ipynb"
