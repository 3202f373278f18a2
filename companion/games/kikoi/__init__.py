"""Les 5 KIKOI (RULES.md §3): rules, commands, narration and bots."""

from __future__ import annotations

from typing import Any

from .bot import BOTS
from .commands import KikoiUI as UI
from .rules import Rules


def table_options(options: dict[str, Any], humans: int) -> dict[str, Any]:
    """The options a game with `humans` people at the table is played with (before the rules
    are made, so that the save keeps them): one human among bots is asked « kipirat ? » only
    when they hold the KIPIRAT and may steal (`kipirat_window=holder`; RULES KI-11: nobody else
    hears the question, so it names nobody). Several humans: everyone is asked, the default.
    An option given by the players is kept. docs/private-channels.md (KIKOI) says why."""
    if humans == 1 and "kipirat_window" not in options:
        return {**options, "kipirat_window": "holder"}
    return options


__all__ = ["BOTS", "Rules", "UI", "table_options"]
