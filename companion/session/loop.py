"""The table loop: one thread drains the inbox, hands each input to the core, and has the
table carry out the outputs. Bots search in a worker thread and post their move back.

    inbox = Inbox()
    loop = TableLoop(core, table, inbox)          # worker=True: bots search in a thread
    threading.Thread(target=keyboard.pump, args=(inbox,), daemon=True).start()
    loop.run()                                     # until the core says Stop

While a bot searches, the loop waits on the inbox with a short timeout; each timeout is a
`Tick` for the core (after 0.4 s it asks for the « je réfléchis » earcon). Lines that do
not change the game (« répète », « état », « aide »...) are answered at once; any other line
waits in the core until the bot's move is in, so the order of what was typed is kept.

`worker=False` is the synchronous mode: a bot chooses inline, as soon as the core asks.
Tests and the demo use it; the outputs are the same, in the same order.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.session.inbox import BotMove, Device, Inbox, Input, Notice, Tick

from .core import SessionCore
from .outputs import Output, Think
from .table import Table

TICK_SECONDS = 0.1


class BotWorker:
    """One thread that runs bots' searches one at a time and posts each move to the inbox."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self._jobs: list[Think] = []
        self._cv = threading.Condition()
        self._closed = False
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="bot-worker", daemon=True)
        self._thread.start()

    def submit(self, think: Think) -> None:
        with self._cv:
            self._jobs.append(think)
            self._cv.notify()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._jobs and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                job = self._jobs.pop(0)
            try:
                action = job.bot.choose(job.state)
            except BaseException as exc:  # noqa: BLE001 - handed to the loop's thread, raised there
                self.error = exc
                self.inbox.post(Tick(time.monotonic()))
                return
            self.inbox.post(BotMove(job.seat, action, job.ply))

    def close(self) -> None:
        with self._cv:
            self._closed = True
            self._cv.notify()


class TableLoop:
    def __init__(
        self,
        core: SessionCore,
        table: Table,
        inbox: Inbox | None = None,
        *,
        worker: bool = True,
        clock: Callable[[], float] = time.monotonic,
        on_outputs: Callable[[list[Output]], None] | None = None,
    ) -> None:
        self.core = core
        self.table = table
        self.inbox = inbox or Inbox()
        self.clock = clock
        self.worker = BotWorker(self.inbox) if worker else None
        self.on_outputs = on_outputs  # sees every batch (tests, benches)

    def start(self) -> None:
        self.dispatch(self.core.start())

    def feed(self, item: Input) -> None:
        """One input, handled now on this thread (the loop's thread)."""
        if isinstance(item, Device) and isinstance(item.event, Notice):
            # an edge's sentence about itself (issue #25): said to the table, remembered by no one
            self.dispatch(self.core.say_now([item.event.utterance], remember=False))
            return
        self.dispatch(self.core.handle(item))

    def dispatch(self, outputs: list[Output]) -> None:
        """Carry out outputs; a `Think` starts a search (or, synchronously, plays it now)."""
        pending: list[list[Output]] = [outputs]
        while pending:
            batch = pending.pop(0)
            if self.on_outputs is not None:
                self.on_outputs(batch)
            self.table.deliver(batch)
            for o in batch:
                if not isinstance(o, Think):
                    continue
                if self.worker is None:
                    action = o.bot.choose(o.state)
                    pending.append(self.core.handle(BotMove(o.seat, action, o.ply)))
                else:
                    self.worker.submit(o)
                    pending.append(self.core.handle(Tick(self.clock())))  # the search's start time
        self.table.notices(self.core.verbosity)

    def run(self) -> None:
        """Drain the inbox until the session stops. Ctrl-C is the end of the keyboard's input."""
        try:
            while self.core.running:
                item = self.inbox.get(TICK_SECONDS if self.core.thinking is not None else None)
                if self.worker is not None and self.worker.error is not None:
                    raise self.worker.error
                self.feed(item if item is not None else Tick(self.clock()))
        except KeyboardInterrupt:
            from companion.session.inbox import Closed

            self.feed(Closed("keyboard"))
        finally:
            self.close()

    def run_until_idle(self, timeout: float = 60.0) -> None:
        """Drain what is posted until the inbox is empty and no bot searches (tests)."""
        deadline = time.monotonic() + timeout
        while self.core.running and time.monotonic() < deadline:
            if self.core.thinking is None and self.inbox.empty():
                return
            item = self.inbox.get(TICK_SECONDS)
            if self.worker is not None and self.worker.error is not None:
                raise self.worker.error
            self.feed(item if item is not None else Tick(self.clock()))

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()


__all__ = ["BotWorker", "TableLoop"]
