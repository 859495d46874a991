"""The grading package (tools/grading/): release student versions of the course notebooks (nbgrader) and grade submissions in sandboxes.

    python tools/grading release [--assignment NAME ...]
    python tools/grading grade --assignment NAME [--submissions DIR] [--timeout SECONDS]
                                  [--student-timeout SECONDS] [--jobs N] [--no-sandbox]
                                  [--roster CSV] [--student NAME] [--deadline WHEN [--late-penalty RULE]]
                                  [--no-similarity]

Each instructor notebook ``notebooks/NAME.ipynb`` that has nbgrader cells is
its own assignment ``NAME``. Everything happens under the build folder
(``--root``, default ``build/``, git-ignored)::

    build/course/                  the nbgrader course directory
        nbgrader_config.py         written by this script (course id)
        gradebook.db               nbgrader's gradebook (written from the trusted scores)
        source/NAME/NAME.ipynb     copy of the instructor notebook (solutions, hidden tests)
        release/NAME/NAME.ipynb    nbgrader's student version
        submitted/STUDENT/NAME/    the default submissions folder
        manual_scores.csv          the teacher's scores of manually graded answers, if any
    build/release/NAME.ipynb       the student versions to hand out, side by side (links between
                                   notebooks work), with the files they link to (glossary.md) and
                                   what makes the folder run on its own (tools/handout.py): helpers/,
                                   data/, requirements.txt, README.md, LICENSE, LICENSE-CONTENT
    build/logs/                    nbgrader's output of each release
    build/grades.csv               one row per student, one column per question
    build/grades-NAME.png          the score distribution of each question
    build/grades-NAME.html         the grade summary (every problem found, table, described figure, counts)
    build/problems-NAME.json       every problem the run found (kind, student, problem), as on the summary
    build/feedback/NAME/STUDENT.html  each student's feedback
    build/similarity-NAME.html     pairs of students whose answer code is most alike, shared passages side
    build/similarity-NAME.csv      by side (the teacher's; no score changes), and every pair in a CSV
    build/lms/NAME-canvas.csv      Canvas's gradebook import (with --roster)
    build/lms/NAME-moodle.csv      Moodle's CSV grade import (with --roster)

``release`` strips solutions and hidden tests (``nbgrader generate_assignment``).
``grade`` reads ``DIR/STUDENT/NAME/*.ipynb`` or ``DIR/STUDENT.ipynb`` (never
writing them) and grades each submission in two bubblewrap sandboxes
(sandbox.py; worker.py, a sandbox's only file of the package), two submissions at a time: one runs
the student's cells, test cells left out; the other, which never runs student
code, runs the instructor's set-up and test cells from source/ (so deleted or
edited tests do not matter), calls the student's functions across the sandbox
boundary and gets plain data back (an Optuna trial a test passes stays in the
tests' sandbox; the student's function gets a stand-in whose methods are
forwarded as checked plain data). The student's sandbox runs the answer cells
and only the statements of other cells the answers need (needed_statements).
Visible tests run first (their message is the feedback), then the whole cell
with the hidden tests gives the score. As root with cgroup v1, each sandbox
also runs in its own memory (``--memory``, swap included) and pids cgroup,
emptied and removed when the submission's grading ends.
Limits per cell, per function call and per submission (wall clock), on
memory, processes and file size contain crashes, loops and abuse. What a
cell or a called function starts is killed when it ends (over its limit or
not), before the next cell or test runs, and the note says how many
processes a cell left running (worker.stop_processes). The source
of each cell and the student's process are checked for tampering (input
transformers, patched checks, shadowing modules, objects equal to anything),
which is flagged and scores 0 on every question tested after it. The table
is written once, atomically, when every student is graded.

Data files are not copied: the notebooks read them through the ``helpers``
package, installed in editable mode, which resolves paths from the package.
"""

from __future__ import annotations

DESCRIPTION = __doc__.split("\n\n")[0].replace("The grading package (tools/grading/): release", "Release")

from grading.course import *  # noqa: E402, F401, F403
from grading.plans import *  # noqa: E402, F401, F403
from grading.submissions import *  # noqa: E402, F401, F403
from grading.checks import *  # noqa: E402, F401, F403
from grading.student import *  # noqa: E402, F401, F403
from grading.report import *  # noqa: E402, F401, F403
from grading.late import *  # noqa: E402, F401, F403
from grading.export import *  # noqa: E402, F401, F403
from grading.batch import *  # noqa: E402, F401, F403
from grading.cli import command_parser, main  # noqa: E402, F401
