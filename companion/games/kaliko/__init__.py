"""Kaliko (docs/rules.md §1): hexagonal path tiles, played and explored by ear."""

from .bot import BOTS
from .commands import KalikoUI as UI
from .rules import Kaliko as Rules

__all__ = ["BOTS", "Rules", "UI"]
