"""2kissa10 (RULES.md §4): three numbers on a board of digits, one the sum or product of
the other two. `2kissa10` is an alias of `kissa`."""

from .rules import Kissa as Rules

__all__ = ["Rules"]
