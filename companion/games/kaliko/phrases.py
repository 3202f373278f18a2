"""What Kaliko players can say now, in forms the command parser (`commands.py`) reads.

Templates are data (`companion/phrases/<lang>/kaliko.json`). Cells are said as the companion
says them (« 1 h 1 puis 3 h 1 », `notation.cell_msg` rendered in the listener's language).

A play is built step by step (take, place, turn, play); said in one line, its steps are
joined by « ; » or the table's separator (« ensuite », "and then"):
« pose 2 en 1 h 1 puis 3 h 1 ensuite bleu 3 ensuite joue ». `read_steps` reads such a line
as the steps one after the other (`KalikoUI.parse` calls it first).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from companion.core import IllegalAction, Match
from companion.games.base import Act, Answer, GameUI, Intent, Refuse, action_command
from companion.narration import Priority, Raw, catalog, say
from companion.phrases import LIMIT, Builder, cached, fill, pick, spoken, words

from .finder import all_plays, constraints_key, open_ends
from .notation import cell_msg, clock
from .rules import Exchange, Pass, Play, packed_board
from .tiles import COLOUR, COLOURS, FITS, ORIENTED, OT_NUMBER, ROTATIONS, cell_id, cell_qr, oriented

FULL_HAND = 4  # every legal action is listed up to this hand size; beyond, a sample
QUERIES = ("hand", "cell", "ends", "board", "score", "bag", "hint", "best", "moves", "draft", "clear")
HOURS = (1, 3, 5, 7, 9, 11)


@cached
def _separator() -> re.Pattern[str]:
    alts = sorted(words("kaliko", "separator"), key=len, reverse=True)
    return re.compile("|".join(r"\b" + re.escape(a).replace(r"\ ", r"\s+") + r"\b" for a in alts) or r"(?!)", re.I)


def split_steps(text: str) -> list[str]:
    """The steps of a line, split at « ; » and at the separator words (« ensuite », "and then")."""
    parts: list[str] = []
    for chunk in text.split(";"):
        parts.extend(_separator().split(chunk))
    return [p.strip() for p in parts if p.strip()]


def read_steps(ui: GameUI, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
    """A line of several steps, each parsed in turn; the last step's intent (a play: the Act).
    A step not understood or refused stops there and says so. None: a line of one step."""
    steps = split_steps(text)
    if len(steps) < 2:
        return None
    intent: Intent | None = None
    for step in steps:
        intent = ui.parse(step, match, seat)
        if intent is None:
            return Refuse([say("core.not_understood", Priority.IMPORTANT, "error", seat, text=Raw(step))])
        if not isinstance(intent, (Answer, Act)):
            return intent
    return intent


def cell_name(q: int, r: int, lang: str) -> str:
    return catalog(lang).text(cell_msg(q, r))


def play_steps(ui: GameUI, match: Match[Any, Any], seat: int, play: Play, lang: str) -> list[str]:
    """The steps that build `play` from an empty draft, as the parser reads them: each tile
    placed (« pose 2 en 1 h 1 puis 3 h 1 »), turned to its orientation by one colour and
    hour when that names it (« bleu 3 »), else by « tourne », then « joue »."""
    t = spoken("kaliko", "templates", lang)
    colours = spoken("kaliko", "colour", lang)
    hand = list(match.state.hands[seat])
    board = dict(packed_board(match.state.board))
    steps: list[str] = []
    for q, r, text in play.placements:
        ot = oriented(text)
        n = OT_NUMBER[ot]
        c = cell_id(q, r)
        fitting = [o for o in ROTATIONS[n] if o in FITS[constraints_key(board, c)]]
        steps.append(fill(t["place"], pos=str(hand.index(n) + 1), cell=cell_name(q, r, lang)))
        if fitting and fitting[0] != ot:
            for e in range(6):
                good = [o for o in ROTATIONS[n] if COLOUR[o][e] == COLOUR[ot][e] and o in fitting]
                if good and good[0] == ot and fitting[0] not in good:
                    steps.append(fill(t["orient"], colour=colours[COLOURS[COLOUR[ot][e] - 1]], hour=str(clock(e))))
                    break
            else:
                steps.extend([t["turn"]] * fitting.index(ot))
        board[c] = ot
    steps.append(t["play"])
    return steps


def actions(ui: GameUI, match: Match[Any, Any], seat: int) -> list[Any]:
    """The legal actions to list: all of them for a hand of up to `FULL_HAND` tiles; for a
    bigger hand (a 7-tile hand has tens of thousands of plays, half a minute to find) a
    sample: the pass, the exchanges and the plays of up to `FULL_HAND` tiles, each checked
    by the rules."""
    hand = tuple(match.state.hands[seat])
    if len(hand) <= FULL_HAND or match.current != seat:
        return list(match.legal(seat))
    found: list[Any] = [Pass()]
    found += [Exchange(tuple(sorted(c))) for k in range(1, len(hand) + 1) for c in combinations(hand, k)]
    game = ui.game
    for f in all_plays(packed_board(match.state.board), list(hand), game.config["crossings_new_tiles_only"],
                       game.config["double_main_only"], max_tiles=FULL_HAND):
        found.append(Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in f.placements))))
    out = []
    for action in found:
        try:
            match.check(seat, action)
        except IllegalAction:
            continue
        out.append(action)
    return out


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kaliko", "templates", lang)
    sep = str(spoken("kaliko", "separator", lang)[0])
    state = match.state
    for key in QUERIES:
        b.rule(t[key], key)
        b.say(t[key], key)
    hand = list(state.hands[seat])
    positions = [str(i + 1) for i in range(len(hand))]
    board = packed_board(state.board)
    empties = sorted({e for e, _edge, _c in open_ends(board)}, key=cell_qr)
    cells = [cell_name(*cell_qr(c), lang) for c in empties]
    b.slot("pos", positions)
    b.slot("cell", cells)
    b.slot("hour", [str(h) for h in HOURS])
    b.slot("colour", list(spoken("kaliko", "colour", lang).values()))
    b.slot("number", [str(n) for n in range(1, 86)])
    for key, slot, values in (("tile", "pos", positions), ("where", "pos", positions), ("take", "pos", positions),
                              ("go", "cell", cells), ("path", "hour", [str(h) for h in HOURS]),
                              ("number", "number", [str(n) for n in range(1, 86)])):
        b.rule(t[key], key)
        for v in values:
            b.say(fill(t[key], **{slot: v}), key)
    for key, command in (("place", "here"), ("orient", "orient"), ("turn", "turn")):
        b.rule(t[key], command)
    # a play in one line: its steps joined by the separator (« ensuite », "and then") or « ; »
    b.extra["separator"] = sep
    if match.over or match.current != seat:
        return
    b.rule(t["play"], "action")
    b.rule(t["pass"], "action")
    b.rule(t["exchange"], "action")
    b.rule(t["exchange_all"], "action")
    prefix = [t["clear"]] if getattr(ui, "drafts", {}).get(seat) and ui.drafts[seat].placed else []  # type: ignore[attr-defined]
    legal = pick(actions(ui, match, seat), LIMIT, lambda a: (type(a).__name__, isinstance(a, Exchange) and len(a.tiles)))
    for action in legal:
        command = action_command(ui.game, action)
        if isinstance(action, Pass):
            b.say(t["pass"], command, t["pass"])
        elif isinstance(action, Exchange):
            if sorted(action.tiles) == sorted(hand):
                b.say(t["exchange_all"], command, t["exchange_all"])
            else:
                pos = " ".join(str(hand.index(n) + 1) for n in action.tiles)
                b.slot("positions", [pos])
                b.say(fill(t["exchange"], positions=pos), command, t["exchange"])
        elif isinstance(action, Play):
            b.slot("cell", [cell_name(q, r, lang) for q, r, _t in action.placements])
            steps = prefix + play_steps(ui, match, seat, action, lang)
            b.say(f" {sep} ".join(steps), command, t["play"])
