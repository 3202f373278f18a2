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

# Issue 28: mDNS in tests stays on the loopback interface, never multicast on real ones.
import os  # noqa: E402

os.environ["COMPANION_MDNS_INTERFACES"] = "127.0.0.1"


# ---------------------------------------------------------------- page tests (tests/browser.py)
import pytest  # noqa: E402


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, installed by `npm ci` in tests/rules/browser when missing."""
    import shutil
    import subprocess

    from tests.browser import AXE, AXE_DIR

    if not AXE.exists():
        npm = shutil.which("npm")
        assert npm, "axe-core is missing and npm is not installed: run `npm ci` in tests/rules/browser"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=AXE_DIR, check=True,
                       capture_output=True, timeout=300)
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium through Playwright."""
    from playwright.sync_api import sync_playwright

    from tests.browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
