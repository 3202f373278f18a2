"""Les 5 KIKOI (RULES.md §3): rules, commands, narration and bots."""

from .rules import Rules

__all__ = ["Rules"]
