"""Waiting on a condition in tests, never on a clock (issue 25: no test flaky on a loaded machine).

`until(cond, what)` checks `cond()` again and again until it holds; its timeout is generous and
only bounds a test that would otherwise hang — how fast it holds is never asserted (speed
belongs in bench/). Prefer an event or a queue when the code under test offers one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

WAIT = 60.0  # seconds: only a hang takes this long, even beside CPU-heavy neighbours
POLL = 0.005


def until(cond: Callable[[], T], what: str = "the condition", timeout: float = WAIT) -> T:
    """`cond()`'s first true value; AssertionError naming `what` if it never comes."""
    end = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: still not after {timeout:.0f} s")
        time.sleep(POLL)


__all__ = ["WAIT", "until"]
