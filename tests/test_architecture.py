"""The layers hold (import-linter) and the code has no pyflakes-level errors (ruff)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name):
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed: run ./run setup")
    return found


def test_import_contracts_kept():
    r = subprocess.run([tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]


def test_ruff_is_clean():
    r = subprocess.run([tool("ruff"), "check", "--output-format", "concise", "companion", "tests", "bench"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]


def test_mypy_is_clean():
    r = subprocess.run([tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
