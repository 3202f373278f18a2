"""The games the companion knows, by name and by their French and English aliases.

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
    titles: dict[str, str]  # language -> title as spoken
    aliases: tuple[str, ...]
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
    GameEntry(
        "kikoi",
        {"fr": "Les 5 KIKOI", "en": "The 5 KIKOI"},
        ("5 kikoi", "les 5 kikoi", "cinq kikoi", "les cinq kikoi", "the 5 kikoi", "kikoi", "ki"),
        "companion.games.kikoi",
        3,
        4,
    ),
    GameEntry(
        "kissa",
        {"fr": "2kissa10", "en": "2kissa10"},
        ("2kissa10", "deux qui s additionnent", "kissa", "ks"),
        "companion.games.kissa",
        2,
        4,
    ),
    GameEntry(
        "goodfortune",
        {"fr": "Good Fortune", "en": "Good Fortune"},
        ("good fortune", "goodfortune", "porte bonheur", "gf"),
        "companion.games.goodfortune",
        2,
        2,
    ),
    GameEntry(
        "kaliko",
        {"fr": "Kaliko", "en": "Kaliko"},
        ("kaliko", "psyche paths", "ka"),
        "companion.games.kaliko",
        2,
        6,
    ),
)


class UnknownGame(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def find(name: str) -> GameEntry:
    """The game called `name` (id, title or alias; case, accents and spaces ignored)."""
    key = fold(name)
    squashed = key.replace(" ", "")
    for entry in GAMES:
        names = {entry.name, *entry.aliases, *entry.titles.values()}
        for candidate in names:
            folded = fold(candidate)
            if key == folded or squashed == folded.replace(" ", ""):
                return entry
    raise UnknownGame(name)


def names() -> list[str]:
    return [g.name for g in GAMES]
