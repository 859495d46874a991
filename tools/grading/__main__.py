"""The grading tool's command line: ``python tools/grading release|grade ...`` from the clone's root (or
``python -m grading`` with tools/ on sys.path). What it does, its commands and the build folder's layout:
the package's docstring (tools/grading/__init__.py); its options: tools/grading/cli.py."""

import sys
from pathlib import Path

if not __package__:   # run as a folder: Python put the folder itself first on sys.path, not tools/
    HERE = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]   # no top-level `sandbox`, `worker`
    sys.path.insert(0, str(HERE.parent))

from grading.cli import main  # noqa: E402

main()
