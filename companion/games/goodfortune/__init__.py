"""Good Fortune: two-player charm dominoes (RULES.md §2)."""

from __future__ import annotations

from typing import Any

from .deck import Deck
from .rules import GoodFortune


class Rules(GoodFortune):
    """The rules with deck files: the `deck` option is `synthetic` or a deck file's path."""

    def load_deck(self, spec: str) -> Deck:
        from .deckfile import load

        return load(spec)


def __getattr__(name: str) -> Any:  # UI and BOTS are imported on first use (fast CLI start)
    if name == "UI":
        from .commands import GoodFortuneUI

        return GoodFortuneUI
    if name == "BOTS":
        from .bot import BOTS

        return BOTS
    raise AttributeError(name)


__all__ = ["Rules", "UI", "BOTS"]
