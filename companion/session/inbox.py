"""The one inbox: every input is a value put on one queue, drained by one consumer.

Keyboard, token readers, voice, web pages and a second terminal only *post* values here;
the table loop takes them one at a time and hands each to the session core. Any number of
inputs are therefore safe together by construction: nothing but the loop touches the match.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Line:
    """A line of words: typed, heard by the recogniser, sent from a seat's page or terminal.

    `seat` is the seat it speaks for when the source knows it (a page bound to Anne, a
    reader bound to a seat, a microphone per seat), else None: the session works it out
    (`Paul: ...`, the player to move). `confidence` is the recogniser's, for voice only.

    What a recogniser adds (issue 24; the others leave them out): `heard`, the words as
    heard (printed « Entendu : … »); `command`, the typed command it already read with the
    game's grammar (the core hands it to the game's handler instead of reading `text` again);
    `talk`, the recogniser judged it talk that is no command (printed, nothing else);
    `nearest`, a sound near a command but not understood: the nearest sayable phrase;
    `rival_margin`, how far the sound stood above the nearest line of another command when
    decoded again with no prior (`SphinxRecognizer._rival_margin`: under `RIVAL_MARGIN`, read
    back), logged so that a read-back at the table can be told from a low confidence. Only the
    number: the rival's words are a line not legal now, which could tell what a player holds.
    """

    text: str
    seat: int | None = None
    source: str = "keyboard"
    confidence: float | None = None
    heard: str | None = None
    command: Any = field(default=None, compare=False)
    talk: bool = False
    nearest: str | None = None
    rival_margin: float | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Device:
    """Something a device reported (a token placed on a reader, a button pressed, a reader
    plugged in or lost, a page or terminal claiming or leaving a seat)."""

    event: Any
    source: str


@dataclass(frozen=True)
class Tick:
    """A timer tick: lets the loop notice time passing (the « je réfléchis » earcon)."""

    now: float


@dataclass(frozen=True)
class BotMove:
    """A bot's chosen action, posted back by the worker that searched for it.

    `ply` is the length of the match's history when the search started: a move for a
    state that has since changed (an undo, a resume) is stale and dropped.
    """

    seat: int
    action: Any
    ply: int


@dataclass(frozen=True)
class Closed:
    """An input closed (end of standard input, a page gone for good)."""

    source: str


@dataclass(frozen=True)
class SeatClaimed:
    """A `Device` event: a channel (a seat's page, a second terminal, a private speaker)
    now belongs to `seat`. Posted as `Device(SeatClaimed(seat, channel), source)`; the table
    attaches the channel in the loop's thread (see `companion.session.table.Channel`)."""

    seat: int
    channel: Any = field(compare=False)


@dataclass(frozen=True)
class SeatReleased:
    """A `Device` event: the channel left its seat (a page closed, a terminal gone)."""

    seat: int
    channel: Any = field(compare=False)


@dataclass(frozen=True)
class Notice:
    """A `Device` event: a sentence an input's edge has for the whole table, about itself and
    never about the game (« un autre appareil demande la place d'Anne »). The loop has the
    core say it (`SessionCore.say_now`), like the speakers' own descriptions."""

    utterance: Any = field(compare=False)


Input = Line | Device | Tick | BotMove | Closed


@dataclass
class Inbox:
    """A thread-safe FIFO of inputs. Producers `post`; the table loop alone `get`s."""

    _q: queue.Queue[Input] = field(default_factory=queue.Queue)

    def post(self, item: Input) -> None:
        self._q.put(item)

    def get(self, timeout: float | None = None) -> Input | None:
        """The next input, or None when `timeout` passed with nothing posted."""
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    def empty(self) -> bool:
        return self._q.empty()
