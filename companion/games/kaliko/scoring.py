"""The legality and the score of one Kaliko scoring play (RULES K-8 to K-18). Pure.

A board is a dict `cell -> ot` (packed cell ids and oriented-tile indexes of `tiles`).
`evaluate(old, play)` is the single judge of a play: the rules, the command line and the
play finder all ask it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tiles import COLOUR, COLOURS, ORIENTED, PARTNER, STEP, cell_qr

MAX_TILES = 7  # RULES K-6: 1 to 7 tiles

# reason codes, in the order they are checked
TOO_MANY = "too_many_tiles"
OCCUPIED = "occupied"
MISMATCH = "colour_mismatch"
NO_SCORING = "no_scoring_path"
NO_MAIN = "no_main_path"


@dataclass(frozen=True)
class PathScore:
    colour: str  # "R", "W" or "B"
    segments: int
    crossings: int
    closed: bool
    score: int
    main: bool
    cells: tuple[tuple[int, int], ...]  # the cells along the path, in order (repeats kept)
    new_segments: int

    def to_json(self) -> dict[str, Any]:
        return {
            "colour": self.colour,
            "segments": self.segments,
            "crossings": self.crossings,
            "closed": self.closed,
            "score": self.score,
            "main": self.main,
        }


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str | None
    score: int = 0
    paths: tuple[PathScore, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "reason": self.reason,
            "score": self.score,
            "paths": [p.to_json() for p in self.paths],
        }


def trace(board: dict[int, int], cell: int, edge: int) -> tuple[list[tuple[int, int, int]], bool]:
    """The whole path through the segment of `cell` that ends at `edge` (RULES K-2).

    Returns the segments `(cell, entry_edge, exit_edge)` in order along the path and
    whether it is closed (a loop). Both ends of an open path face empty cells.
    """
    ot = board[cell]
    start = (cell, edge)
    seq: list[tuple[int, int, int]] = [(cell, edge, PARTNER[ot][edge])]
    c, out = cell, PARTNER[ot][edge]
    while True:  # forward from the segment's far end
        n = c + STEP[out]
        t = board.get(n)
        if t is None:
            break
        entry = (out + 3) % 6
        if (n, entry) == start:
            return seq, True
        out = PARTNER[t][entry]
        seq.append((n, entry, out))
        c = n
    back: list[tuple[int, int, int]] = []
    c, out = cell, edge
    while True:  # backward from the segment's near end
        n = c + STEP[out]
        t = board.get(n)
        if t is None:
            break
        entry = (out + 3) % 6
        out = PARTNER[t][entry]
        back.append((n, out, entry))
        c = n
    back.reverse()
    return back + seq, False


def old_runs(seq: list[tuple[int, int, int]], new: dict[int, int] | set[int], closed: bool) -> int:
    """How many distinct old paths a final path joins: its maximal runs of old segments.

    Two old segments that meet at an edge were already one old path, so each run of old
    segments along the path is one old path, and each old path is one run.
    """
    flags = [s[0] not in new for s in seq]
    runs = sum(1 for i, f in enumerate(flags) if f and (i == 0 or not flags[i - 1]))
    if closed and len(flags) > 1 and flags[0] and flags[-1] and runs > 1:
        runs -= 1  # the run wraps around the loop's starting point
    return runs


def self_crossings(
    board: dict[int, int], seq: list[tuple[int, int, int]], only: dict[int, int] | None = None
) -> int:
    """RULES K-16: pairs of segments of this path that cross on one tile (optionally only
    on the tiles of `only`, the new tiles: variant crossings_new_tiles_only)."""
    by_cell: dict[int, list[tuple[int, int]]] = {}
    for c, a, b in seq:
        by_cell.setdefault(c, []).append((a, b))
    n = 0
    for c, segs in by_cell.items():
        if len(segs) < 2 or (only is not None and c not in only):
            continue
        for i in range(len(segs)):
            a, b = sorted(segs[i])
            for j in range(i + 1, len(segs)):
                x, y = sorted(segs[j])
                if a < x < b < y or x < a < y < b:
                    n += 1
    return n


def evaluate(
    old: dict[int, int],
    play: list[tuple[int, int]],
    crossings_new_tiles_only: bool = False,
    double_main_only: bool = False,
) -> Verdict:
    """Judge a scoring play: `play` is a list of `(cell, ot)` placed on the pattern `old`."""
    if len(play) > MAX_TILES:  # RULES K-6
        return Verdict(False, TOO_MANY, detail={"count": len(play)})
    if not play:
        return Verdict(False, NO_SCORING)
    new: dict[int, int] = {}
    for c, ot in play:  # RULES K-8: each tile into an empty cell
        if c in old or c in new:
            return Verdict(False, OCCUPIED, detail={"cell": cell_qr(c)})
        new[c] = ot
    board = dict(old)
    board.update(new)
    for c, ot in new.items():  # RULES K-9: colours agree at every shared edge
        for e in range(6):
            n = c + STEP[e]
            t = board.get(n)
            if t is not None and COLOUR[t][(e + 3) % 6] != COLOUR[ot][e]:
                return Verdict(
                    False,
                    MISMATCH,
                    detail={
                        "cell": cell_qr(c),
                        "edge": e,
                        "tile": ORIENTED[ot],
                        "colour": COLOURS[COLOUR[ot][e] - 1],
                        "other": COLOURS[COLOUR[t][(e + 3) % 6] - 1],
                        "neighbour": cell_qr(n),
                    },
                )
    return score_paths(board, new, crossings_new_tiles_only, double_main_only)


def score_paths(
    board: dict[int, int],
    new: dict[int, int],
    crossings_new_tiles_only: bool = False,
    double_main_only: bool = False,
) -> Verdict:
    """K-10 to K-18 on a colour-consistent board whose tiles `new` were placed this turn."""
    seen: set[tuple[int, int]] = set()
    found: list[tuple[list[tuple[int, int, int]], bool]] = []
    for c in new:
        for e in range(6):
            if (c, e) in seen:
                continue
            seq, closed = trace(board, c, e)
            for sc, a, b in seq:
                seen.add((sc, a))
                seen.add((sc, b))
            # RULES K-10: joins two old paths, or closes (contains) an old path
            runs = old_runs(seq, new, closed)
            if runs >= 2 or (closed and runs >= 1):
                found.append((seq, closed))
    if not found:
        return Verdict(False, NO_SCORING)
    rows: list[dict[str, Any]] = []
    for seq, closed in found:
        crossings = self_crossings(board, seq, new if crossings_new_tiles_only else None)
        cells = {s[0] for s in seq}
        first = seq[0]
        colour = COLOURS[COLOUR[board[first[0]]][first[1]] - 1]
        rows.append(
            {
                "seq": seq,
                "closed": closed,
                "colour": colour,
                "segments": len(seq),
                "crossings": crossings,
                "covers": all(c in cells for c in new),  # RULES K-11
                "key": ("RWB".index(colour), min((cell_qr(c), min(a, b)) for c, a, b in seq)),
            }
        )
    rows.sort(key=lambda r: r["key"])
    if not any(r["covers"] for r in rows):
        # say which tile is off the scoring path that carries the most new tiles
        def carried(r: dict[str, Any]) -> int:
            return len({c for c, _, _ in r["seq"]} & new.keys())

        widest = max(rows, key=carried)
        on = {c for c, _, _ in widest["seq"]}
        off = sorted(cell_qr(c) for c in new if c not in on)
        return Verdict(False, NO_MAIN, detail={"cell": off[0], "colour": widest["colour"]})

    def path_score(r: dict[str, Any], main: bool) -> int:
        base = r["segments"] + 3 * r["crossings"]  # RULES K-15, K-16
        doubled = r["closed"] and (main or not double_main_only)  # RULES K-17
        return base * 2 if doubled else base

    # RULES K-11 / KA-9: the main path is any path that carries every new tile; the choice
    # only matters with double_main_only, where the player's best choice is taken.
    best_i, best_total = -1, -1
    for i, r in enumerate(rows):
        if not r["covers"]:
            continue
        total = sum(path_score(x, j == i) for j, x in enumerate(rows))
        if total > best_total or (total == best_total and path_score(r, True) > path_score(rows[best_i], True)):
            best_i, best_total = i, total
    paths = tuple(
        PathScore(
            r["colour"],
            r["segments"],
            r["crossings"],
            r["closed"],
            path_score(r, i == best_i),
            i == best_i,
            tuple(cell_qr(c) for c, _, _ in r["seq"]),
            sum(1 for c, _, _ in r["seq"] if c in new),
        )
        for i, r in enumerate(rows)
    )
    return Verdict(True, None, best_total, paths)  # RULES K-18
