"""Kaliko's events (issue #23): one frozen dataclass per kind, its wire type in `type`.

Seats are indices, tiles their numbers (1-85) or, on the board, their segment strings; a
cell is `[q, r]`. A hand's tiles go to that player only (`to=(seat,)`). The JSON form is
`companion.core.events`'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.core import Event, declared
from companion.core.events import OPTIONAL


@dataclass(frozen=True)
class GameStarted(Event):
    """`start`: {"cell", "tile", "number"} of the start tile, None at a real table until told;
    `physical` is there only at a real table (RULES K-4, K-5)."""

    type: ClassVar[str] = "game_started"
    players: int
    start: dict[str, Any] | None
    first: int
    bag: int
    physical: bool | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True)
class HandDealt(Event):
    type: ClassVar[str] = "hand_dealt"
    seat: int
    tiles: list[int]


@dataclass(frozen=True)
class StartTold(Event):
    """At a real table: the start tile laid at the centre (RULES K-4)."""

    type: ClassVar[str] = "start_told"
    tile: str
    number: int
    bag: int


@dataclass(frozen=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int
    passes: int


@dataclass(frozen=True)
class TilesExchanged(Event):
    type: ClassVar[str] = "tiles_exchanged"
    seat: int
    n: int
    bag: int


@dataclass(frozen=True)
class ExchangeDrawn(Event):
    """An exchange's tiles, to its player only; `first`: the hand position of the first tile
    drawn (they go at the end)."""

    type: ClassVar[str] = "exchange_drawn"
    seat: int
    returned: list[int]
    drawn: list[int]
    first: int


@dataclass(frozen=True)
class TilesPlayed(Event):
    """`placements`: [{"cell", "tile", "number"}]; `paths`: the scored paths (RULES K-18)."""

    type: ClassVar[str] = "tiles_played"
    seat: int
    placements: list[dict[str, Any]]
    score: int
    paths: list[dict[str, Any]]
    total: int


@dataclass(frozen=True)
class TilesDrawn(Event):
    """A draw, said to all as a count; `left`: at a real table, the tiles still to tell."""

    type: ClassVar[str] = "tiles_drawn"
    seat: int
    n: int
    bag: int
    left: int | None = field(default=None, metadata=OPTIONAL)


@dataclass(frozen=True)
class TilesDrawnPrivate(Event):
    type: ClassVar[str] = "tiles_drawn_private"
    seat: int
    tiles: list[int]
    first: int


@dataclass(frozen=True)
class TilesTold(Event):
    """At a real table: the tiles a player told, read back to them alone."""

    type: ClassVar[str] = "tiles_told"
    seat: int
    tiles: list[int]
    first: int


@dataclass(frozen=True)
class TilesReturned(Event):
    """At a real table: an exchange's old tiles go back into the bag after the draw (K-7)."""

    type: ClassVar[str] = "tiles_returned"
    seat: int
    n: int
    bag: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    scores: list[int]
    winners: list[int]
    reason: str | None
    penalties: list[int]


EVENTS = declared(__name__)
