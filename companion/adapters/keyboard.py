"""The keyboard: a line-oriented loop, no screen drawing, no prompt characters to read out.

Each line typed goes to the session; end of input (Ctrl-D) saves and stops, as `quitte` does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Protocol, TextIO


class Session(Protocol):
    """The part of companion.session.Session an input needs (adapters never import it)."""

    running: bool

    def handle(self, line: str, seat: int | None = None) -> bool: ...


def lines(stream: TextIO) -> Iterable[str]:
    while True:
        try:
            line = stream.readline()
        except KeyboardInterrupt:
            return
        if not line:
            return
        yield line.rstrip("\n")


def repl(session: Session, stream: TextIO | None = None) -> None:
    """Feed every typed line to the session until it ends or the input closes."""
    if not session.running:
        return
    for line in lines(stream or sys.stdin):
        if not session.handle(line):
            return
