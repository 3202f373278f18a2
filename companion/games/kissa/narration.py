"""2kissa10 events as utterances (message ids with parameters; the words are in kissa.po).

`narrate` reads only the event's data and the players' names, so a transcript made after
the game says exactly what was said during it. The helpers below also serve the readings
of commands.py (a number with where it is, a row, a cell...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core import Event
from companion.narration import Msg, Priority, Raw, Utterance, say

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


def narrate(event: Event, match: Any) -> list[Utterance]:
    d = event.data
    kind = event.type
    if kind == "board_dealt":
        return [say("kissa.board_dealt")]
    if kind == "order_drawn":
        order = d.get("order") or []
        if len(order) > 2:  # T-1: the whole order is drawn, and said
            return [say("kissa.order_drawn_all", player=player(match, d["first"]), order=[player(match, s) for s in order])]
        return [say("kissa.order_drawn", player=player(match, d["first"]))]
    if kind == "entry_started":
        return [say("kissa.entry_started", earcon="question")]
    if kind == "row_entered":
        digits = [digit_word(EMPTY if ch == "." else int(ch)) for ch in d["digits"]]
        out = [say("kissa.row_entered", row=d["row"], digits=digits)]
        if d["missing"]:
            out.append(say("kissa.rows_missing", rows=[str(r) for r in d["missing"]], n=len(d["missing"])))
        else:
            out.append(say("kissa.rows_complete", earcon="question"))
        return out
    if kind == "token_placed":  # T-1: a token told by the table, in the next cell
        return [say("kissa.token_placed", cell=d["cell"], digit=str(d["digit"]), n=d["left"])]
    if kind == "play_started":
        out = [say("kissa.play_started", n=d["tokens"], player=player(match, d["first"]), earcon="good")]
        if d["unusual"]:
            counts = [Msg("kissa.digit_count", digit=str(u["digit"]), n=u["count"]) for u in d["unusual"]]
            out.append(say("kissa.unusual_counts", counts=counts, priority=Priority.IMPORTANT, earcon="bad"))
        return out
    if kind == "move_played":
        cells = [names_cells(d["operands"][0]), names_cells(d["operands"][1]), names_cells(d["result"])]
        # #29: every verbosity says where each number went (terse: « 67 D8 bas fois 98 H2 »)
        eq = equation_msg(d["op"], d["values"], cells, usual_right=True)
        out = [say("kissa.move_played", player=player(match, d["seat"]), equation=eq, earcon="move")]
        if d["cleared"]:
            out.append(say("kissa.scored_cleared", n=d["score"], total=d["total"], earcon="score"))
        elif d["product"]:
            out.append(say("kissa.scored_product", n=d["score"], base=d["base"], total=d["total"], left=d["left"], earcon="score"))
        else:
            out.append(say("kissa.scored", n=d["score"], total=d["total"], left=d["left"], earcon="score"))
        return out
    if kind in ("stuck", "declared"):
        return [
            say(
                f"kissa.{kind}",
                player=player(match, d["seat"]),
                penalised=player(match, d["penalised"]),
                tokens=d["tokens"],
                n=d["tokens"],
                remaining=d["remaining"],
                penalty=d["penalty"],
                total=d["total"],
                priority=Priority.IMPORTANT,
                earcon="bad",
            )
        ]
    if kind == "game_ended":
        scores = [
            Msg("kissa.player_score", player=player(match, s), n=n) for s, n in enumerate(d["scores"])
        ]
        winners = [player(match, s) for s in d["winners"]]
        reason = Msg(f"kissa.reason.{d.get('reason') or 'stuck'}")
        if len(winners) == 1:
            result = Msg("kissa.winner", player=winners[0])
        else:
            result = Msg("kissa.tie", players=winners)
        return [say("kissa.game_ended", reason=reason, scores=scores, result=result, priority=Priority.IMPORTANT, earcon="end")]
    return []
