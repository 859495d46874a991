# The command line of the grading package tools/grading/. Its docstring (the tool's description, its
# commands and the build folder's layout) is the package's, in tools/grading/__init__.py: __doc__ below.

from __future__ import annotations

import ast
import sys
from pathlib import Path

# The code is in the package tools/grading/ (one file per role: course and release, plans and slicing,
# submissions, checks, one student in the sandboxes, report and feedback, late submissions, LMS
# export, the batch, the CLI). This file is the command line and, loaded as the module `grading`
# (the tests and benchmarks load it by path), the same names as the package.
__path__ = [str(Path(__file__).resolve().parent / "grading")]
__doc__ = ast.get_docstring(ast.parse(Path(__path__[0], "__init__.py").read_text(encoding="utf-8")), clean=False)
__doc__ = __doc__.replace("The grading package (tools/grading/): release", "Release", 1)
DESCRIPTION = __doc__.split("\n\n")[0]
sys.path.insert(0, str(Path(__file__).resolve().parent))
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

sys.path.pop(0)


if __name__ == "__main__":
    main()
