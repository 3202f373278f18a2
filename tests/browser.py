"""Debian's Chromium driven by Playwright (never `playwright install`), and axe-core from the
npm registry (tests/rules/browser/node_modules): what the page tests share. The `browser`
and `axe_source` fixtures are in tests/conftest.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE_DIR = Path(__file__).parent / "rules" / "browser"
AXE = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


def require_chromium() -> None:
    """Skip a page-test module without Chromium on a user's machine; under CI it must be there."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError("Debian's chromium is required under CI (apt-get install chromium)")
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
