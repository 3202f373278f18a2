"""The speech queue: what is said next, and what cuts what. Pure: no thread, no sound, no
sleep; the clock is handed in (tests give a counter).

The priorities are speech-dispatcher's, which screen-reader users know:

| new utterance →      | IMPORTANT      | MESSAGE        | TEXT           | NOTIFICATION   |
|----------------------|----------------|----------------|----------------|----------------|
| IMPORTANT playing    | waits (first)  | waits          | waits          | dropped        |
| MESSAGE playing      | waits (first)  | waits          | waits          | dropped        |
| TEXT playing         | **cuts it**    | waits          | waits          | dropped        |
| NOTIFICATION playing | **cuts it**    | **cuts it**    | **cuts it**    | dropped        |
| nothing playing      | said           | said           | said           | said if nothing waits |

* Waiting utterances are said by priority (IMPORTANT, MESSAGE, TEXT, NOTIFICATION), each
  priority in the order asked.
* Any new utterance other than a NOTIFICATION drops the NOTIFICATIONs waiting.
* `interrupt()` — a key press, a new line typed or said — cuts the TEXT or NOTIFICATION
  being said and removes those waiting; IMPORTANT and MESSAGE go on.
* `close()` cuts everything, IMPORTANT included.

Every method returns a `Decision`: the items that are over now (removed from the queue or
refused) and the item being played that must stop. The player (`audio_player.Player`)
applies it: it stops the sound and sets the items' `done` events.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.narration import Priority

CUT_BY_INPUT = (Priority.TEXT, Priority.NOTIFICATION)


@dataclass(eq=False)
class Item:
    """One thing to say (or play), as queued."""

    text: str
    priority: Priority
    earcon: str | None
    lang: str
    seq: int
    submitted: float  # the queue's clock when asked for
    cut: bool = False  # stopped part-way, or removed from the queue by interrupt() or close()
    dropped: bool = False  # never said: refused, or pushed out by something more useful
    started: float | None = None  # the queue's clock when the player took it
    ended: float | None = None  # the queue's clock when it was over (said, cut or dropped)
    done: threading.Event = field(default_factory=threading.Event)  # set by the player
    # ("text", str), ("pause", ms) and ("audio", (samples, rate)) parts; None: `text` alone
    segments: list[tuple[str, Any]] | None = None

    @property
    def over(self) -> bool:
        return self.ended is not None


@dataclass
class Decision:
    """What the player must do after a call to the queue."""

    over: list[Item] = field(default_factory=list)  # never to be played (or no more): finish them
    stop: Item | None = None  # the item being played: stop its sound now


def cuts_playing(new: Priority, playing: Priority) -> bool:
    """Whether a new utterance of priority `new` cuts the one being played."""
    if new == Priority.NOTIFICATION:
        return False
    return playing == Priority.NOTIFICATION or (new == Priority.IMPORTANT and playing == Priority.TEXT)


def refused(new: Priority, busy: bool) -> bool:
    """Whether a new utterance is dropped at once (a notification while anything is on)."""
    return new == Priority.NOTIFICATION and busy


class SpeechQueue:
    """The queue and the utterance being played; not thread-safe (the player locks it)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self._pending: list[Item] = []
        self.current: Item | None = None
        self.closed = False
        self._seq = 0

    # --- reading ---
    @property
    def pending(self) -> tuple[Item, ...]:
        """Waiting items, in the order they will be said."""
        return tuple(self._pending)

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self._pending)

    # --- asking ---
    def new_item(self, text: str, priority: Priority, earcon: str | None = None, lang: str = "fr",
                 segments: list[tuple[str, Any]] | None = None) -> Item:
        """An item stamped with the next number and the clock (not queued yet: `submit`)."""
        self._seq += 1
        return Item(text, Priority(priority), earcon, lang, self._seq, self.clock(), segments=segments)

    def submit(self, item: Item) -> Decision:
        """Queue `item`, or refuse it; cut or drop what it makes useless."""
        d = Decision()
        if self.closed or refused(item.priority, self.busy):
            item.dropped = True
            self._over(item, d)
            return d
        if item.priority != Priority.NOTIFICATION:
            for q in [q for q in self._pending if q.priority == Priority.NOTIFICATION]:
                self._pending.remove(q)
                q.dropped = True
                self._over(q, d)
        cur = self.current
        if cur is not None and not cur.cut and cuts_playing(item.priority, cur.priority):
            cur.cut = True
            d.stop = cur
        self._pending.append(item)
        self._pending.sort(key=lambda q: (q.priority, q.seq))
        return d

    def interrupt(self) -> Decision:
        """New input: cut TEXT and NOTIFICATION, the one being played and those waiting."""
        d = Decision()
        for q in [q for q in self._pending if q.priority in CUT_BY_INPUT]:
            self._pending.remove(q)
            q.cut = True
            self._over(q, d)
        cur = self.current
        if cur is not None and not cur.cut and cur.priority in CUT_BY_INPUT:
            cur.cut = True
            d.stop = cur
        return d

    def close(self) -> Decision:
        """Nothing more will be said: everything waiting is cut, and the item being played."""
        d = Decision()
        self.closed = True
        for q in self._pending:
            q.cut = True
            self._over(q, d)
        self._pending.clear()
        cur = self.current
        if cur is not None and not cur.cut:
            cur.cut = True
            d.stop = cur
        return d

    # --- the player ---
    def start_next(self) -> Item | None:
        """The player takes the next item (None: nothing waits). One at a time."""
        if self.current is not None:
            raise RuntimeError("the item being played is not finished")
        if not self._pending:
            return None
        item = self._pending.pop(0)
        item.started = self.clock()
        self.current = item
        return item

    def finish(self, item: Item) -> None:
        """The player is done with the item it took (said in full, or stopped)."""
        if item is not self.current:
            raise RuntimeError("finishing an item that is not being played")
        self.current = None
        item.ended = self.clock()

    def _over(self, item: Item, d: Decision) -> None:
        item.ended = self.clock()
        d.over.append(item)
