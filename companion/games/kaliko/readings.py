"""Kaliko's readings, and the play a seat is building (its view).

The board by ear: every cell has a short, stable name from the start tile (« centre »,
« 3h2 » = two steps toward 3 o'clock, « 1h1 3h1 »); edges and directions are clock positions
(1, 3, 5, 7, 9, 11). A cursor moves by direction. Readings: « main » / "hand", « tuile 2 »
(the 2nd tile of the hand), « numéro 42 », « case [cell] » (a cell and its six neighbours),
« va 3 » / « va 3h2 » (the cursor), « bouts [rouge] » (open ends), « chemin 3 » (the path
leaving the cursor's tile at 3 o'clock), « où 2 » (where hand tile 2 fits), « plateau [tout |
près de 3h1 [anneau 2]] », « score », « sac », « indice », « meilleur », « coups », « brouillon ».

Each reading is a frozen command record read by the one grammar, with its handler
`(command, match, seat, view) -> (intent, view)`. The view is a `Draft`: the tiles put down so
far this turn, the tile in hand and the cursor; the session holds it, a handler returns the
next one. What comes from the hand or the draft is said to the seat alone; public facts (the
board, the ends, the scores, the bag, a tile of the catalogue) to the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import Match
from companion.games.base import Answer, Handler, Intent, Refuse
from companion.narration import Msg, Priority, Raw, Utterance

from .draft import (
    Cell,
    Draft,
    answer,
    board_of,
    draft_of,
    hand,
    hand_tile,
    no_tile,
    position,
    public,
    verdict_report,
)
from .events import TilesPlayed
from .finder import constraints_key, open_ends
from .narration import crossings_msg, path_msg, tile_msg
from .notation import cell_msg, cell_steps, cell_text, clock, colour_msg, edge_of_clock
from .rules import packed_board
from .scoring import self_crossings, trace
from .search import best_within, count_within, plays_within
from .tiles import (
    COLOUR,
    COLOURS,
    FITS,
    ORIENTED,
    OT_NUMBER,
    ROTATIONS,
    STEP,
    TILES,
    cell_id,
    cell_qr,
    hex_distance,
)


# --- the reading commands ---------------------------------------------------------------------
@dataclass(frozen=True)
class Query:
    """A reading without a slot; `NAME` is its command and `answer` its handler's body."""

    NAME: ClassVar[str] = ""


class Hand(Query):
    NAME = "hand"


class Score(Query):
    NAME = "score"


class Bag(Query):
    NAME = "bag"


class Hint(Query):
    NAME = "hint"


class Best(Query):
    NAME = "best"


class Moves(Query):
    NAME = "moves"


class DraftRead(Query):
    NAME = "draft"


@dataclass(frozen=True)
class Tile:
    number: int | None = None
    NAME: ClassVar[str] = "tile"


@dataclass(frozen=True)
class Numbered:
    number: int | None = None
    NAME: ClassVar[str] = "number"


@dataclass(frozen=True)
class CellRead:
    """« case [cell] »: a cell said is read and the cursor moves there."""

    cell: Cell | str | None = None
    NAME: ClassVar[str] = "cell"


@dataclass(frozen=True)
class Go:
    """« va 3 » (a step toward 3 o'clock), « va 3h2 », or a cell alone."""

    hour: int | None = None
    cell: Cell | str | None = None
    NAME: ClassVar[str] = "go"


@dataclass(frozen=True)
class Ends:
    colour: str | None = None
    NAME: ClassVar[str] = "ends"


@dataclass(frozen=True)
class Path:
    hour: int | None = None
    NAME: ClassVar[str] = "path"


@dataclass(frozen=True)
class Where:
    number: int | None = None
    NAME: ClassVar[str] = "where"


@dataclass(frozen=True)
class Board:
    """« plateau » (a summary), « plateau tout », « plateau près de 3h1 [anneau 2] »."""

    cell: Cell | str | None = None
    number: int | None = None  # the ring
    everything: bool = False
    NAME: ClassVar[str] = "board"


# --- their handlers ------------------------------------------------------------------------------
def on_query(c: Any, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    return _QUERIES[type(c)](match, seat, d), d


def _hand(match: Match[Any, Any], seat: int, d: Draft) -> Intent:
    h = hand(match, seat)
    if not h:
        return Answer([answer("kaliko.hand_empty", seat)])
    return Answer([answer("kaliko.hand", seat, n=len(h))]
                  + [answer("kaliko.hand_item", seat, pos=i + 1, tile=tile_msg(TILES[n - 1])) for i, n in enumerate(h)])


def scores(match: Match[Any, Any]) -> list[Utterance]:
    scores = [Msg("kaliko.player_score", player=Raw(p), n=s) for p, s in zip(match.players, match.state.scores, strict=True)]
    return [public("kaliko.scores", scores=scores)]


def _search_args(match: Match[Any, Any], seat: int) -> tuple[dict[int, int], list[int], bool, bool]:
    config = match.game.config
    return (packed_board(match.state.board), list(hand(match, seat)),
            config["crossings_new_tiles_only"], config["double_main_only"])


def _hint(match: Match[Any, Any], seat: int, d: Draft) -> Intent:
    found, proven = plays_within(*_search_args(match, seat), max_tiles=3)  # issue 26: a deadline
    if not found:
        return Answer([answer("kaliko.hint_none" if proven else "kaliko.none_found", seat)])
    seen: dict[str, Any] = {}
    for f in found:  # best first: the best play of each main colour
        seen.setdefault(next(p for p in f.verdict.paths if p.main).colour, f)
    hints = [Msg("kaliko.hint", colour=Msg(f"kaliko.colour_f.{colour}"), cell=cell_msg(*cell_qr(f.placements[0][0])),
                 n=len(f.placements)) for colour, f in seen.items()]
    return Answer([answer("kaliko.hints" if proven else "kaliko.hints_found", seat, hints=hints)])


def _best(match: Match[Any, Any], seat: int, d: Draft) -> Intent:
    best, proven = best_within(*_search_args(match, seat))  # issue 26: a deadline
    if best is None:
        return Answer([answer("kaliko.hint_none" if proven else "kaliko.none_found", seat)])
    h = hand(match, seat)
    out = [answer("kaliko.best" if proven else "kaliko.best_found", seat, n=best.score)]
    out += [answer("kaliko.best_item", seat, step=Msg("kaliko.best_step", pos=h.index(OT_NUMBER[ot]) + 1,
                                                      cell=cell_msg(*cell_qr(c)), tile=tile_msg(ORIENTED[ot])))
            for c, ot in best.placements]
    return Answer(out + [Utterance((path_msg(p.to_json()),), Priority.TEXT, None, seat) for p in best.verdict.paths])


def _moves(match: Match[Any, Any], seat: int, d: Draft) -> Intent:
    n, top, proven = count_within(*_search_args(match, seat))  # issue 26: a deadline
    return Answer([answer("kaliko.moves" if proven else "kaliko.moves_found", seat, n=n, best=top)])


def _draft(match: Match[Any, Any], seat: int, d: Draft) -> Intent:
    if not d.placed:
        return Answer([answer("kaliko.draft_empty", seat)])
    h = hand(match, seat)
    out = [answer("kaliko.draft", seat, n=len(d.placed))]
    out += [answer("kaliko.draft_item", seat, pos=h.index(OT_NUMBER[ot]) + 1, cell=cell_msg(q, r),
                   tile=tile_msg(ORIENTED[ot])) for q, r, ot in d.placed]
    if d.selected is not None and d.selected in h:
        out.append(answer("kaliko.draft_selected", seat, pos=h.index(d.selected) + 1))
    return Answer(out + verdict_report(match, seat, d))


_QUERIES = {Hand: _hand, Score: lambda m, s, d: Answer(scores(m)),
            Bag: lambda m, s, d: Answer([public("kaliko.bag", n=len(m.state.bag))]),
            Hint: _hint, Best: _best, Moves: _moves, DraftRead: _draft}


def on_tile(c: Tile, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    pos = position(match, seat, c.number)
    n = hand_tile(match, seat, pos)
    if n is None:
        return no_tile(match, seat), view
    return Answer([answer("kaliko.hand_item", seat, pos=pos, tile=tile_msg(TILES[n - 1]))]), view


def on_numbered(c: Numbered, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if c.number is None or not 1 <= c.number <= 85:
        return Refuse([answer("kaliko.no_such_tile", seat)]), view
    return Answer([public("kaliko.numbered_tile", number=c.number, tile=tile_msg(TILES[c.number - 1]))]), view


def go(match: Match[Any, Any], seat: int, d: Draft, cell: Cell | str | None) -> tuple[Intent, Draft]:
    if not isinstance(cell, tuple):
        return Refuse([answer("kaliko.bad_cell", seat)]), d
    d = Draft(d.board_size, d.placed, d.selected, cell)
    return Answer(describe_cell(match, seat, d, cell)), d


def on_cell(c: CellRead, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if c.cell is None:
        return Answer(describe_cell(match, seat, d, d.cursor)), d
    return go(match, seat, d, c.cell)


def on_go(c: Go, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if c.hour is not None:
        e = edge_of_clock(c.hour)
        if e is None:
            return Refuse([answer("kaliko.bad_cell", seat)]), d
        return go(match, seat, d, cell_qr(cell_id(*d.cursor) + STEP[e]))
    return go(match, seat, d, c.cell)


def describe_cell(match: Match[Any, Any], seat: int, d: Draft, cell: Cell) -> list[Utterance]:
    board = board_of(match, d)
    c = cell_id(*cell)
    ot = board.get(c)
    out = [public("kaliko.cell_tile", cell=cell_msg(*cell), tile=tile_msg(ORIENTED[ot])) if ot is not None
           else public("kaliko.cell_empty", cell=cell_msg(*cell))]
    sides = []
    for e in range(6):
        t = board.get(c + STEP[e])
        sides.append(Msg("kaliko.side_empty", clock=clock(e)) if t is None
                     else Msg("kaliko.side_tile", clock=clock(e), colour=colour_msg(COLOUR[t][(e + 3) % 6])))
    out.append(public("kaliko.neighbours", sides=sides))
    if ot is None and any(board.get(c + STEP[e]) is not None for e in range(6)):
        h = hand(match, seat)
        free = set(h) - {OT_NUMBER[o] for _, _, o in d.placed}
        fits = sorted({OT_NUMBER[o] for o in FITS[constraints_key(board, c)] if OT_NUMBER[o] in free})
        positions = sorted(h.index(n) + 1 for n in fits)
        out.append(answer("kaliko.fits_here", seat, n=len(positions), tiles=positions) if positions
                   else answer("kaliko.fits_none", seat))
    return out


def on_ends(c: Ends, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    board = board_of(match, draft_of(match, view))
    groups: dict[str, list[Msg]] = {code: [] for code in COLOURS}
    for empty, edge, colour in sorted(open_ends(board), key=lambda x: (cell_qr(x[0] + STEP[x[1]]), (x[1] + 3) % 6)):
        groups[COLOURS[colour - 1]].append(Msg("kaliko.end_at", cell=cell_msg(*cell_qr(empty + STEP[edge])),
                                               clock=clock((edge + 3) % 6)))
    out = []
    for code in ("R", "W", "B"):
        if c.colour and code != c.colour:
            continue
        out.append(public("kaliko.ends", colour=colour_msg(code), n=len(groups[code]), ends=groups[code])
                   if groups[code] else public("kaliko.ends_none", colour=colour_msg(code)))
    return Answer(out), view


def on_path(c: Path, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    board = board_of(match, d)
    cid = cell_id(*d.cursor)
    e = edge_of_clock(c.hour) if c.hour is not None else None
    if e is None:
        return Refuse([answer("kaliko.path_usage", seat)]), d
    if cid not in board:  # an empty cell: read the neighbour's path that ends here
        if cid + STEP[e] not in board:
            return Refuse([answer("kaliko.no_path_there", seat)]), d
        cid, e = cid + STEP[e], (e + 3) % 6
    seq, closed = trace(board, cid, e)
    colour = COLOURS[COLOUR[board[cid]][e] - 1]
    cells: list[Msg] = []
    for sc, _a, _b in seq:
        m = cell_msg(*cell_qr(sc))
        if not cells or cells[-1] != m:
            cells.append(m)
    return Answer([public("kaliko.path_read", colour=Msg(f"kaliko.colour_f.{colour}"),
                          segments=Msg("kaliko.n_segments", n=len(seq)),
                          crossings=crossings_msg(self_crossings(board, seq)),
                          closed=Msg("kaliko.closed") if closed else Msg("kaliko.open"), cells=cells)]), d


def on_where(c: Where, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    pos = position(match, seat, c.number)
    n = hand_tile(match, seat, pos)
    if n is None:  # « où » alone: the tile taken
        n = d.selected
        h = hand(match, seat)
        pos = h.index(n) + 1 if n in h else None
    if n is None:
        return no_tile(match, seat), d
    board = board_of(match, d)
    spots = []
    for cid in sorted({x[0] for x in open_ends(board)}, key=cell_qr):
        rots = [o for o in ROTATIONS[n] if o in FITS[constraints_key(board, cid)]]
        if rots:
            spots.append(Msg("kaliko.spot", cell=cell_msg(*cell_qr(cid)), n=len(rots)))
    return Answer([answer("kaliko.where", seat, pos=pos, n=len(spots), spots=spots)]), d


def on_board(c: Board, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if c.everything:
        out = [public("kaliko.board", n=len(match.state.board))]
        out += [public("kaliko.board_item", cell=cell_msg(q, r), tile=tile_msg(t)) for q, r, t in match.state.board]
        return Answer(out), d
    if c.cell is None and c.number is None:
        return Answer(_board_summary(match)), d
    centre = d.cursor if c.cell is None else c.cell
    if not isinstance(centre, tuple):
        return Refuse([answer("kaliko.bad_cell", seat)]), d
    return Answer(_rings(match, centre, [c.number] if c.number is not None else [0, 1])), d


def _board_summary(match: Match[Any, Any]) -> list[Utterance]:
    board = packed_board(match.state.board)
    cells = [cell_qr(c) for c in board]
    far = max((hex_distance((0, 0), c) for c in cells), default=0)
    out = [public("kaliko.board_summary", n=len(board), rings=far)]
    sectors: dict[int, int] = {}
    for q, r in cells:
        steps = cell_steps(q, r)
        if steps:
            sectors[steps[0][1]] = sectors.get(steps[0][1], 0) + 1
    regions = [Msg("kaliko.region", clock=clock(e), n=sectors[e]) for e in sorted(sectors, key=clock)]
    if regions:
        out.append(public("kaliko.board_regions", regions=regions))
    counts = {c: 0 for c in COLOURS}
    for _empty, _edge, colour in open_ends(board):
        counts[COLOURS[colour - 1]] += 1
    ends = [Msg("kaliko.end_count", colour=colour_msg(c), n=counts[c]) for c in COLOURS]
    out.append(public("kaliko.board_ends", n=sum(counts.values()), ends=ends))
    plays: list[Msg] = []
    for step in reversed(match.history):
        for ev in step.events:
            if isinstance(ev, TilesPlayed):
                plays.append(Msg("kaliko.last_play", player=Raw(match.players[ev.seat]),
                                 cells=[cell_msg(*p["cell"]) for p in ev.placements]))
        if len(plays) >= len(match.players):
            break
    if plays:
        out.append(public("kaliko.board_last", plays=plays))
    return out + [public("kaliko.board_more")]


def hex_ring(centre: Cell, k: int) -> list[Cell]:
    """The cells k steps from `centre`, clockwise from 3 o'clock (east)."""
    if k == 0:
        return [centre]
    q0, r0 = centre
    cells = [(q0 + dq, r0 + dr) for dq in range(-k, k + 1) for dr in range(-k, k + 1)
             if hex_distance((0, 0), (dq, dr)) == k]

    def angle(c: Cell) -> float:
        dq, dr = c[0] - q0, c[1] - r0
        return math.atan2(1.5 * dr, math.sqrt(3) * (dq + dr / 2)) % (2 * math.pi)

    return sorted(cells, key=angle)


def _rings(match: Match[Any, Any], centre: Cell, rings: list[int]) -> list[Utterance]:
    board = packed_board(match.state.board)
    out: list[Utterance] = []
    for k in rings:
        ring = hex_ring(centre, k)
        tiles = [c for c in ring if cell_id(*c) in board]
        out.append(public("kaliko.ring", cell=cell_msg(*centre), ring=k, n=len(tiles), empty=len(ring) - len(tiles)))
        out += [public("kaliko.board_item", cell=cell_msg(*c), tile=tile_msg(ORIENTED[board[cell_id(*c)]])) for c in tiles]
    nxt = max(rings) + 1
    if any(cell_id(*c) in board for c in hex_ring(centre, nxt)):
        out.append(public("kaliko.ring_more", cell=Raw(cell_text(*centre)), ring=nxt))
    return out


HANDLERS: dict[type, Handler] = {Hand: on_query, Score: on_query, Bag: on_query, Hint: on_query, Best: on_query, Moves: on_query,
            DraftRead: on_query, Tile: on_tile, Numbered: on_numbered, CellRead: on_cell, Go: on_go, Ends: on_ends,
            Path: on_path, Where: on_where, Board: on_board}

