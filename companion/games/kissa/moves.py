"""2kissa10's moves said: where the numbers of an equation lie on the board, and the narrowing
when they lie in several places.

One reading is played at once (the narration says it, once); none is refused with the reason
(« Je ne trouve pas 3 + 4 = 7 sur le plateau. » for the values only, issue 24 point 7); several
are one question, a page at a time: « peu importe » settles all, « la suite » gives the rest,
« le deuxième », « le dernier », a cell or a direction picks. The readings are a frozen tuple the
waiting question holds (the session holds the question for the seat); its answer is read by the
grammar's replies (`phrases.replies`), so reading it changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.core import IllegalAction, Match
from companion.games.base import Act, Answer, Ask, Intent, Refuse
from companion.language import LAST, yes_no
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration
from .finder import PLUS, TIMES, value_of
from .narration import direction, number_msg
from .phrases import Spec, replies, replies_of
from .rules import ENTRY, OVER, Kissa, Move, State

PAGE = 8  # readings listed at once; « la suite » gives the rest


@dataclass(frozen=True)
class Equation:
    """Three numbers and the operation: « a op b = c » or « c = a op b »."""

    op: str
    a: Spec
    b: Spec
    c: Spec


@dataclass(frozen=True)
class Reply:
    """An answer to « which reading? »: any, more, drop, a place in the list, a cell or a
    direction. Said with no question waiting, it means nothing."""

    kind: str
    place: int | None = None
    spec: Spec | None = None
    way: str | None = None


def _refuse(msg_id: str, seat: int, **params: Any) -> Refuse:
    return Refuse([say(msg_id, priority=Priority.IMPORTANT, earcon="error", to=seat, **params)])


def on_equation(c: Equation, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    if state.phase == ENTRY:
        return _refuse("kissa.refused.board_not_ready", seat), view
    if state.phase == OVER:
        return _refuse("kissa.refused.game_over", seat), view
    game: Kissa = match.game  # type: ignore[assignment]
    finder = game.finder(state.board)
    specs = (c.a, c.b, c.c)
    if all(s.value is not None and s.cell is None and s.way is None for s in specs):
        x, y, z = (int(s.value or 0) for s in specs)
        if (x * y if c.op == TIMES else x + y) == z and not _placed(c.op, specs, finder, game, state, seat):
            # issue 24 point 7: the values only, true, and nowhere on the board: said as they were said
            sign = "×" if c.op == TIMES else "+"
            return _refuse("kissa.no_such_equation", seat, equation=Raw(f"{x} {sign} {y} = {z}")), view
    cands: list[list[tuple[int, ...]]] = []
    for spec in specs:
        found = [n.cells for n in finder.numbers if (spec.value is None or n.value == spec.value)
                 and (spec.cell is None or n.cells[0] == spec.cell) and (spec.way is None or direction(n.cells) == spec.way)]
        if not found and spec.cell is not None and spec.way is None and spec.value is not None:
            # the player may have named the number's last cell, as read backwards
            found = [n.cells for n in finder.numbers if n.value == spec.value and spec.cell in n.cells]
        if not found:
            if spec.value is None:
                where: Any = narration.cell_name(spec.cell) if spec.cell is not None else "?"
            else:
                where = number_msg(spec.value, [spec.cell]) if spec.cell is not None else str(spec.value)
            return _refuse("kissa.no_such_number", seat, number=where), view
        cands.append(found)
    legal: list[Move] = []
    first_error: IllegalAction | None = None
    for a, b, cc in itertools.islice(itertools.product(*cands), 20000):
        try:
            game.check(state, seat, Move(c.op, a, b, cc))
        except IllegalAction as exc:
            first_error = first_error or exc
            continue
        legal.append(game.normalize(state.board, Move(c.op, a, b, cc)))
    legal = list(dict.fromkeys(legal))
    if not legal:
        assert first_error is not None
        return Refuse(refusal(first_error, match, seat)), view
    return narrow(tuple(legal), match, seat), view


def _placed(op: str, specs: Sequence[Spec], finder: Any, game: Kissa, state: State, seat: int) -> bool:
    """Whether the values of `specs` lie on the board as a legal move (the first one found)."""
    cands = [[n.cells for n in finder.numbers if n.value == spec.value] for spec in specs]
    for a, b, c in itertools.islice(itertools.product(*cands), 20000):
        try:
            game.check(state, seat, Move(op, a, b, c))
        except IllegalAction:
            continue
        return True
    return False


def best_op(move: Move, board: Sequence[int]) -> Move:
    """RULES TA-5: a sum that is also a product is played as the product (it scores more)."""
    values = [value_of(board, x) for x in (move.a, move.b, move.c)]
    if move.op == PLUS and values[0] and values[1] and values[0] * values[1] == values[2]:
        return Move(TIMES, move.a, move.b, move.c)
    return move


def narrow(legal: tuple[Move, ...], match: Match[Any, Any], seat: int, offset: int = 0) -> Intent:
    """One reading left: played at once (the narration says it, once). Several: one question
    lists them (the numbers that differ), a page at a time. The readings are a frozen value
    the waiting question holds; its answer is read by the grammar's replies, changing nothing."""
    board = match.state.board
    if len(legal) == 1:
        return Act(best_op(legal[0], board))
    roles = [r for r in ("a", "b", "c") if len({getattr(m, r) for m in legal}) > 1]
    shown = legal[offset:offset + PAGE]
    more = len(legal) - offset - len(shown)
    places = [Msg("kissa.option", k=offset + k + 1, where=[number_msg(value_of(board, getattr(m, r)), getattr(m, r))
                                                        for r in roles]) for k, m in enumerate(shown)]
    ask: dict[str, Any] = dict(n=len(legal), places=places)
    if offset:  # « la suite »: this page, not « les premières » again (#29)
        msg_id, ask = ("kissa.which_reading_next" if more else "kissa.which_reading_last"), dict(
            ask, first=offset + 1, last=offset + len(shown), more=more)
    elif more:
        msg_id, ask = "kissa.which_reading_cut", dict(ask, shown=len(shown), more=more)
    else:
        msg_id = "kissa.which_reading"
    question = say(msg_id, Priority.MESSAGE, "question", seat, **ask)

    def resolve(text: str) -> Intent | None:
        said = replies().read(text, {"players": tuple(match.players), "seat": seat})
        reply = Reply(said[0].kind, **dict(said[0].values)) if said else None
        # « peu importe » is a shared "cancel" word; here it means "any of them"
        if (reply and reply.kind == "drop") or (yes_no(text) in ("no", "cancel") and not (reply and reply.kind == "any")):
            return Answer([say("kissa.move_dropped", priority=Priority.TEXT, to=seat)])
        if reply is None:
            return None
        if reply.kind == "any":
            return _said(Act(best_op(legal[0], board)), board)
        if reply.kind == "more":
            return narrow(legal, match, seat, offset + PAGE) if more else None
        picked = _pick(reply, legal, shown, roles)
        return _said(narrow(picked, match, seat), board) if picked else None

    numbered = tuple(range(offset + 1, offset + len(shown) + 1))
    return Ask(question, resolve, replies=replies_of(board, legal, roles, numbered, bool(more)))


def _said(intent: Intent, board: Sequence[int]) -> Intent:
    """An answer that plays a move carries the move in words: heard by voice with little
    confidence, « option 2 » is read back as the move it picks, not as « option 2 » alone."""
    if isinstance(intent, Act) and isinstance(intent.action, Move):
        m = intent.action
        intent.said = narration.equation_msg(m.op, [value_of(board, x) for x in (m.a, m.b, m.c)], (m.a, m.b, m.c))
    return intent


def _pick(reply: Reply, legal: Sequence[Move], shown: Sequence[Move], roles: Sequence[str]) -> tuple[Move, ...]:
    """The readings a reply picks: « choix 2 » / « le deuxième » (numbered over the whole
    list), « le dernier » / "the last one" (of those just heard), a cell, a direction."""
    if reply.kind == "place":
        if reply.place == LAST:
            return (shown[-1],)
        return (legal[reply.place - 1],) if reply.place is not None and 1 <= reply.place <= len(legal) else ()
    cell = reply.spec.cell if reply.spec else None
    way = reply.spec.way if reply.spec else reply.way
    if cell is None and way is None:
        return ()

    def fits(m: Move, starts: bool) -> bool:
        for r in roles:
            cells = getattr(m, r)
            at = cell is None or (cells[0] == cell if starts else cell in cells)
            if at and (way is None or direction(cells) == way):
                return True
        return False

    return tuple(m for m in legal if fits(m, True)) or tuple(m for m in legal if fits(m, False))


def refusal(exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
    """Why the match refused a move, in words (the roles, cells and values it names)."""
    d = dict(exc.detail)
    params: dict[str, Any] = {}
    if "role" in d:
        params["role"] = Msg(f"kissa.role.{d['role']}")
    if "cells" in d:
        params["cells"] = " ".join(d["cells"])
    for key in ("cell", "a", "b", "c", "expected", "row", "digits", "first", "n"):
        if key in d:
            params[key] = str(d[key]) if key in ("a", "b", "c", "expected") else d[key]
    if "rows" in d:
        params["rows"] = [str(r) for r in d["rows"]]
    if "op" in d:
        params["op"] = Msg("kissa.op_times" if d["op"] == TIMES else "kissa.op_plus")
    if "current" in d and d["current"] is not None:
        params["player"] = Raw(match.players[d["current"]])
    return [Utterance((Msg(f"kissa.refused.{exc.code}", **params),), Priority.IMPORTANT, "error", seat)]
