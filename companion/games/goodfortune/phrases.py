"""What Good Fortune players can say now: the templates and spoken forms of
`companion/language/<lang>/goodfortune.json`, filled with the numbers, ends and charms of the
state. Numbers are said in words (« douze », "twelve"); digits are understood as well.
"""

from __future__ import annotations

from typing import Any

from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, spell, spoken

from .rules import Declare, Place, Push
from .tiles import N_TILES

QUERIES = (
    ("central", "central"), ("my_line", "line"), ("their_line", "line"), ("my_collection", "collection"),
    ("their_collection", "collection"), ("detail", "collection"), ("medallion", "medallion"),
    ("discards", "discards"), ("options", "options"), ("deck", "deck"), ("status", "status"),
)


def charm_name(charm: str, lang: str) -> str:
    return str(spoken("goodfortune", "spoken", lang)["charm"][charm])


def end_name(end: str, lang: str) -> str:
    return str(spoken("goodfortune", "spoken", lang)["end"][end])


def _action(ui: GameUI, match: Match[Any, Any], seat: int, action: Any, lang: str) -> tuple[str, dict[str, str]]:
    """(template key, slot values) of one legal action."""
    if isinstance(action, Declare):
        tile = spell(action.number, lang)
        if action.left is not None:
            return "declare_charm", {"tile": tile, "charm": charm_name(action.left, lang)}
        return "declare", {"tile": tile}
    if isinstance(action, Push):
        return "push", {"tile": spell(action.number, lang)}
    if isinstance(action, Place):
        same_end = [a for a in match.legal(seat) if isinstance(a, Place) and a.end == action.end]
        if action.outer is not None and len({a.outer for a in same_end}) > 1:
            return "place_outer", {"end": end_name(action.end, lang), "charm": charm_name(action.outer, lang)}
        return "place", {"end": end_name(action.end, lang)}
    raise TypeError(action)


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("goodfortune", "templates", lang)
    for key, command in QUERIES:
        if key == "medallion" and match.state.phase == "declare":
            continue
        b.rule(t[key], command)
        b.say(t[key], command)
    b.rule(t["where"], "where")
    numbers = [spell(n, lang) for n in range(1, N_TILES + 1)]
    b.slot("number", numbers)
    for n in numbers:
        b.say(fill(t["where"], number=n), "where")
    for action in match.legal(seat):
        key, slots = _action(ui, match, seat, action, lang)
        for name, value in slots.items():
            b.slot(name, [value])
        b.rule(t[key], "action")
        b.say(fill(t[key], **slots), action_command(ui.game, action), t[key])
