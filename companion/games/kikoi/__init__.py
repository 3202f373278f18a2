"""Les 5 KIKOI (RULES.md §3): rules, commands, narration and bots."""

from .bot import BOTS
from .commands import KikoiUI as UI
from .rules import Rules

__all__ = ["BOTS", "Rules", "UI"]
