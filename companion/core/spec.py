"""One registration record per game (issue #23): what the session and the command line need
of a game, in one frozen value, `SPEC` in each `companion/games/<id>/__init__.py` — no probing
of a game package for optional names.

The UI and the bots are given as loaders (imported on first use: `companion --help` and a
save's scan stay fast on a Raspberry Pi); the rules are the class itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .game import Game
from .match import Match


def no_implied_actions(match: Match[Any, Any], schema: int) -> list[tuple[int, Any]]:
    """A game whose actions never changed: an older save implies no move."""
    return []


def options_as_given(options: dict[str, Any], humans: int) -> dict[str, Any]:
    """A game that decides nothing for a table before its rules are made."""
    return options


@dataclass(frozen=True)
class GameSpec:
    """A game's registration record.

    * `rules` — the pure `Game` subclass (its `options` are the variants);
    * `ui` — loads the `GameUI` subclass (`companion.games.base`; typed `type` here: the core
      imports no game code);
    * `bots` — loads `{"name": BotClass}`, the first the default;
    * `schema` — the actions' schema in saves, bumped when the moves change;
    * `implied_actions(match, schema)` — replaying a save of an older schema: the moves it did
      not record, due before the next recorded one;
    * `table_options(options, humans)` — what `companion play` decides for this table before
      the rules are made, so that the save keeps it (may raise ValueError with a `msg`).
    """

    rules: type[Game[Any, Any]]
    ui: Callable[[], type]
    bots: Callable[[], Mapping[str, Any]]  # name -> a Bot subclass
    schema: int = 1
    implied_actions: Callable[[Match[Any, Any], int], list[tuple[int, Any]]] = no_implied_actions
    table_options: Callable[[dict[str, Any], int], dict[str, Any]] = options_as_given


__all__ = ["GameSpec", "no_implied_actions", "options_as_given"]
