"""2kissa10 (RULES.md §4): three numbers on a board of digits, one the sum or product of
the other two. `2kissa10` is an alias of `kissa`."""

from .bot import BOTS
from .commands import KissaUI as UI
from .rules import Kissa as Rules

__all__ = ["BOTS", "Rules", "UI"]
