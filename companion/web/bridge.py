"""Until the table loop (branch `loop`) is merged: the current `Session` driven from one inbox,
with seats' pages and terminals as channels. `companion play --web` and `--join` use it; the
tests of the seat pages use it as their harness.

Once the table loop is in, this module goes: the loop consumes the same inbox, the table
attaches the same `SeatChannel`s on `Device(SeatClaimed(...))`, and the core applies the
routing rule (docs/private-channels.md, "For the lead").
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from companion.inbox import Closed, Device, Inbox, Line
from companion.narration import Priority, Raw, Utterance, catalog, say
from companion.session import Session

from .seats import SeatBook, SeatClaimed, SeatReleased, release_target


class ChannelSession(Session):
    """The session, saying each seat's lines to the channels attached to that seat."""

    channels: dict[int, list[Any]]

    def _say(self, utt: Utterance, listener: int | None, text: str | None = None) -> None:
        chans = getattr(self, "channels", {})
        if listener is not None and chans.get(listener):
            text = text if text is not None else self.render(utt, listener)
            for ch in chans[listener]:
                ch.deliver(text, private=True, priority=utt.priority, earcon=utt.earcon, lang=self._lang(listener))
            name = self.seats[listener].name
            note = catalog(self.lang).render(say("core.said_privately", player=Raw(name)))
            self.out(f"[{name}] {note}")
            return
        # A seat without a channel is said as before; the routing rule (a secret is never said
        # to a table shared by several players) is the table loop's core's (branch `loop`).
        super()._say(utt, listener, text)
        if listener is None:
            for seat, seat_chans in chans.items():
                seat_text = self.render(utt, seat)
                for ch in seat_chans:
                    ch.deliver(seat_text, private=False, priority=utt.priority, earcon=utt.earcon,
                               lang=self._lang(seat))


class Bridge:
    """One consumer of the inbox: lines to the session, seat claims to its channels."""

    def __init__(self, session: ChannelSession, inbox: Inbox, book: SeatBook) -> None:
        self.session = session
        self.inbox = inbox
        self.book = book
        session.channels = {}
        self.lock = threading.Lock()

    def keyboard(self, stream: Any = None) -> threading.Thread:
        """The table's keyboard: posts each typed line, then Closed at the end of input."""
        src = stream if stream is not None else sys.stdin

        def run() -> None:
            for line in src:
                self.inbox.post(Line(line.rstrip("\n"), None, source="keyboard"))
            self.inbox.post(Closed("keyboard"))

        t = threading.Thread(target=run, name="keyboard", daemon=True)
        t.start()
        return t

    def step(self, item: Any) -> None:
        s = self.session
        if isinstance(item, Line):
            if item.source == "keyboard":
                target = release_target(item.text, [seat.name for seat in s.seats])
                if target is not None:
                    freed = self.book.release(target)
                    s.tell("core.web.seat_released" if freed else "core.web.not_claimed", None,
                           priority=Priority.MESSAGE, player=Raw(s.seats[target].name))
                    return
            s.handle(item.text, item.seat)
        elif isinstance(item, Device) and isinstance(item.event, SeatClaimed):
            s.channels.setdefault(item.event.seat, []).append(item.event.channel)
            msg = "core.web.seat_claimed" if item.source == "web" else "core.web.terminal_claimed"
            s.tell(msg, None, priority=Priority.MESSAGE, player=Raw(s.seats[item.event.seat].name))
        elif isinstance(item, Device) and isinstance(item.event, SeatReleased):
            chans = s.channels.get(item.event.seat, [])
            if item.event.channel in chans:
                chans.remove(item.event.channel)
        elif isinstance(item, Closed) and item.source == "keyboard":
            s.running = False

    def run(self) -> None:
        while self.session.running:
            item = self.inbox.get(timeout=0.5)
            if item is not None:
                self.step(item)


__all__ = ["Bridge", "ChannelSession"]
