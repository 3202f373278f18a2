"""What 2kissa10 players can say now, in forms the command parser (`commands.py`) reads.

Templates are data (`companion/language/<lang>/kissa.json`); a move is said as the companion
says it (« 10 en A1 plus 29 en C4 vers le bas égale 39 en E2 »: `narration.equation_msg`
rendered in the listener's language), so what a player hears they can say back. A full
board has tens of thousands of moves: beyond the builder's limit (2,000) an even sample with
both operations, and the listed moves are then marked as a sample.
"""

from __future__ import annotations

from typing import Any

from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, spoken
from companion.narration import catalog

from .finder import COLUMNS, PLUS, SIZE, TIMES, value_of
from .narration import equation_msg, number_msg
from .notation import cell_name
from .rules import ENTRY, OVER, Declare, EnterRow, Move, PlaceToken, StartPlay

QUERIES = ("tokens", "board", "numbers", "digits", "hint", "best", "moves", "status")


def move_phrase(board: Any, move: Move, lang: str) -> str:
    """A move as the companion says it, in `lang`."""
    cells = (move.a, move.b, move.c)
    values = [value_of(board, c) for c in cells]
    return catalog(lang).text(equation_msg(move.op, values, cells))


def spoken_move(board: Any, move: Move) -> Move:
    """The move a player's words for `move` give: "2 plus 2 égale 4" is taken as the product,
    which scores more (TA-5, as `commands.py` reads it back), so the sum is never said."""
    va, vb, vc = (value_of(board, c) for c in (move.a, move.b, move.c))
    if move.op == PLUS and va and vb and va * vb == vc:
        return Move(TIMES, move.a, move.b, move.c)
    return move


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kissa", "templates", lang)
    state = match.state
    board = state.board
    for key in QUERIES:
        b.rule(t[key], key)
        b.say(t[key], key)
    rows = [str(r) for r in range(1, SIZE + 1)]
    columns = list(COLUMNS)
    cells = [cell_name(i) for i in range(SIZE * SIZE)]
    b.slot("row", rows)
    b.slot("column", columns)
    b.slot("cell", cells)
    b.slot("digit", [str(d) for d in range(10)])
    for key, slot, values in (("row", "row", rows), ("column", "column", columns), ("cell", "cell", cells),
                              ("around", "cell", cells), ("digit", "digit", [str(d) for d in range(10)])):
        b.rule(t[key], key)
        for v in values:
            b.say(fill(t[key], **{slot: v}), key)
    if state.phase == OVER:
        return
    legal = match.legal(seat)
    if state.phase != ENTRY:
        cat = catalog(lang)
        finder = ui.game.finder(board)  # type: ignore[attr-defined]
        b.slot("number", [cat.text(number_msg(n.value, n.cells)) for n in finder.numbers])
    # a full board has tens of thousands of moves: an even sample with both operations
    moves = b.sample(legal, lambda a: (type(a).__name__, getattr(a, "op", None)), [("Move", PLUS), ("Move", TIMES)])
    if Declare() in legal and Declare() not in moves:  # physical table: "no solution"
        moves.append(Declare())
    for action in moves:
        if isinstance(action, Move):
            action = spoken_move(board, action)
        command = action_command(ui.game, action)
        if isinstance(action, Move):
            key = "times" if action.op == TIMES else "plus"
            b.rule(t[key], "action")
            b.say(move_phrase(board, action, lang), command, t[key])
        elif isinstance(action, EnterRow):
            b.rule(t["enter_row"], "action")
            digits = " ".join(action.digits)
            b.slot("digits", [digits])  # any ten digits: a sample (each rotation of 0-9)
            b.say(fill(t["enter_row"], row=str(action.row + 1), digits=digits), command, t["enter_row"])
        elif isinstance(action, PlaceToken):  # a token drawn from the bag, told (RULES T-1)
            b.rule(t["token"], "action")
            b.say(fill(t["token"], digit=str(action.digit)), command, t["token"])
        elif isinstance(action, StartPlay):
            b.rule(t["start"], "action")
            b.slot("player", list(match.players))
            b.say(fill(t["start"], player=match.players[action.first]), command, t["start"])
        elif isinstance(action, Declare):
            b.rule(t["declare"], "action")
            b.say(t["declare"], command, t["declare"])
