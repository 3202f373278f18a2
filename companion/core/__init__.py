"""Pure shared game core: no I/O, no clock, no randomness of its own, no translation."""

from .bot import Bot, RandomBot
from .events import (
    PUBLIC,
    SESSION_EVENTS,
    Event,
    EventDecodeError,
    Undone,
    declared,
    event_from_json,
)
from .game import ActionDecodeError, Game, IllegalAction, Option, Outcome
from .match import Match, Step
from .registry import GAMES, GameEntry, UnknownGame, find
from .rng import Rng
from .spec import GameSpec
from .text import fold, words

__all__ = [
    "ActionDecodeError",
    "Bot",
    "RandomBot",
    "GAMES",
    "PUBLIC",
    "SESSION_EVENTS",
    "Event",
    "EventDecodeError",
    "Game",
    "GameEntry",
    "GameSpec",
    "IllegalAction",
    "Match",
    "Option",
    "Outcome",
    "Rng",
    "Step",
    "Undone",
    "UnknownGame",
    "declared",
    "event_from_json",
    "find",
    "fold",
    "words",
]
