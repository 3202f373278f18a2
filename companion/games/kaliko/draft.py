"""The play a seat is building, step by step: its view and the steps that build it.

« prends 2 » / "take 2" (or by its lines: « prends bleu petit arc »), « ici » or « en 3h1 » /
"put it at 3h1" (« pose 2 en 3h1 » in one), « tourne » (the next rotation that fits),
« rouge 3 » (a red line toward 3 o'clock), « retire », « efface », then « joue ». After each
step the companion says whether the play is legal so far and what it would score, path by
path. The view is a `Draft` value: the session holds it and each handler `(command, match,
seat, view) -> (intent, view)` returns the next one, so reading a line changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.core import Match
from companion.games.base import Act, Answer, Handler, Intent, Refuse
from companion.narration import Msg, Priority, Utterance, say

from .finder import constraints_key
from .narration import path_msg, tile_msg
from .notation import cell_msg, clock, colour_msg, edge_of_clock
from .rules import Play, packed_board
from .scoring import evaluate
from .tiles import (
    COLOUR,
    COLOURS,
    FITS,
    ORIENTED,
    OT_NUMBER,
    ROTATIONS,
    TILES,
    cell_id,
    parse_segments,
)

Cell = tuple[int, int]


# --- the view ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Draft:
    """A seat's view: the play being built (cells and oriented tiles), the tile taken, the
    cursor. `board_size` says which board it was built on: a play made since starts afresh."""

    board_size: int = -1
    placed: tuple[tuple[int, int, int], ...] = ()  # (q, r, oriented tile)
    selected: int | None = None  # a tile number from the hand
    cursor: Cell = (0, 0)


def draft_of(match: Match[Any, Any], view: Any) -> Draft:
    d = view if isinstance(view, Draft) else Draft()
    size = len(match.state.board)
    return d if d.board_size == size else Draft(size, cursor=d.cursor)


def answer(msg_id: str, seat: int | None, **params: Any) -> Utterance:
    """An answer for `seat` alone: what it says comes from their hand or their draft."""
    return say(msg_id, priority=Priority.TEXT, to=seat, **params)


def public(msg_id: str, **params: Any) -> Utterance:
    """An answer about public facts, said to the table (a table of several humans without
    private channels still hears it; an answer to the asker alone would be held back)."""
    return say(msg_id, priority=Priority.TEXT, to=None, **params)


def hand(match: Match[Any, Any], seat: int) -> tuple[int, ...]:
    return tuple(match.state.hands[seat])


def position(match: Match[Any, Any], seat: int, pos: int | None) -> int | None:
    """A hand position; a tile's catalogue number (above the hand's size, as « numéro 29 »
    reads it) is taken as the position of that tile when it is in the hand."""
    h = hand(match, seat)
    return h.index(pos) + 1 if pos is not None and pos > len(h) and pos in h else pos


def hand_tile(match: Match[Any, Any], seat: int, pos: int | None) -> int | None:
    h = hand(match, seat)
    return h[pos - 1] if pos is not None and 1 <= pos <= len(h) else None


def board_of(match: Match[Any, Any], d: Draft | None) -> dict[int, int]:
    b = dict(packed_board(match.state.board))
    for q, r, ot in d.placed if d is not None else ():
        b[cell_id(q, r)] = ot
    return b


def no_tile(match: Match[Any, Any], seat: int) -> Refuse:
    return Refuse([answer("kaliko.no_such_hand_tile", seat, n=len(hand(match, seat)))])


# --- the steps --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Take:
    number: int | None = None
    shape: tuple[tuple[str | None, int | None], ...] = ()
    NAME: ClassVar[str] = "take"


@dataclass(frozen=True)
class Here:
    """« ici », « en 3h1 », « pose 2 en 3h1 »: the tile taken (or the one named) put down."""

    cell: Any = None
    number: int | None = None
    NAME: ClassVar[str] = "here"


@dataclass(frozen=True)
class Orient:
    colour: str
    hour: int
    NAME: ClassVar[str] = "orient"


@dataclass(frozen=True)
class Step:
    """A step without a slot; `NAME` says which (turn, remove, clear, play, pass)."""

    NAME: ClassVar[str] = ""


class Turn(Step):
    NAME = "turn"


class Remove(Step):
    NAME = "remove"


class Clear(Step):
    NAME = "clear"


class PlayIt(Step):
    NAME = "play"


def _fitting(board: dict[int, int], q: int, r: int, n: int) -> list[int]:
    return [o for o in ROTATIONS[n] if o in FITS[constraints_key(board, cell_id(q, r))]]


def on_take(c: Take, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    pos = position(match, seat, c.number) if c.number is not None else _described(match, seat, d, c.shape)
    n = hand_tile(match, seat, pos)
    if n is None:
        return no_tile(match, seat), d
    if any(OT_NUMBER[o] == n for _, _, o in d.placed):
        return Refuse([answer("kaliko.already_placed", seat, pos=pos)]), d
    return Answer([answer("kaliko.taken", seat, pos=pos, tile=tile_msg(TILES[n - 1]))]), replace(d, selected=n)


def _described(match: Match[Any, Any], seat: int, d: Draft, wanted: tuple[tuple[str | None, int | None], ...]) -> int | None:
    """The first free hand tile (1-based) having every (colour, shape) line described."""
    placed = {OT_NUMBER[o] for _, _, o in d.placed}
    for i, n in enumerate(hand(match, seat)):
        if n in placed or not wanted:
            continue
        lines = [(col, min((b - a) % 6, (a - b) % 6)) for a, b, col in parse_segments(TILES[n - 1])]
        if all(any((wc is None or wc == col) and (ws is None or ws == g) for col, g in lines) for wc, ws in wanted):
            return i + 1
    return None


def on_here(c: Here, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    selected = d.selected if c.number is None else hand_tile(match, seat, position(match, seat, c.number))
    cell = d.cursor if c.cell is None else c.cell
    if c.number is not None and selected is None:
        return no_tile(match, seat), d
    if not isinstance(cell, tuple):  # refused: nothing changes, not even the tile in hand
        return Refuse([answer("kaliko.bad_cell", seat)]), d
    if selected is None:
        return Refuse([answer("kaliko.take_first", seat)]), d
    board = board_of(match, d)
    if cell_id(*cell) in board:
        return Refuse([answer("kaliko.cell_taken", seat, cell=cell_msg(*cell))]), d
    if len(d.placed) >= 7:
        return Refuse([Utterance((Msg("kaliko.refused.too_many_tiles"),), Priority.IMPORTANT, "error", seat)]), d
    if any(OT_NUMBER[o] == selected for _, _, o in d.placed):
        return Refuse([answer("kaliko.already_placed", seat, pos=hand(match, seat).index(selected) + 1)]), d
    fitting = _fitting(board, cell[0], cell[1], selected)
    if not fitting:
        return Refuse([answer("kaliko.no_rotation_fits", seat, cell=cell_msg(*cell))]), d
    d = Draft(d.board_size, (*d.placed, (cell[0], cell[1], fitting[0])), None, cell)
    return Answer(draft_report(match, seat, d)), d


def _last_apart(match: Match[Any, Any], d: Draft) -> tuple[int, int, int, dict[int, int]]:
    q, r, ot = d.placed[-1]
    board = board_of(match, d)
    del board[cell_id(q, r)]
    return q, r, ot, board


def on_turn(c: Turn, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if not d.placed:
        return Refuse([answer("kaliko.nothing_placed", seat)]), d
    q, r, ot, board = _last_apart(match, d)
    fitting = _fitting(board, q, r, OT_NUMBER[ot])
    nxt = fitting[(fitting.index(ot) + 1) % len(fitting)] if ot in fitting else fitting[0]
    d = replace(d, placed=(*d.placed[:-1], (q, r, nxt)))
    return Answer(draft_report(match, seat, d)), d


def on_orient(c: Orient, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    e = edge_of_clock(c.hour)
    if e is None:  # an even hour is a corner of the hexagon, not an edge
        return Refuse([answer("kaliko.orient_no_edge", seat, clock=c.hour)]), d
    if not d.placed:
        return Refuse([answer("kaliko.nothing_placed", seat)]), d
    q, r, ot, board = _last_apart(match, d)
    code = COLOURS.index(c.colour) + 1
    fits = FITS[constraints_key(board, cell_id(q, r))]
    good = [o for o in ROTATIONS[OT_NUMBER[ot]] if COLOUR[o][e] == code and o in fits]
    if not good:
        return Refuse([answer("kaliko.orient_impossible", seat, colour=colour_msg(c.colour), clock=c.hour)]), d
    if ot not in good:  # already pointing that way: keep it (« tourne » cycles)
        d = replace(d, placed=(*d.placed[:-1], (q, r, good[0])))
    return Answer(draft_report(match, seat, d)), d


def on_step(c: Step, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if isinstance(c, Clear):
        return Answer([answer("kaliko.cleared", seat)]), Draft(d.board_size, cursor=d.cursor)
    if not d.placed:
        return Refuse([answer("kaliko.draft_empty" if isinstance(c, PlayIt) else "kaliko.nothing_placed", seat)]), d
    if isinstance(c, PlayIt):
        return Act(Play.of([(q, r, ORIENTED[ot]) for q, r, ot in d.placed])), d
    q, r, ot = d.placed[-1]  # Remove
    d = replace(d, placed=d.placed[:-1])
    out = [answer("kaliko.removed", seat, pos=hand(match, seat).index(OT_NUMBER[ot]) + 1, cell=cell_msg(q, r))]
    return Answer(out + (verdict_report(match, seat, d) if d.placed else [])), d


# --- what the draft would score, said after each step ----------------------------------------------
def rotations_here(match: Match[Any, Any], d: Draft) -> int:
    """How many rotations of the last tile put down fit its cell (one count for every report)."""
    q, r, ot = d.placed[-1]
    board = board_of(match, d)
    del board[cell_id(q, r)]
    return sum(1 for o in ROTATIONS[OT_NUMBER[ot]] if o in FITS[constraints_key(board, cell_id(q, r))])


def draft_report(match: Match[Any, Any], seat: int, d: Draft) -> list[Utterance]:
    out = []
    if d.placed:
        q, r, ot = d.placed[-1]
        out.append(answer("kaliko.placed", seat, pos=hand(match, seat).index(OT_NUMBER[ot]) + 1, cell=cell_msg(q, r),
                          tile=tile_msg(ORIENTED[ot]), n=rotations_here(match, d)))
    return out + verdict_report(match, seat, d)


def verdict_report(match: Match[Any, Any], seat: int, d: Draft) -> list[Utterance]:
    config = match.game.config
    v = evaluate(packed_board(match.state.board), [(cell_id(q, r), ot) for q, r, ot in d.placed],
                 config["crossings_new_tiles_only"], config["double_main_only"])
    if v.legal:
        out = [answer("kaliko.draft_legal", seat, n=v.score, tiles=len(d.placed))]
        return out + [Utterance((path_msg(p.to_json()),), Priority.TEXT, None, seat) for p in v.paths]
    return [answer("kaliko.draft_not_yet", seat, reason=reason_msg(str(v.reason), v.detail))]


KNOWN_REASONS = frozenset({"too_many_tiles", "no_scoring_path", "no_main_path", "bad_tile", "nothing_to_exchange",
                           "bag_empty", "game_over", "not_your_turn", "not_legal", "occupied"})


def reason_msg(code: str, detail: dict[str, Any]) -> Msg:
    if code == "colour_mismatch":
        return Msg("kaliko.refused.colour_mismatch", cell=cell_msg(*tuple(detail["cell"])),
                   clock=clock(int(detail["edge"])), colour=colour_msg(detail["colour"]), other=colour_msg(detail["other"]))
    if code == "no_main_path" and "cell" in detail:
        return Msg("kaliko.refused.off_main_path", cell=cell_msg(*tuple(detail["cell"])),
                   colour=Msg(f"kaliko.colour_f.{detail['colour']}"))
    if code == "occupied" and "cell" in detail:
        return Msg("kaliko.refused.occupied", cell=cell_msg(*tuple(detail["cell"])))
    if code in ("not_in_hand", "tile_twice") and "number" in detail:
        return Msg(f"kaliko.refused.{code}", number=detail["number"])
    if code == "bag_too_small":
        return Msg("kaliko.refused.bag_too_small", n=detail.get("bag", 0))
    return Msg(f"kaliko.refused.{code if code in KNOWN_REASONS else 'not_legal'}")


BUILDS: dict[type, Handler] = {Take: on_take, Here: on_here, Turn: on_turn, Orient: on_orient, Remove: on_step,
                                 Clear: on_step, PlayIt: on_step}
