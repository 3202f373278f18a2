"""The games by the names players give them: titles and aliases are data, per language
(`companion/language/<lang>/games.json`), so a third language names the games in its own
table. The registry in `companion.core` knows the games by id only."""

from __future__ import annotations

from companion.core import GAMES, GameEntry, find
from companion.core.text import fold

from .tables import cached, groups, languages, spoken


def title(game: str, lang: str) -> str:
    """The game's title as spoken in `lang` (« Les 5 KIKOI »); English, then French, fill in."""
    titles = spoken("games", "titles", lang)
    return str(titles.get(game, game))


def aliases(game: str) -> tuple[str, ...]:
    """The game's other names (not its titles), every language at once, folded."""
    return groups("games", "aliases").get(game, ())


@cached
def _names(game: str) -> tuple[str, ...]:
    titles = tuple(fold(title(game, lang)) for lang in languages())
    return tuple(dict.fromkeys((game, *titles, *aliases(game))))


def find_game(name: str) -> GameEntry:
    """The game called `name`: its id, a title or an alias in any language (case, accents,
    spaces and hyphens ignored)."""
    key = fold(name)
    squashed = key.replace(" ", "")
    for entry in GAMES:
        for candidate in _names(entry.name):
            if key == candidate or squashed == candidate.replace(" ", ""):
                return entry
    return find(name)  # raises UnknownGame, saying the name
