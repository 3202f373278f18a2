"""A real game with a braille seat: the session, the table loop (run by the test's thread, so
the test reads the match between inputs), the seat book, brltty's virtual display.

Wired as `companion play ... --braille SEAT` wires it (`companion.inputs.braille.play`):
the seat takes its display through BrlAPI (BRLAPI_HOST / BRLAPI_AUTH of the test's own
brltty), claims its place in the `SeatBook` and posts what its player types or picks.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.runner import make_session
from companion.core import find
from companion.inputs.braille.play import start_seats
from companion.inputs.braille.view import ALERT_CELL, OFFER_CELL
from companion.inputs.web.seats import SeatBook
from companion.narration import Priority
from companion.session import Session, TableLoop
from companion.session.inbox import Inbox, Line
from companion.session.transcript import load
from tests.waiting import WAIT, until

from .display import Display, read_cells


class BrailleTable:
    def __init__(self, game: str, names: list[str], braille: int, display: Display, *, bots: int = 0,
                 seed: int = 4, lang: str = "fr", contracted: bool = False, **options: Any) -> None:
        entry = find(game)
        self.game, ui, bot_kinds = load(entry, **options)
        kind = next(iter(bot_kinds))
        self.names = [*names, *(f"Robot {i + 1}" for i in range(bots))]
        kinds: list[str | None] = [None] * len(names) + [kind] * bots
        ns = argparse.Namespace(verbosity=None, log=None)
        self.session: Session = make_session(entry, self.game, ui, bot_kinds, self.names, kinds, seed,
                                             {}, None, None, ns, lang)
        self.printed: list[str] = []
        self.session.table.out = self.printed.append
        self.inbox = Inbox()
        self.humans = list(range(len(names)))
        self.book = SeatBook(self.names, self.inbox, self.humans)
        self.loop = TableLoop(self.session.core, self.session.table, self.inbox, worker=False)
        self.display = display
        self.braille = braille
        self.lang = lang
        self.contracted = contracted
        self.told: list[str] = []
        seats = start_seats([(braille, contracted)], self.book, self.session.core, self.inbox, [lang] * len(self.names),
                            lambda msg_id, **p: self.told.append(msg_id))
        assert seats, f"the braille seat was not taken: {self.told}"
        self.seat = seats[0]
        self.reads: list[str] = []  # every frame the braille player read, as text

    @property
    def match(self) -> Any:
        return self.session.match

    @property
    def core(self) -> Any:
        return self.session.core

    def start(self) -> None:
        self.pump()
        self.loop.start()
        self.settle()

    def close(self) -> None:
        self.book.close()
        self.seat.stop()
        self.display.close()

    # --- the loop, run here ---------------------------------------------------------------------
    def pump(self) -> None:
        while (item := self.inbox.get(timeout=0)) is not None:
            self.loop.feed(item)

    def post(self, seat: int, text: str) -> None:
        self.inbox.post(Line(text, seat, source="terminal"))
        self.pump()
        self.settle()

    def settle(self, timeout: float = WAIT) -> bytes:
        """Until the seat took every line and key and the display shows what the seat drew."""

        def settled() -> bytes | None:
            self.pump()
            if self.seat.settled() and self.inbox.empty():
                shown = self.seat.shown
                if shown and self.display.shown == shown:
                    return shown
            return None

        shown = until(settled, "the display did not settle", timeout)
        assert shown is not None
        return shown

    # --- the braille player's hands --------------------------------------------------------------
    def key(self, command: str) -> bytes:
        """One key of the display, sent once brltty took the previous one (its Virtual driver
        reads one command at a time); then the table answers and the display settles."""
        n = self.seat.keys_read
        self.display.command(command)
        until(lambda: self.seat.keys_read > n, f"brltty never passed {command!r}")
        shown = self.settle()
        self.reads.append(self.read(shown))
        return shown

    def route(self, cell: int) -> bytes:
        assert cell >= 1, "brltty's Virtual driver numbers routing keys from 1"
        return self.key(f"Route {cell}")

    def type(self, text: str) -> bytes:
        from companion.inputs.braille.render import word_cells

        for ch in text:
            if ch == " ":
                self.key("PassChar 0x20")
            else:
                dots = word_cells(ch, self.lang, False)
                self.key(f"PassDots {dots[0]:#x}")
        return self.key("Key_Enter")

    # --- what the display shows -----------------------------------------------------------------
    @property
    def status(self) -> int:
        return self.seat.view.status_width if self.seat.view is not None else 0

    def text_cells(self, shown: bytes | None = None) -> bytes:
        shown = self.display.shown if shown is None else shown
        return shown[self.status + 1 if self.status else 0:]

    def read(self, shown: bytes | None = None) -> str:
        return read_cells(self.text_cells(shown), self.lang, self.contracted)

    def status_text(self) -> str:
        return read_cells(self.display.shown[: self.status], self.lang, False)

    def offset(self) -> int:
        return self.status + 1 if self.status else 0

    def alert_shown(self) -> bool:
        cells = self.text_cells()
        return bool(cells) and cells[0] == ALERT_CELL

    def offer_cells(self) -> list[int]:
        """The display cells (from 0) of each choice mark shown now (a routing key there picks it)."""
        return [self.offset() + i for i, c in enumerate(self.text_cells()) if c == OFFER_CELL]

    def read_all(self, limit: int = 3000) -> str:
        """Pan on through what is not read yet; "alert" when an alert waits for an answer (it
        stays: answering it takes the reading back where it stopped), "done" at the end."""
        for _ in range(limit):
            view = self.seat.view
            assert view is not None
            if view.typing:
                self.key("Key_Escape")
            cur = view.current
            last = cur is not None and view.win >= len(view.windows(cur)) - 1
            if cur is not None and cur.holding:
                return "alert"
            if view.unread == 0 and last:
                return "done"
            self.key("FwinRt")
        raise AssertionError("the history never ended")


def said(table: BrailleTable, priority: Priority = Priority.TEXT) -> None:  # pragma: no cover - debugging aid
    print("\n".join(table.printed[-20:]))


__all__ = ["BrailleTable"]
