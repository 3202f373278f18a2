"""Kaliko (docs/rules.md §1): hexagonal path tiles, played and explored by ear."""

from companion.core import GameSpec

from .bot import BOTS
from .commands import KalikoUI as UI
from .rules import Kaliko as Rules

SPEC = GameSpec(rules=Rules, ui=lambda: UI, bots=lambda: BOTS)

__all__ = ["BOTS", "SPEC", "Rules", "UI"]
