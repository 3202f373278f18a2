"""A real KIKOI game driven from one inbox by the table loop, with seats' pages and terminals
as channels: the wiring of `companion play --web` (companion/cli/runner.py `_run`)."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli.runner import make_session
from companion.core import find
from companion.inputs.web.hub import WebHub
from companion.inputs.web.seats import SeatBook, release_target
from companion.narration import catalog
from companion.session import Session, TableLoop
from companion.session.inbox import Inbox, Tick
from companion.session.transcript import load


class WatchedInbox(Inbox):
    """The table's inbox, waking its waiters whenever an input is posted or handled, so that
    tests wait on these events, never on a clock (issue #25)."""

    def __init__(self) -> None:
        super().__init__()
        self.cv = threading.Condition()
        self.posted = 0
        self.handled = 0

    def post(self, item: Any) -> None:
        with self.cv:
            self.posted += 1
            super().post(item)
            self.cv.notify_all()

    def done(self) -> None:
        with self.cv:
            self.handled += 1
            self.cv.notify_all()

    def poke(self) -> None:
        with self.cv:
            self.cv.notify_all()

    def wait(self, pred: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
        """Until `pred()` holds (checked after each input posted or handled, each line
        printed); the timeout only bounds a test that would otherwise hang."""
        with self.cv:
            assert self.cv.wait_for(pred, timeout), what


class Table:
    """Anne and Bruno (humans) and a bot at a KIKOI table; `printed` is the table's screen."""

    def __init__(self, seed: int = 4, names: tuple[str, ...] = ("Anne", "Bruno"), bots: int = 1,
                 web: bool = True, socket: Path | None = None, **options: Any) -> None:
        entry = find("kikoi")
        self.game, ui, bot_kinds = load(entry, **options)
        kind = next(iter(bot_kinds))
        self.names = [*names, *(f"Robot {i + 1}" for i in range(bots))]
        kinds: list[str | None] = [None] * len(names) + [kind] * bots
        self.seed = seed
        ns = argparse.Namespace(verbosity=None, log=None)
        self.session: Session = make_session(entry, self.game, ui, bot_kinds, self.names, kinds, seed,
                                             {}, None, None, ns, "fr")
        self.printed: list[str] = []
        self.inbox = WatchedInbox()

        def out(text: str) -> None:
            self.printed.append(text)
            self.inbox.poke()

        self.session.table.out = out
        humans = list(range(len(names)))
        self.book = SeatBook(self.names, self.inbox, humans)
        self.hub = WebHub(self.inbox, self.names, humans=humans, lang="fr", game_title="Les 5 KIKOI",
                          port=0, book=self.book) if web else None
        self.join = None
        if socket is not None:
            from companion.inputs.terminal import JoinServer

            self.join = JoinServer(self.book, ["fr"] * len(self.names), socket)
        self.session.core.release_target = lambda text: release_target(text, self.names)
        self.session.table.on_release = self.book.release
        self.loop = TableLoop(self.session.core, self.session.table, self.inbox, worker=False)
        feed = self.loop.feed

        def fed(item: Any) -> None:
            try:
                feed(item)
            finally:
                self.inbox.done()

        self.loop.feed = fed  # type: ignore[method-assign]
        self.thread: threading.Thread | None = None

    def open(self) -> None:
        if self.hub is not None:
            self.hub.start()
        if self.join is not None:
            self.join.start()

    def start(self) -> None:
        """Take the claims already made, then start the game and the loop in its thread."""
        while not self.inbox.empty():
            item = self.inbox.get()
            if item is not None:
                self.loop.feed(item)
        self.loop.start()
        self.thread = threading.Thread(target=self.loop.run, name="table-loop", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.session.running = False
        self.inbox.post(Tick(0.0))  # wakes the loop, which sees the session stopped
        if self.thread is not None:
            self.thread.join(5)
        if self.hub is not None:
            self.hub.stop()
        if self.join is not None:
            self.join.stop()

    def request_phrase(self, seat: int) -> str:
        """A legal request of `seat` now, as typed in French."""
        from companion.games.kikoi import narration
        from companion.games.kikoi.rules import Ask

        legal = self.game.legal_actions(self.session.match.state, seat)
        ask = next(a for a in legal if isinstance(a, Ask) and a.target is not None)
        token = catalog("fr").text(narration.tok(ask.token))
        return f"demande à {self.names[ask.target]} {token}"

    def private_texts(self, seat: int) -> list[str]:
        claim = self.book.claimed(seat)
        assert claim is not None
        return [h.text for h in claim.channel.since(0) if h.private]

    def secret_texts(self, seat: int) -> list[str]:
        """`seat`'s private lines that no other seat heard alike (« Ton plateau : 4 jetons. »
        is said privately to each, and is nobody's secret)."""
        others = {t for s in range(len(self.names)) if s != seat and self.book.claimed(s) is not None
                  for t in self.private_texts(s)}
        return [t for t in self.private_texts(seat) if t not in others]

    def wait_idle(self) -> None:
        """Until every input posted so far has been handled (and its outputs delivered)."""
        self.inbox.wait(lambda: self.inbox.handled >= self.inbox.posted, "the table did not take its inputs")

    def wait(self, pred: Callable[[], bool], what: str) -> None:
        self.inbox.wait(pred, what)


__all__ = ["Table"]
