"""The old paths of a Kaliko pattern, summed up once per search, so that the finder walks a
path through this turn's tiles in steps of whole old paths (issue 26: no re-tracing of what
is unchanged). Pure.

A new tile can only meet an old path at one of its open ends (its cell was empty), so a path
of the board after a play is new segments and whole old paths in turn (RULES K-2); each old
path appears once at most, and two old paths are always parted by new segments, so every
old path on it is one of its old runs (K-10). Its score (K-15 to K-17) needs only each old
path's length and crossings, and the crossings between two old paths on a shared tile.
"""

from __future__ import annotations

from .scoring import self_crossings, trace
from .tiles import COLOUR, PARTNER, ROTATIONS, STEP, crosses

# A piece of a path is (first cell, edge facing backward, last cell, edge facing forward, old
# path id): a new segment is (cell, a, cell, b, -1), a whole old path its id (>= 0).
Piece = tuple[int, int, int, int, int]

_CROSS: dict[tuple[int, int], int] = {}  # (ot, mask of edges on one path) -> crossing pairs


def crossings_on(ot: int, mask: int) -> int:
    """Pairs of crossing segments of tile `ot` among those with both edges in `mask`."""
    got = _CROSS.get((ot, mask))
    if got is None:
        part = PARTNER[ot]
        segs = [(a, part[a]) for a in range(6) if a < part[a] and mask >> a & 1 and mask >> part[a] & 1]
        got = sum(crosses(*segs[i], *segs[j]) for i in range(len(segs)) for j in range(i + 1, len(segs)))
        _CROSS[ot, mask] = got
    return got


def tile_tau(n: int) -> tuple[int, int, int, int]:
    """The most tile number `n`'s own segments add to the paths of each colour (code 1-3;
    index 0 unused): its segments of that colour + 3 x their crossing pairs (RULES K-15, K-16;
    rotation changes neither). The bound's tile part (`Finder._bounded`, and cbest.c's)."""
    ot = ROTATIONS[n][0]
    col = COLOUR[ot]
    tau = [0, 0, 0, 0]
    for k in (1, 2, 3):
        mask = sum(1 << e for e in range(6) if col[e] == k)
        tau[k] = bin(mask).count("1") // 2 + 3 * crossings_on(ot, mask)
    return (0, tau[1], tau[2], tau[3])


class OldPaths:
    """Every open path of the old pattern: its two ends, length and crossings."""

    def __init__(self, old: dict[int, int]) -> None:
        self.end: dict[int, tuple[int, int, int]] = {}  # cell << 3 | edge of an end -> (id, far cell, far edge)
        self.length: list[int] = []
        self.own: list[int] = []  # RULES K-16: crossings of the path with itself
        self.between: dict[tuple[int, int], int] = {}  # (id, id'), id < id': crossings of the two
        owner: dict[tuple[int, int], int] = {}
        for c in old:
            for e in range(6):
                if c + STEP[e] in old or (c, e) in owner:
                    continue
                seq, _closed = trace(old, c, e)  # it has an end here: open
                pid = len(self.length)
                for sc, a, b in seq:
                    owner[sc, a] = owner[sc, b] = pid
                (c0, a0, _), (c1, _, b1) = seq[0], seq[-1]
                self.end[c0 << 3 | a0] = (pid, c1, b1)
                self.end[c1 << 3 | b1] = (pid, c0, a0)
                self.length.append(len(seq))
                self.own.append(self_crossings(old, seq))
        # each old path's value, segments + 3 x self-crossings (RULES K-15, K-16)
        self.value_of = [n + 3 * k for n, k in zip(self.length, self.own, strict=True)]
        for c, ot in old.items():
            part = PARTNER[ot]
            segs = [(a, part[a]) for a in range(6) if a < part[a]]
            for i in range(3):
                for j in range(i + 1, 3):
                    p, q = owner.get((c, segs[i][0])), owner.get((c, segs[j][0]))
                    if p is not None and q is not None and p != q and crosses(*segs[i], *segs[j]):
                        key = (p, q) if p < q else (q, p)
                        self.between[key] = self.between.get(key, 0) + 1

    def path(self, board: dict[int, int], new: dict[int, int], cell: int, edge: int) -> tuple[list[Piece], bool]:
        """The whole path through the segment of new tile `cell` ending at `edge`, as pieces
        in order (like `scoring.trace`), and whether it is closed."""
        b0 = PARTNER[new[cell]][edge]
        ahead, closed = self._follow(board, new, cell, b0, cell << 3 | edge)
        seq: list[Piece] = [(cell, edge, cell, b0, -1), *ahead]
        if closed:
            return seq, True
        behind, _ = self._follow(board, new, cell, edge, -1)
        return [(c1, b, c0, a, pid) for c0, a, c1, b, pid in reversed(behind)] + seq, False

    def _follow(self, board: dict[int, int], new: dict[int, int], c: int, out: int,
                start: int) -> tuple[list[Piece], bool]:
        """The pieces met leaving the tile at `c` by edge `out`, in the order met (each as
        cell entered, edge in, cell left, edge out, id), and whether the walk came back in
        by `start` (cell << 3 | edge: the path is closed)."""
        end = self.end
        got: list[Piece] = []
        while True:
            n = c + STEP[out]
            t = board.get(n)
            if t is None:
                return got, False
            entry = (out + 3) % 6
            if n in new:
                if n << 3 | entry == start:
                    return got, True
                out = PARTNER[t][entry]
                got.append((n, entry, n, out, -1))
                c = n
            else:  # an old open end: the whole old path at once
                pid, c, out = end[n << 3 | entry]
                got.append((n, entry, c, out, pid))

    def _parts(self, seq: list[Piece]) -> tuple[int, list[int], dict[int, int]]:
        """The path `seq` as (its segments, its old paths' ids, the mask of its edges on each
        of its new tiles)."""
        length, pids = 0, []
        masks: dict[int, int] = {}
        for c, a, _c, b, pid in seq:
            if pid < 0:
                length += 1
                masks[c] = masks.get(c, 0) | 1 << a | 1 << b
            else:
                pids.append(pid)
                length += self.length[pid]
        return length, pids, masks

    def _crossings(self, new: dict[int, int], pids: list[int], masks: dict[int, int], old_too: bool) -> int:
        """RULES K-16: the path's self-crossings on its new tiles, and with `old_too` on its old
        paths and between them (the default; not under crossings_new_tiles_only)."""
        cross = sum(crossings_on(new[c], m) for c, m in masks.items() if m & (m - 1) & ((m & (m - 1)) - 1))
        if old_too:
            own, between = self.own, self.between
            cross += sum(own[p] for p in pids)
            for i, p in enumerate(pids):
                for q in pids[i + 1:]:
                    cross += between.get((p, q) if p < q else (q, p), 0)
        return cross

    def score(self, new: dict[int, int], seq: list[Piece], closed: bool, new_tiles_only: bool) -> int:
        """RULES K-10, K-15 to K-17: what the path scores (0 when it is no scoring path)."""
        length, pids, masks = self._parts(seq)
        if not (len(pids) >= 2 or (closed and pids)):
            return 0
        base = length + 3 * self._crossings(new, pids, masks, not new_tiles_only)
        return 2 * base if closed else base

    def value(self, new: dict[int, int], seq: list[Piece]) -> tuple[int, list[int], dict[int, int]]:
        """For the bound of the best-play search (finder._bounded): the open path `seq` as
        (segments + 3 x its self-crossings, its old paths' ids, the mask of its edges on
        each of its new tiles).
        RULES K-15, K-16 (whole path, DEFAULT)."""
        length, pids, masks = self._parts(seq)
        return length + 3 * self._crossings(new, pids, masks, True), pids, masks

    def crossings(self, new: dict[int, int], pids: list[int], masks: dict[int, int], pids2: list[int],
                  masks2: dict[int, int]) -> int:
        """How many crossing pairs two distinct paths (their old ids, their masks on new
        tiles) have with each other: on old tiles, and on the new tiles both pass through."""
        between = self.between
        got = sum(between.get((p, q) if p < q else (q, p), 0) for p in pids for q in pids2)
        for c, m in masks.items():
            m2 = masks2.get(c)
            if m2 is not None:
                ot = new[c]
                got += crossings_on(ot, m | m2) - crossings_on(ot, m) - crossings_on(ot, m2)
        return got
