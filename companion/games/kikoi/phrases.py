"""What KIKOI players can say now: the templates and spoken forms of
`companion/language/<lang>/kikoi.json`, filled with the tokens, players and KIKOI of the state.

Canonical forms are the companion's own: a token is said as the narration says it
(« le Kigliss qui dort », "Kigliss sleeping"), so what a player hears they can say back.
"""

from __future__ import annotations

from typing import Any

from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, spoken

from .rules import ALL, DrawBlind, Drew, Pass, Pirate, RedsIn, Reply
from .rules import Ask as AskAction
from .tokens import KIKOI, MOMENTS, RED, is_white


def kikoi_name(k: int, lang: str) -> str:
    """A KIKOI's name as said (the first of its words in the table)."""
    return str(spoken("kikoi", "kikoi", lang)[KIKOI[k]][0])


def token_name(token: int, lang: str) -> str:
    """A token as the companion says it: « le Kigliss qui dort », "the Kikonk"."""
    forms = spoken("kikoi", "spoken", lang)
    if is_white(token):
        return fill(forms["token"][MOMENTS[token % 5]], kikoi=kikoi_name(token // 5, lang))
    return str(forms["red"][RED[token - 25]])


def _action(ui: GameUI, match: Match[Any, Any], action: Any, lang: str) -> tuple[str, str, dict[str, str]]:
    """(template key, phrase, slot values) of one legal action."""
    t = spoken("kikoi", "templates", lang)
    if isinstance(action, AskAction):
        token = token_name(action.token, lang)
        if action.target is ALL:
            return "ask_all", fill(t["ask_all"], token=token), {"token": token}
        player = match.players[action.target]
        return "ask", fill(t["ask"], token=token, player=player), {"token": token, "player": player}
    if isinstance(action, Drew):
        token = token_name(action.token, lang)
        return "drew", fill(t["drew"], token=token), {"token": token}
    if isinstance(action, DrawBlind):
        return "draw_blind", t["draw_blind"], {}
    if isinstance(action, Pass):
        return "pass", t["pass"], {}
    if isinstance(action, Reply):
        key = "give" if action.give else "refuse"
        return key, t[key], {}
    if isinstance(action, Pirate):
        key = "steal" if action.steal else "let_pass"
        return key, t[key], {}
    if isinstance(action, RedsIn):
        return "reds", t["reds"], {}
    raise TypeError(action)


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kikoi", "templates", lang)
    for key in ("board", "learn", "status") + (("log",) if ui.game.config["repeat_public_log"] else ()):
        b.rule(t[key], key)
        b.say(t[key], key)
    names = [kikoi_name(k, lang) for k in range(len(KIKOI))]
    b.rule(t["describe"], "describe")
    b.slot("kikoi", names)
    for name in names:
        b.say(fill(t["describe"], kikoi=name), "describe")
    for action in match.legal(seat):
        key, phrase, slots = _action(ui, match, action, lang)
        b.rule(t[key], "action")
        for name, value in slots.items():
            b.slot(name, [value])
        b.say(phrase, action_command(ui.game, action), t[key])
