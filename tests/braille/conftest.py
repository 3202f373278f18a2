"""A brltty of the test's own (Virtual driver, BrlAPI on a free loopback port, its own key
file in a temporary folder) and the virtual display connected to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .display import Brltty, Display, need_brltty


@pytest.fixture
def brltty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Brltty]:
    need_brltty()
    b = Brltty(tmp_path / "brltty")
    b.start()
    for k, v in b.env.items():
        monkeypatch.setenv(k, v)
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def display(brltty: Brltty) -> Iterator[Display]:
    d = Display(brltty, 40)
    try:
        yield d
    finally:
        d.close()
