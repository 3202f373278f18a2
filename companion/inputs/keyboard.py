"""The keyboard: a line-oriented input, no screen drawing, no prompt characters to read out.

It only posts: each typed line becomes `Line(text, source="keyboard")` in the table's inbox,
and the end of input (Ctrl-D) `Closed("keyboard")`, which saves and stops as `quitte` does.
It runs in its own thread; the table loop alone acts on what it posts.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TextIO

from companion.session.inbox import Closed, Inbox, Line


def lines(stream: TextIO) -> Iterable[str]:
    while True:
        try:
            line = stream.readline()
        except (KeyboardInterrupt, ValueError):  # Ctrl-C, or the stream closed under us
            return
        if not line:
            return
        yield line.rstrip("\n")


def pump(inbox: Inbox, stream: TextIO | None = None, source: str = "keyboard") -> None:
    """Post every typed line to the inbox, then `Closed(source)` at the end of input."""
    for line in lines(stream or sys.stdin):
        inbox.post(Line(line, source=source))
    inbox.post(Closed(source))
