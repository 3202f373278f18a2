"""Good Fortune's events (issue #23): one frozen dataclass per kind, its wire type in `type`.

Seats are 0 and 1; tiles are their §7 strings (`str(Tile)`), ends « left »/« right », faces
« small »/« large ». All information is public. The JSON form is `companion.core.events'`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.core import Event, declared
from companion.core.events import OPTIONAL, wire


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    deck: str
    physical: bool
    options: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class TileDeclared(Event):
    """At a real table, a tile of the deal told (RULES GFA-8): to the first player's lucky line
    (`zone` « line », with its `seat`) or to the central line (« central », with the charm
    showing on its `left` half in the domino_half variant, null otherwise)."""

    type: ClassVar[str] = "tile_declared"
    zone: str
    seat: int | None = field(default=None, metadata=OPTIONAL)
    tile: str
    count: int
    left: str | None = None

    def _fields(self) -> dict[str, Any]:
        out = super()._fields()
        if self.zone != "central":  # a line's tile has no left half to tell
            del out["left"]
        return out


@dataclass(frozen=True)
class LuckyLineDealt(Event):
    type: ClassVar[str] = "lucky_line_dealt"
    seat: int
    tiles: list[str]


@dataclass(frozen=True)
class CentralLineLaid(Event):
    type: ClassVar[str] = "central_line_laid"
    tiles: list[str]
    lefts: list[str] | None


@dataclass(frozen=True)
class MedallionTaken(Event):
    type: ClassVar[str] = "medallion_taken"
    seat: int
    face: str
    tile: str


@dataclass(frozen=True)
class RoundStarted(Event):
    """`ends`: the central line's end tiles; `shows`: in domino_half, the charms showing."""

    type: ClassVar[str] = "round_started"
    round: int
    holder: int
    face: str
    ends: list[str]
    shows: list[str | None] | None


@dataclass(frozen=True)
class TilePushed(Event):
    type: ClassVar[str] = "tile_pushed"
    seat: int
    tile: str
    round: int
    holder: bool


@dataclass(frozen=True)
class OrderDecided(Event):
    """Who places first this round, by the medallion's face (RULES GF-7)."""

    type: ClassVar[str] = "order_decided"
    face: str
    first: int
    second: int
    first_tile: str
    second_tile: str


@dataclass(frozen=True)
class PlacementChoice(Event):
    """The owner chooses where a tile goes (RULES GFA-4); `choices`: [{"end", "outer",
    "collects", "gone"}]."""

    type: ClassVar[str] = "placement_choice"
    seat: int
    tile: str
    choices: list[dict[str, Any]]


@dataclass(frozen=True)
class TilePlaced(Event):
    """A tile placed at an end, and the opposite end tile collected or discarded (GF-8)."""

    type: ClassVar[str] = "tile_placed"
    seat: int
    tile: str
    end: str
    outer: str | None
    against: str
    matched: list[str]
    forced: bool
    collected: str | None
    discarded: str | None
    line: list[str]
    lefts: list[str] | None
    score: int
    collection_size: int


@dataclass(frozen=True)
class MedallionPassed(Event):
    """The medallion after a round (RULES GF-10): `from_` (« from » in JSON) gave it to `seat`."""

    type: ClassVar[str] = "medallion_passed"
    from_: int = field(metadata=wire("from"))
    seat: int
    face: str
    passed: bool
    flipped: bool


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    scores: list[int]
    winners: list[int]
    breakdowns: list[list[dict[str, Any]]]
    tiebreak: str | None
    central: list[str]
    discarded: list[str]


EVENTS = declared(__name__)
