"""Browser tests: the course notebooks with sliders in a real JupyterLab, as a lecturer would at a 1280 x 720
projector size: Kernel > Restart Kernel and Run All, then every widget's figure must be drawn (an image, not
blank, equal to the kernel's). In 01's first run its slider, moved by keyboard and by drag, must show the
text its pure state function gives (computed in the same kernel); the live slideshow
(tests/test_browser_slideshow.py) moves every explorer's sliders that way. Notebook 01 is run four times
here and a fifth in its live slideshow, to catch a race between the widget callbacks and the cells still
running. Screenshots go to
build/screenshots/.
"""

from __future__ import annotations

import pytest

from browser_support import (COURSE, check_explorer, explorers, Kernel, open_course_notebook,
                             restart_and_run_all)

pytestmark = pytest.mark.slow
COURSE_RUNS = [(name, run) for name, (_, runs) in COURSE.items() for run in range(runs)]




@pytest.mark.parametrize("name, run", COURSE_RUNS, ids=[f"{n[:2]}-run{r + 1}" for n, r in COURSE_RUNS])
def test_course_notebook_restart_and_run_all(browser, lab, name, run):
    page = open_course_notebook(browser, lab, name, f"course-{name[:2]}-{run}")
    seconds = restart_and_run_all(page)
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0, \
        f"{name}: a cell wrote to stderr (a warning or an error) during Run All"
    expected_count, _ = COURSE[name]
    assert explorers(page).count() == expected_count, f"{name}: expected {expected_count} explorer(s)"
    kernel = Kernel(lab, name)
    try:
        assert len(kernel.value("[type(e).__name__ for e in _course_explorers()]")) == expected_count
        for index in range(expected_count):
            # moved by keyboard and by drag in 01's first run; every explorer's sliders are moved in the live
            # slideshow (tests/test_browser_slideshow.py), in this JupyterLab, by the same check_explorer
            check_explorer(page, kernel, index, name, move=run == 0 and name.startswith("01"))
    finally:
        kernel.close()
    print(f"{name}: Run All took {seconds:.1f} s (run {run + 1})")
    page.close()
