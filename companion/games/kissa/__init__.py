"""2kissa10 (docs/rules.md §4): three numbers on a board of digits, one the sum or product of
the other two. `2kissa10` is an alias of `kissa`."""

from companion.core import GameSpec

from .bot import BOTS
from .commands import KissaUI as UI
from .rules import Kissa as Rules

# 2: a token told at a physical table (`{"type": "token", "digit": 7}`, RULES T-1); saves of
# schema 1 (rows only) resume unchanged.
ACTION_SCHEMA = 2

SPEC = GameSpec(rules=Rules, ui=lambda: UI, bots=lambda: BOTS, schema=ACTION_SCHEMA)

__all__ = ["ACTION_SCHEMA", "BOTS", "SPEC", "Rules", "UI"]
