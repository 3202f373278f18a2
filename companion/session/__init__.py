"""The one authoritative session: a core that does no I/O, the table that carries out its
outputs, and the loop that feeds it from one inbox.

* `core.SessionCore` — `handle(input) -> list[Output]`: inputs change the match; outputs
  are data (`outputs`: `Say`, `Interrupt`, `Record`, `InputTaken`, `JournalAction`, ...).
* `table.Table` — renders per listener, prints, speaks on the table's speaker and on the
  seats' channels (`table.Channel`), writes the journal and the `--log` file.
* `loop.TableLoop` — drains the `companion.session.inbox.Inbox` in one thread; bots search in a
  worker and post their move back.

`Session` below is the three together in synchronous mode (a bot chooses inline): one line
in, everything it causes printed and said before `handle` returns. Typed-game tests and
scripts use it; `companion play` runs the loop with its worker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core import Bot, Match
from companion.games.base import GameUI, Intent
from companion.narration import Priority, Utterance, Verbosity
from companion.session.inbox import Device, Line, SeatClaimed

from .core import LastSaid, RuleReader, Seat, SessionCore
from .loop import TableLoop
from .outputs import Output
from .table import Channel, SpeakerChannel, Table


class Session:
    """A session in synchronous mode: `handle(line, seat)` returns once all is said."""

    def __init__(
        self,
        game_name: str,
        ui: GameUI,
        match: Match[Any, Any],
        seats: list[Seat],
        *,
        lang: str = "fr",
        verbosity: Verbosity = Verbosity.NORMAL,
        speaker: Any = None,
        journal: Any = None,
        log: Path | None = None,
        log_private: bool = False,
        out: Callable[[str], None] = print,
        rule_reader: RuleReader | None = None,
        private_policy: str = "table",
        worker: bool = False,
    ) -> None:
        self.core = SessionCore(game_name, ui, match, seats, lang=lang, verbosity=verbosity,
                                rule_reader=rule_reader, private_policy=private_policy)
        self.table = Table([s.name for s in seats], lang=lang, speaker=speaker, out=out, journal=journal, log=log,
                           log_private=log_private)
        for i, s in enumerate(seats):
            if s.speaker is not None:
                self.table.attach(i, SpeakerChannel(s.speaker))
        self.loop = TableLoop(self.core, self.table, worker=worker)

    # --- the core's state, for scripts and tests
    @property
    def match(self) -> Match[Any, Any]:
        return self.core.match

    @property
    def lang(self) -> str:
        return self.core.lang

    @property
    def ui(self) -> GameUI:
        return self.core.ui

    @property
    def seats(self) -> list[Seat]:
        return self.core.seats

    @property
    def pending(self) -> dict[int, Intent]:
        return self.core.pending

    @property
    def running(self) -> bool:
        return self.core.running

    @running.setter
    def running(self, value: bool) -> None:
        self.core.running = value

    @property
    def speaker(self) -> Any:
        return self.table.speaker

    @property
    def journal(self) -> Any:
        return self.table.journal

    @journal.setter
    def journal(self, value: Any) -> None:
        self.table.journal = value

    @property
    def resumed(self) -> bool:
        return self.core.resumed

    @resumed.setter
    def resumed(self, value: bool) -> None:
        self.core.resumed = value

    @property
    def helper(self) -> Callable[[int], Bot] | None:
        return self.core.helper

    @helper.setter
    def helper(self, value: Callable[[int], Bot] | None) -> None:
        self.core.helper = value

    # --- driving it
    def start(self, resumed: bool = False) -> None:
        self.core.resumed = self.core.resumed or resumed
        self.loop.start()

    def start_or_resume(self) -> None:
        self.loop.start()

    def handle(self, line: str, seat: int | None = None, *, source: str = "keyboard",
               confidence: float | None = None) -> bool:
        """One line of input. Returns False when the session should end (quit)."""
        self.loop.feed(Line(line, seat, source, confidence))
        return self.core.running

    def claim(self, seat: int, channel: Any, source: str = "table") -> None:
        """Give `seat` a channel (as a page or terminal does through the inbox)."""
        self.loop.feed(Device(SeatClaimed(seat, channel), source))

    def emit(self, utts: list[Utterance], *, remember: bool = True) -> None:
        self.loop.dispatch(self.core.say_now(utts, remember))

    def tell(self, msg_id: str, seat: int | None = None, priority: Priority = Priority.TEXT, **params: Any) -> None:
        from companion.narration import say

        self.emit([say(msg_id, priority=priority, to=seat, **params)])


__all__ = ["Channel", "LastSaid", "Output", "RuleReader", "Seat", "Session", "SessionCore", "SpeakerChannel", "Table",
           "TableLoop"]
