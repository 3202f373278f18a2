"""Good Fortune: two-player charm dominoes (docs/rules.md §2)."""

from __future__ import annotations

from typing import Any

from companion.core import GameSpec

from .deck import Deck
from .rules import GoodFortune


class Rules(GoodFortune):
    """The rules with deck files: the `deck` option is `synthetic` or a deck file's path."""

    def load_deck(self, spec: str) -> Deck:
        from .deckfile import load

        return load(spec)


def table_options(options: dict[str, Any], humans: int) -> dict[str, Any]:
    """The options `companion play` starts a game with (before the rules are made; the save
    keeps what they resolve to). At a physical table the real box's tiles are scored: never
    with the invented synthetic deck unless asked for by name (RULES GFA-8, §6.1). Without an
    owner's deck this raises `NeedsOwnerDeck`, whose message says how to enter it once."""
    from .deck import DEFAULT
    from .deckfile import NeedsOwnerDeck

    physical = Rules.options["physical"].coerce(options.get("physical", False))
    if physical and options.get("deck", DEFAULT) == DEFAULT:
        from .deckfile import default_path

        if default_path() is None:
            raise NeedsOwnerDeck
    return options


def _ui() -> type:
    from .commands import GoodFortuneUI

    return GoodFortuneUI


def _bots() -> Any:
    from .bot import BOTS

    return BOTS


SPEC = GameSpec(rules=Rules, ui=_ui, bots=_bots, table_options=table_options)


def __getattr__(name: str) -> Any:  # UI and BOTS are imported on first use (fast CLI start)
    if name == "UI":
        return _ui()
    if name == "BOTS":
        return _bots()
    raise AttributeError(name)


__all__ = ["Rules", "UI", "BOTS", "SPEC", "table_options"]
