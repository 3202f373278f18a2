"""2kissa10 events as utterances (message ids with parameters; the words are in kissa.po).

`narrate` reads only the event's fields and the players' names (`NARRATORS` maps each
event class to its narrator), so a transcript made after the game says exactly what was
said during it. The helpers below also serve the readings
of commands.py (a number with where it is, a row, a cell...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.core import Event
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import events as E
from .finder import EMPTY, SIZE, TIMES
from .notation import cell_name, parse_cell

DIRECTIONS = {
    (0, 1): "right",
    (1, 0): "down",
    (0, -1): "left",
    (-1, 0): "up",
    (1, 1): "down_right",
    (1, -1): "down_left",
    (-1, 1): "up_right",
    (-1, -1): "up_left",
}


def direction(cells: Sequence[int]) -> str | None:
    """The reading direction of a number of two cells or more."""
    if len(cells) < 2:
        return None
    r0, c0 = divmod(cells[0], SIZE)
    r1, c1 = divmod(cells[1], SIZE)
    return DIRECTIONS.get((r1 - r0, c1 - c0))


def number_msg(value: int, cells: Sequence[int], usual_right: bool = False) -> Msg:
    """"29 en C4 vers le bas" / "29 at C4 down". `usual_right`: a number read to the right is
    said without its direction (a move told to the table, #29: the fewest words that keep the
    board in mind; readings and choices keep every direction, which tells them apart)."""
    d = direction(cells)
    if d is None:
        return Msg("kissa.num_at", value=str(value), cell=cell_name(cells[0]))
    if usual_right and d == "right":
        return Msg("kissa.num_right", value=str(value), cell=cell_name(cells[0]), dir=Msg("kissa.dir.right"))
    return Msg("kissa.num_dir", value=str(value), cell=cell_name(cells[0]), dir=Msg(f"kissa.dir.{d}"))


def names_cells(names: Sequence[str]) -> list[int]:
    return [parse_cell(n) for n in names]


def equation_msg(op: str, values: Sequence[int], cells: Sequence[Sequence[int]] | None = None,
                 usual_right: bool = False) -> Msg:
    """"10 plus 29 égale 39", with where each number is when `cells` are given."""
    if cells is None:
        parts: list[Any] = [str(v) for v in values]
    else:
        parts = [number_msg(v, c, usual_right) for v, c in zip(values, cells, strict=True)]
    kind = "kissa.eq_times" if op == TIMES else "kissa.eq_plus"
    return Msg(kind, a=parts[0], b=parts[1], c=parts[2])


def player(match: Any, seat: int) -> Raw:
    return Raw(match.players[seat])


def digit_word(d: int) -> Msg | str:
    return Msg("kissa.empty") if d == EMPTY else str(d)


Narrator = Callable[[Any, Any], list[Utterance]]
# One narrator per event class of `events.py` (tests/test_events_typed.py checks that none is
# missing, by walking the classes, not by playing).
NARRATORS: dict[type[Event], Narrator] = {}


def narrates(*kinds: type[Event]) -> Callable[[Narrator], Narrator]:
    def register(fn: Narrator) -> Narrator:
        for kind in kinds:
            NARRATORS[kind] = fn
        return fn
    return register


def narrate(event: Event, match: Any) -> list[Utterance]:
    """What the table hears of `event`."""
    fn = NARRATORS.get(type(event))
    return fn(event, match) if fn is not None else []


@narrates(E.BoardDealt)
def _board_dealt(e: E.BoardDealt, match: Any) -> list[Utterance]:
    return [say("kissa.board_dealt")]


@narrates(E.OrderDrawn)
def _order_drawn(e: E.OrderDrawn, match: Any) -> list[Utterance]:
    order = e.order or []
    if len(order) > 2:  # T-1: the whole order is drawn, and said
        return [say("kissa.order_drawn_all", player=player(match, e.first), order=[player(match, s) for s in order])]
    return [say("kissa.order_drawn", player=player(match, e.first))]


@narrates(E.EntryStarted)
def _entry_started(e: E.EntryStarted, match: Any) -> list[Utterance]:
    return [say("kissa.entry_started", earcon="question")]


@narrates(E.RowEntered)
def _row_entered(e: E.RowEntered, match: Any) -> list[Utterance]:
    digits = [digit_word(EMPTY if ch == "." else int(ch)) for ch in e.digits]
    out = [say("kissa.row_entered", row=e.row, digits=digits)]
    if e.missing:
        out.append(say("kissa.rows_missing", rows=[str(r) for r in e.missing], n=len(e.missing)))
    else:
        out.append(say("kissa.rows_complete", earcon="question"))
    return out


@narrates(E.TokenPlaced)
def _token_placed(e: E.TokenPlaced, match: Any) -> list[Utterance]:
    # T-1: a token told by the table, in the next cell
    return [say("kissa.token_placed", cell=e.cell, digit=str(e.digit), n=e.left)]


@narrates(E.PlayStarted)
def _play_started(e: E.PlayStarted, match: Any) -> list[Utterance]:
    out = [say("kissa.play_started", n=e.tokens, player=player(match, e.first), earcon="good")]
    if e.unusual:
        counts = [Msg("kissa.digit_count", digit=str(u["digit"]), n=u["count"]) for u in e.unusual]
        out.append(say("kissa.unusual_counts", counts=counts, priority=Priority.IMPORTANT, earcon="bad"))
    return out


@narrates(E.MovePlayed)
def _move_played(e: E.MovePlayed, match: Any) -> list[Utterance]:
    cells = [names_cells(e.operands[0]), names_cells(e.operands[1]), names_cells(e.result)]
    # #29: every verbosity says where each number went (terse: « 67 D8 bas fois 98 H2 »)
    eq = equation_msg(e.op, e.values, cells, usual_right=True)
    out = [say("kissa.move_played", player=player(match, e.seat), equation=eq, earcon="move")]
    if e.cleared:
        out.append(say("kissa.scored_cleared", n=e.score, total=e.total, earcon="score"))
    elif e.product:
        out.append(say("kissa.scored_product", n=e.score, base=e.base, total=e.total, left=e.left, earcon="score"))
    else:
        out.append(say("kissa.scored", n=e.score, total=e.total, left=e.left, earcon="score"))
    return out


@narrates(E.Stuck, E.Declared)
def _stuck(e: E.Stuck | E.Declared, match: Any) -> list[Utterance]:
    return [
        say(
            f"kissa.{e.type}",
            player=player(match, e.seat),
            penalised=player(match, e.penalised),
            tokens=e.tokens,
            n=e.tokens,
            remaining=e.remaining,
            penalty=e.penalty,
            total=e.total,
            priority=Priority.IMPORTANT,
            earcon="bad",
        )
    ]


@narrates(E.GameEnded)
def _ended(e: E.GameEnded, match: Any) -> list[Utterance]:
    scores = [
        Msg("kissa.player_score", player=player(match, s), n=n) for s, n in enumerate(e.scores)
    ]
    winners = [player(match, s) for s in e.winners]
    reason = Msg(f"kissa.reason.{e.reason or 'stuck'}")
    if len(winners) == 1:
        result = Msg("kissa.winner", player=winners[0])
    else:
        result = Msg("kissa.tie", players=winners)
    return [say("kissa.game_ended", reason=reason, scores=scores, result=result, priority=Priority.IMPORTANT, earcon="end")]
