"""What every test shares: mDNS on loopback only, the page tests' browser and axe-core.

The test modules import their helpers as `tests.toygame`, `tests.conformance`, ...: the
repository's root is on `sys.path` by pytest's own `pythonpath` setting (pyproject.toml), for
bare `pytest` as for `python -m pytest`.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import pytest

# Issue 28: mDNS in tests stays on the loopback interface, never multicast on real ones.
os.environ["COMPANION_MDNS_INTERFACES"] = "127.0.0.1"


#: the test files that take minutes (the whole games by voice, Kaliko's searches, the random
#: playouts), heaviest first: `./run test` hands them out before any other (`_SlowFirst`)
SLOW_FILES = (
    "tests/voice/test_voice_whole_games_fr.py",
    "tests/voice/test_voice_whole_games.py",
    "tests/kaliko/test_kaliko_search.py",
    "tests/voice/test_voice_game.py",
    "tests/test_conformance.py",
    "tests/test_hidden_outputs.py",
    "tests/kaliko/test_kaliko_native.py",
)


class _SlowFirst(OrderedDict):  # type: ignore[type-arg]
    """pytest-xdist's queue of files to hand out, `SLOW_FILES` first. xdist orders the files
    by their number of tests, so the whole games by voice (4 tests, minutes each) came last,
    and one worker played them alone while the other had finished: 16 min 39 s on 2 cores
    (2026-12-07)."""

    def __setitem__(self, key: str, value: object) -> None:
        super().__setitem__(key, value)
        if key in SLOW_FILES:
            for name in reversed(SLOW_FILES):
                if name in self:
                    self.move_to_end(name, last=False)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadfile` (`./run test`), with the slow files handed out first."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    scheduler = LoadFileScheduling(config, log)  # type: ignore[arg-type]
    scheduler.workqueue = _SlowFirst()
    return scheduler


@pytest.fixture
def short_path() -> Iterator[Path]:
    """A fresh folder with a short path, for tests that put Unix sockets under it (their paths
    are limited to 108 bytes; `tmp_path` is deep, deeper still under pytest-xdist's workers)."""
    folder = Path(tempfile.mkdtemp(prefix="ct-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- page tests (tests/browser.py)


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
