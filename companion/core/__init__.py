"""Pure shared game core: no I/O, no clock, no randomness of its own, no translation."""

from .bot import Bot, RandomBot
from .game import PUBLIC, Event, Game, IllegalAction, Option, Outcome
from .match import Match, Step
from .registry import GAMES, GameEntry, UnknownGame, find
from .rng import Rng
from .spec import GameSpec
from .text import fold, words

__all__ = [
    "Bot",
    "RandomBot",
    "GAMES",
    "PUBLIC",
    "Event",
    "Game",
    "GameEntry",
    "GameSpec",
    "IllegalAction",
    "Match",
    "Option",
    "Outcome",
    "Rng",
    "Step",
    "UnknownGame",
    "find",
    "fold",
    "words",
]
