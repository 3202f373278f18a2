"""2kissa10's events (issue #23): one frozen dataclass per kind, its wire type in `type`.

Cells are named as in saves (« C4 »), rows counted from 1; all information is public. The
JSON form is `companion.core.events`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import Event, declared


@dataclass(frozen=True)
class EntryStarted(Event):
    """At a real table: the board is to be told, row by row (RULES T-1)."""

    type: ClassVar[str] = "entry_started"
    players: int


@dataclass(frozen=True)
class BoardDealt(Event):
    type: ClassVar[str] = "board_dealt"
    board: list[str]


@dataclass(frozen=True)
class OrderDrawn(Event):
    type: ClassVar[str] = "order_drawn"
    first: int
    players: int
    order: list[int]


@dataclass(frozen=True)
class RowEntered(Event):
    """A row told whole (« . » an empty cell); `missing`: the rows still to tell."""

    type: ClassVar[str] = "row_entered"
    row: int
    digits: str
    missing: list[int]


@dataclass(frozen=True)
class TokenPlaced(Event):
    """A token told by the table, in the next cell; `left`: cells left in its row."""

    type: ClassVar[str] = "token_placed"
    cell: str
    digit: int
    row: int
    left: int


@dataclass(frozen=True)
class PlayStarted(Event):
    """`unusual`: [{"digit", "count"}] of the digits not told ten times."""

    type: ClassVar[str] = "play_started"
    first: int
    tokens: int
    unusual: list[dict[str, Any]]


@dataclass(frozen=True)
class MovePlayed(Event):
    type: ClassVar[str] = "move_played"
    seat: int
    op: str
    operands: list[list[str]]
    result: list[str]
    values: list[int]
    base: int
    product: bool
    cleared: bool
    score: int
    total: int
    left: int


@dataclass(frozen=True)
class Stuck(Event):
    """No legal move for the player to move: the tokens left count twice against `penalised`
    (RULES T-9)."""

    type: ClassVar[str] = "stuck"
    seat: int
    penalised: int
    tokens: int
    remaining: int
    penalty: int
    total: int


@dataclass(frozen=True)
class Declared(Event):
    """A player declared they see no move (the same reckoning as `Stuck`)."""

    type: ClassVar[str] = "declared"
    seat: int
    penalised: int
    tokens: int
    remaining: int
    penalty: int
    total: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    scores: list[int]
    winners: list[int]
    reason: str | None


EVENTS = declared(__name__)
