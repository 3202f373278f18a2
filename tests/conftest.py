"""Makes bare `pytest` work as `python -m pytest` does.

The test modules import their helpers as `tests.toygame`, `tests.conformance`, ...: that
needs the repository's root on `sys.path`. `python -m pytest` puts the working directory
there; the `pytest` script does not, and pytest's default ("prepend") import mode only adds
the first folder above each test package that has no `__init__.py` (here `tests/` itself).
This file is loaded before any test module is collected, so adding the root here is enough.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
