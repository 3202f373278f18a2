"""Seats claimed by a player's own page or terminal, and what each seat's channel has heard.

Shared by the web hub (`companion.inputs.web.hub`) and the second terminal (`companion.inputs.terminal`):
one `SeatBook` says which seats are taken, so a seat claimed by a phone is refused to a
terminal and the other way round, until « libère Anne » is said at the table.

Everything here is thread-safe: the table loop calls `SeatChannel.deliver` from its thread,
the web server and the terminal server read the channel's lines from theirs.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.core import fold
from companion.language import words
from companion.session.inbox import Device, Inbox, SeatClaimed, SeatReleased

LOG_LINES = 500  # what a page can catch up on after a reconnection


@dataclass(frozen=True)
class SeatLine:
    """One line a seat's channel received: `n` counts from 1 (the stream's event id)."""

    n: int
    text: str
    private: bool
    lang: str
    priority: int = 0
    earcon: str | None = None


class SeatChannel:
    """The Channel of one claimed seat (PLAN "The table's channels"): everything its player
    hears, public and private, kept for catching up; readers are woken on every new line.

    `deliver` and `interrupt` are called by the table loop; `since`, `wait_handle` and
    `subscribe` by the servers that show the lines.
    """

    public = True  # a page shows all its player hears: the table also delivers public lines

    def __init__(self, seat: int, source: str, maxlen: int = LOG_LINES) -> None:
        self.seat = seat
        self.source = source
        self._lines: deque[SeatLine] = deque(maxlen=maxlen)
        self._n = 0
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self.closed = False
        # The last line a page has shown, None before its first page (#29: a reloaded page says
        # « Reprise » and only what is new)
        self.shown: int | None = None

    # --- the Channel protocol (table loop's thread) ---------------------------------------
    def deliver(self, text: str, *, private: bool, priority: Any = 0, earcon: str | None = None,
                lang: str = "fr") -> None:
        with self._lock:
            if self.closed:
                return
            self._n += 1
            self._lines.append(SeatLine(self._n, text, private, lang, int(priority or 0), earcon))
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def interrupt(self) -> None:
        """Nothing to cut on a page or terminal: lines are shown, not spoken by the companion
        (a page speaking private lines with the phone's voice cuts its own speech per line)."""

    # --- readers ---------------------------------------------------------------------------
    def since(self, n: int) -> list[SeatLine]:
        """The lines after number `n` still kept (all of them for n = 0)."""
        with self._lock:
            return [h for h in self._lines if h.n > n]

    @property
    def last(self) -> int:
        with self._lock:
            return self._n

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call `wake()` (from the table's thread) after each new line; returns the unsubscriber."""
        with self._lock:
            self._listeners.append(wake)

        def off() -> None:
            with self._lock:
                if wake in self._listeners:
                    self._listeners.remove(wake)

        return off

    def close(self) -> None:
        with self._lock:
            self.closed = True
            listeners = list(self._listeners)
        for wake in listeners:
            wake()


@dataclass
class Claim:
    channel: SeatChannel
    source: str  # "web" or "terminal"


class SeatBook:
    """Which seats are claimed, by what; posts `SeatClaimed`/`SeatReleased` to the inbox."""

    def __init__(self, names: list[str], inbox: Inbox, humans: list[int] | None = None) -> None:
        self.names = list(names)
        self.inbox = inbox
        self.humans = set(range(len(names)) if humans is None else humans)
        self._claims: dict[int, Claim] = {}
        self._lock = threading.Lock()
        self.on_release: list[Callable[[int, Claim], None]] = []

    def seat_named(self, name: str) -> int | None:
        for i, n in enumerate(self.names):
            if fold(n) == fold(name) and i in self.humans:
                return i
        return None

    def claimed(self, seat: int) -> Claim | None:
        with self._lock:
            return self._claims.get(seat)

    def claim(self, seat: int, source: str) -> Claim | None:
        """Give `seat` to a page or terminal; None when it is taken (or not a human's)."""
        if seat not in self.humans:
            return None
        with self._lock:
            if seat in self._claims:
                return None
            claim = Claim(SeatChannel(seat, source), source)
            self._claims[seat] = claim
        self.inbox.post(Device(SeatClaimed(seat, claim.channel), source))
        return claim

    def release(self, seat: int) -> bool:
        """« libère Anne »: the seat is free again; its page or terminal is cut off."""
        with self._lock:
            claim = self._claims.pop(seat, None)
        if claim is None:
            return False
        claim.channel.close()
        self.inbox.post(Device(SeatReleased(seat, claim.channel), claim.source))
        for hook in list(self.on_release):
            hook(seat, claim)
        return True


    def close(self) -> None:
        """The game stops: every page and terminal is told, nothing is posted any more."""
        with self._lock:
            claims = list(self._claims.values())
            self._claims.clear()
        for claim in claims:
            claim.channel.close()


def release_words() -> tuple[str, ...]:
    """« libère », "release"...: the shared table's ``release``, every language, folded."""
    return words("shared", "release")


def release_target(text: str, names: list[str]) -> int | None:
    """The seat freed by a line said at the table: « libère Anne », "release Anne", or its
    owner speaking for herself, « Anne : libère » (issue #25); else None."""
    head, sep, tail = text.partition(":")
    if sep and fold(tail).strip() in release_words():
        for i, n in enumerate(names):
            if fold(n) == fold(head).strip():
                return i
        return None
    said = fold(text).replace(",", " ").replace("'", " ").split()
    if len(said) < 2 or said[0] not in release_words():
        return None
    filler = words("shared", "release_filler")  # « libère la place d'Anne »
    rest = " ".join(w for w in said[1:] if w not in filler)
    for i, n in enumerate(names):
        if fold(n) == rest:
            return i
    return None


__all__ = ["LOG_LINES", "Claim", "SeatLine", "SeatBook", "SeatChannel", "SeatClaimed", "SeatReleased",
           "release_target"]
