"""Les 5 KIKOI (docs/rules.md §3): rules, commands, narration and bots."""

from __future__ import annotations

from typing import Any

from companion.core import GameSpec

from .bot import BOTS
from .commands import KikoiUI as UI
from .rules import REDS, RedsIn, Rules

# The actions' schema in saves (journal start line). 2: a physical table with red tokens says
# « prêt » once they are in the bag after the deal (RULES KI-3), a move of its own (`RedsIn`).
ACTION_SCHEMA = 2


def implied_actions(match: Any, schema: int) -> list[tuple[int, Any]]:
    """Replaying a save written with an older schema: the moves it did not record because they
    did not exist then, due before the next recorded one. Schema 1 dealt with the red tokens
    already in the bag, so a replay reaching the `reds` phase takes them as put in."""
    state = match.state
    if schema < 2 and not state.over and state.phase == REDS:
        return [(state.actor, RedsIn())]
    return []


def table_options(options: dict[str, Any], humans: int) -> dict[str, Any]:
    """The options a game with `humans` people at the table is played with (before the rules
    are made, so that the save keeps them): one human among bots is asked « kipirat ? » only
    when they hold the KIPIRAT and may steal (`kipirat_window=holder`; RULES KI-11: nobody else
    hears the question, so it names nobody). Several humans: everyone is asked, the default.
    An option given by the players is kept. docs/private-channels.md (KIKOI) says why."""
    if humans == 1 and "kipirat_window" not in options:
        return {**options, "kipirat_window": "holder"}
    return options


SPEC = GameSpec(rules=Rules, ui=lambda: UI, bots=lambda: BOTS, schema=ACTION_SCHEMA,
                implied_actions=implied_actions, table_options=table_options)

__all__ = ["ACTION_SCHEMA", "BOTS", "SPEC", "Rules", "UI", "implied_actions", "table_options"]
