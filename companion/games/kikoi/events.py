"""KIKOI's events (issue #23): one frozen dataclass per kind, its wire type in `type`.

Seats are indices; a token is its id (« kigliss-sleep », `tokens.token_id`), a day its KIKOI's
name (« kigliss »). What only one player may know carries `to=(seat,)`: a deal, a draw, a
secret KIPIRAT, a board received (RULES KI-11). The JSON form is `companion.core.events`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.core import Event, declared


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    players: int
    deal: int
    first: int
    red_tokens: bool
    physical: bool


@dataclass(frozen=True)
class TokensDealt(Event):
    """A player's deal, to that player only (RULES KI-2)."""

    type: ClassVar[str] = "tokens_dealt"
    seat: int
    tokens: list[str]


@dataclass(frozen=True)
class TokenDealt(Event):
    """At a real table: one token a player says was dealt to them, to that player only."""

    type: ClassVar[str] = "token_dealt"
    seat: int
    token: str


@dataclass(frozen=True)
class DealDone(Event):
    type: ClassVar[str] = "deal_done"
    bag: int


@dataclass(frozen=True)
class RedsDue(Event):
    """At a real table: the red tokens are to go into the bag now (RULES KI-3)."""

    type: ClassVar[str] = "reds_due"
    seat: int


@dataclass(frozen=True)
class RedsPutIn(Event):
    type: ClassVar[str] = "reds_in"


@dataclass(frozen=True)
class TurnBegan(Event):
    type: ClassVar[str] = "turn_began"
    seat: int


@dataclass(frozen=True)
class PlayAgain(Event):
    type: ClassVar[str] = "play_again"
    seat: int


@dataclass(frozen=True)
class Asked(Event):
    type: ClassVar[str] = "asked"
    asker: int
    target: int
    token: str


@dataclass(frozen=True)
class KikonkAsked(Event):
    """A KIKONK's question to the whole table (RULES KI-9)."""

    type: ClassVar[str] = "kikonk_asked"
    asker: int
    token: str


@dataclass(frozen=True)
class KikonkFailed(Event):
    """Nobody had the token asked with a KIKONK; None: the asker passed instead of asking."""

    type: ClassVar[str] = "kikonk_failed"
    asker: int
    token: str | None


@dataclass(frozen=True)
class Given(Event):
    type: ClassVar[str] = "given"
    giver: int
    receiver: int
    token: str
    kikonk: bool


@dataclass(frozen=True)
class Refused(Event):
    type: ClassVar[str] = "refused"
    asker: int
    target: int
    token: str


@dataclass(frozen=True)
class RefusedCompleted(Event):
    """A token of a completed day is never given (RULES KIA-3)."""

    type: ClassVar[str] = "refused_completed"
    asker: int
    target: int
    token: str
    kikoi: str


@dataclass(frozen=True)
class TurnLost(Event):
    type: ClassVar[str] = "turn_lost"
    seat: int


@dataclass(frozen=True)
class BagEmptied(Event):
    type: ClassVar[str] = "bag_emptied"


@dataclass(frozen=True)
class BagEmptyNoDraw(Event):
    type: ClassVar[str] = "bag_empty_no_draw"
    seat: int


@dataclass(frozen=True)
class TokenDrawn(Event):
    """The token a player drew, to that player only."""

    type: ClassVar[str] = "token_drawn"
    seat: int
    token: str


@dataclass(frozen=True)
class GoodDraw(Event):
    type: ClassVar[str] = "good_draw"
    seat: int
    bag: int


@dataclass(frozen=True)
class BadDraw(Event):
    type: ClassVar[str] = "bad_draw"
    seat: int
    bag: int


@dataclass(frozen=True)
class DrewBlind(Event):
    type: ClassVar[str] = "drew_blind"
    seat: int
    bag: int


@dataclass(frozen=True)
class KikonkDrawn(Event):
    type: ClassVar[str] = "kikonk_drawn"
    seat: int


@dataclass(frozen=True)
class KitournDrawn(Event):
    type: ClassVar[str] = "kitourn_drawn"
    seat: int


@dataclass(frozen=True)
class BoardsRotated(Event):
    type: ClassVar[str] = "boards_rotated"


@dataclass(frozen=True)
class BoardReceived(Event):
    """After a KITOURN in the announcing variant: the board a player now has, to them only."""

    type: ClassVar[str] = "board_received"
    seat: int
    tokens: list[str]


@dataclass(frozen=True)
class KipiratDrawn(Event):
    """A secret KIPIRAT, to its holder only (RULES KI-11)."""

    type: ClassVar[str] = "kipirat_drawn"
    seat: int


@dataclass(frozen=True)
class Stolen(Event):
    type: ClassVar[str] = "stolen"
    pirate: int
    giver: int
    receiver: int
    token: str


@dataclass(frozen=True)
class DayCompleted(Event):
    type: ClassVar[str] = "day_completed"
    seat: int
    kikoi: str


@dataclass(frozen=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    scores: list[int]
    winners: list[int]
    days: list[list[str]]
    reason: str


EVENTS = declared(__name__)
