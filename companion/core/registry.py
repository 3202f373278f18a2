"""The games the companion knows, by id. What players call them (titles, aliases, every
language) is data: `companion.language.games` reads it from the phrase tables.

Entries name their package by path, so that asking for the list of games imports no game
(the command line must answer `--help` fast on a Raspberry Pi).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from .spec import GameSpec
from .text import fold


@dataclass(frozen=True)
class GameEntry:
    name: str  # the id used in save files and on the command line
    package: str  # e.g. "companion.games.kissa"
    min_players: int
    max_players: int

    def module(self, part: str = "") -> ModuleType:
        """Import the game's package, or one of its modules (`rules`, `bot`, ...)."""
        return importlib.import_module(f"{self.package}.{part}" if part else self.package)

    def spec(self) -> GameSpec:
        """The game's registration record (`SPEC` in its package)."""
        spec = self.module().SPEC
        assert isinstance(spec, GameSpec), f"{self.package}.SPEC is not a GameSpec"
        return spec


GAMES: tuple[GameEntry, ...] = (
    GameEntry("kikoi", "companion.games.kikoi", 3, 4),
    GameEntry("kissa", "companion.games.kissa", 2, 4),
    GameEntry("goodfortune", "companion.games.goodfortune", 2, 2),
    GameEntry("kaliko", "companion.games.kaliko", 2, 6),
)


class UnknownGame(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def find(name: str) -> GameEntry:
    """The game whose id is `name` (case and spaces ignored): saves and scripts name games by
    id; a player's name for a game goes through `companion.language.games.find_game`."""
    key = fold(name).replace(" ", "")
    for entry in GAMES:
        if key == entry.name:
            return entry
    raise UnknownGame(name)


def names() -> list[str]:
    return [g.name for g in GAMES]
