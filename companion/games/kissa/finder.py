"""The numbers on a 2kissa10 board and every legal move between them, fast (RULES T-2..T-8).

Pure: no I/O, no randomness. numpy is imported only by the functions that use it, so the
command line starts fast.

Vocabulary:

* a *board* is a tuple of 100 ints, cell ``i`` = row ``i // 10``, column ``i % 10``
  (``A1`` is 0, ``J1`` is 9, ``A2`` is 10), the digit 0-9 or ``EMPTY`` (-1);
* a *number* is a straight run of occupied cells in one reading direction (T-3), given as
  its cells in reading order (the order the digits are read). Two readings of the same
  cells with the same value (a single digit, a palindrome like 121 read both ways in the
  expert variant) are ONE number, written in its forward reading: the one whose first cell
  comes first in row-major order;
* a *move* is ``(op, a, b, c)``: ``a op b = c`` with three pairwise disjoint numbers (T-4).
  ``a + b`` and ``b + a`` are one move: the operands are in canonical order, the smaller
  value first, and for equal values the one whose cell list is smaller (cells compared as
  indexes, i.e. row-major order). When both ``+`` and ``×`` hold (2, 2, 4) they are two
  moves (TA-5).

Search (T-2): the distinct values are found first (a value triple needs one array
operation, numpy), then the occurrences of each value are combined and kept when their
cells are disjoint (bit masks, numpy). A move's score depends only on the values (the
digits decide the tokens), so the best moves come from the best value triples first:
`MoveFinder.best` stops as soon as it has enough, without listing the million others.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

EMPTY = -1
SIZE = 10
CELLS = SIZE * SIZE
COLUMNS = "ABCDEFGHIJ"
PLUS, TIMES = "+", "*"


def token_value(digit: int) -> int:
    """RULES T-7: digits 1-9 are worth their face value, 0 is worth 10."""
    return digit if digit else 10


def cell_name(i: int) -> str:
    return f"{COLUMNS[i % SIZE]}{i // SIZE + 1}"


@lru_cache(maxsize=2)
def lines(expert: bool) -> tuple[tuple[int, ...], ...]:
    """Every line of the board in forward reading order (index increasing).

    RULES T-3: rows left to right, columns top to bottom; KISSA_EXPERT adds both
    diagonals (their backward readings are made by the caller)."""
    out = [tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)]
    out += [tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)]
    if expert:
        for d in range(-(SIZE - 1), SIZE):  # down-right diagonals, column - row = d
            line = tuple(r * SIZE + r + d for r in range(SIZE) if 0 <= r + d < SIZE)
            if len(line) >= 2:
                out.append(line)
        for s in range(2 * SIZE - 1):  # down-left diagonals, row + column = s
            line = tuple(r * SIZE + s - r for r in range(SIZE) if 0 <= s - r < SIZE)
            if len(line) >= 2:
                out.append(line)
    return tuple(out)


@dataclass(frozen=True)
class Segments:
    """Every run of cells that may hold a number, for one reading rule, as numpy tables.

    Rows are sorted by cells (reading order), so a board's numbers come out sorted. A
    backward reading (expert) knows its forward twin, to drop palindromes read twice."""

    cells: list[tuple[int, ...]]
    pad: Any  # (S, 10) cell indexes, CELLS beyond the length
    inside: Any  # (S, 10) position < length
    power: Any  # (S, 10) 10 ** (length - 1 - position) inside, 0 beyond
    length: Any
    twin: Any  # index of the forward reading of the same cells, or -1
    lo: Any  # cells 0-63 as bits
    hi: Any  # cells 64-99 as bits


@lru_cache(maxsize=2)
def _segments(expert: bool) -> Segments:
    import numpy as np

    runs: dict[tuple[int, ...], tuple[int, ...] | None] = {(i,): None for i in range(CELLS)}
    for line in lines(expert):
        for s in range(len(line)):
            for e in range(s + 1, len(line)):
                fwd = line[s : e + 1]
                runs[fwd] = None
                if expert:
                    runs[fwd[::-1]] = fwd
    cells = sorted(runs)
    index = {c: i for i, c in enumerate(cells)}
    n = len(cells)
    pad = np.full((n, SIZE), CELLS, dtype=np.int64)
    length = np.array([len(c) for c in cells], dtype=np.int64)
    for i, c in enumerate(cells):
        pad[i, : len(c)] = c
    pos = np.arange(SIZE)[None, :]
    inside = pos < length[:, None]
    power = np.where(inside, 10 ** np.maximum(length[:, None] - 1 - pos, 0), 0).astype(np.int64)
    twin = np.array([-1 if (f := runs[c]) is None else index[f] for c in cells], dtype=np.int64)
    masks = [mask_of(c) for c in cells]
    lo = np.array([m & 0xFFFFFFFFFFFFFFFF for m in masks], dtype=np.uint64)
    hi = np.array([m >> 64 for m in masks], dtype=np.uint64)
    return Segments(cells, pad, inside, power, length, twin, lo, hi)


@dataclass(frozen=True)
class Number:
    cells: tuple[int, ...]  # reading order
    value: int

    @property
    def digits(self) -> str:
        return str(self.value)

    @property
    def weight(self) -> int:
        return weight(self.value)


def weight(value: int) -> int:
    """The tokens' worth of a number (RULES T-7), which depends on its digits only."""
    return sum(token_value(int(ch)) for ch in str(value))


def find_numbers(board: Sequence[int], expert: bool = False, zero_is_number: bool = True) -> list[Number]:
    """Every number on the board (RULES T-3, TA-3, KISSA_EXPERT), sorted by cells."""
    found: dict[tuple[int, ...], int] = {}
    for i in range(CELLS):
        d = board[i]
        if d > 0 or (d == 0 and zero_is_number):  # TA-3: a lone 0 is a number by default
            found[(i,)] = d
    for line in lines(expert):
        n = len(line)
        for s in range(n - 1):
            first = board[line[s]]
            if first <= 0:  # empty, or a leading 0 (T-3: no number begins with 0)
                continue
            value = first
            for e in range(s + 1, n):
                d = board[line[e]]
                if d < 0:  # T-3: digits must be contiguous
                    break
                value = value * 10 + d
                found[line[s : e + 1]] = value
        if expert:  # KISSA_EXPERT: the same line read backwards
            back = line[::-1]
            for s in range(n - 1):
                first = board[back[s]]
                if first <= 0:
                    continue
                value = first
                fwd = first  # the same cells read forwards, to spot palindromes
                scale = 1
                for e in range(s + 1, n):
                    d = board[back[e]]
                    if d < 0:
                        break
                    value = value * 10 + d
                    scale *= 10
                    fwd += d * scale
                    if fwd != value:  # a palindrome is one number, kept in forward reading
                        found[back[s : e + 1]] = value
    return [Number(cells, value) for cells, value in sorted(found.items())]


def is_number(board: Sequence[int], cells: Sequence[int], expert: bool, zero_is_number: bool) -> bool:
    """Whether `cells`, in this order, read as a number on `board` (T-3, TA-3, expert)."""
    if not cells or any(not 0 <= c < CELLS or board[c] < 0 for c in cells):
        return False
    if len(cells) == 1:
        return board[cells[0]] != 0 or zero_is_number
    if board[cells[0]] == 0:
        return False
    r0, c0 = divmod(cells[0], SIZE)
    r1, c1 = divmod(cells[1], SIZE)
    dr, dc = r1 - r0, c1 - c0
    if (dr, dc) not in ((0, 1), (1, 0)) and not (
        expert and max(abs(dr), abs(dc)) == 1
    ):
        return False
    for k, c in enumerate(cells):
        if c != (r0 + k * dr) * SIZE + c0 + k * dc or not 0 <= c0 + k * dc < SIZE:
            return False
    return True


def canonical_cells(board: Sequence[int], cells: tuple[int, ...]) -> tuple[int, ...]:
    """A palindrome given backwards is the same number as its forward reading."""
    if len(cells) > 1 and cells[0] > cells[-1]:
        back = cells[::-1]
        if [board[c] for c in back] == [board[c] for c in cells]:
            return back
    return cells


def value_of(board: Sequence[int], cells: Sequence[int]) -> int:
    v = 0
    for c in cells:
        v = v * 10 + board[c]
    return v


def mask_of(cells: Sequence[int]) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class Triple:
    """A relation between three values: a op b = c, with a <= b (group ids into `values`)."""

    op: str
    a: int
    b: int
    c: int
    score: int


class MoveFinder:
    """All legal moves of one board, found by value first and expanded lazily.

    Moves are tuples ``(op, ia, ib, ic, score)`` with indexes into `numbers` (or, in bulk,
    numpy arrays: see `chunks`). Options are the game's (RULES KISSA_EXPERT, KISSA_KIDS, TA-3).
    """

    def __init__(
        self,
        board: Sequence[int],
        expert: bool = False,
        kids: bool = False,
        zero_is_number: bool = True,
    ) -> None:
        import numpy as np

        self.board = tuple(board)
        self.expert, self.kids, self.zero_is_number = expert, kids, zero_is_number
        self.tokens = sum(1 for d in self.board if d >= 0)
        seg = _segments(expert)
        digits = np.array(self.board + (0,), dtype=np.int64)  # cell 100: padding
        dd = digits[seg.pad]
        ok = ~((dd < 0) & seg.inside).any(axis=1)  # T-3: no empty cell inside a number
        first = dd[:, 0]
        ok &= (seg.length == 1) | (first != 0)  # T-3: no number begins with 0
        if not zero_is_number:
            ok &= (seg.length > 1) | (first != 0)  # TA-3 variant: a lone 0 is no number
        inner = np.where(seg.inside, dd, 0)
        value = (inner * seg.power).sum(axis=1)
        twin = seg.twin
        ok &= ~((twin >= 0) & (value == value[np.maximum(twin, 0)]))  # a palindrome is one number
        ids = np.nonzero(ok)[0]
        self._ids = ids
        self._value = value[ids]
        self._length = seg.length[ids]
        # T-7: each token is worth its digit, 0 worth 10 (padding cells are 0: not counted)
        self._weight = (np.where(inner == 0, 10, inner) * seg.inside).sum(axis=1)[ids]
        uniq, inverse, counts = np.unique(self._value, return_inverse=True, return_counts=True)
        self.values = uniq
        members = np.argsort(inverse, kind="stable").astype(np.int32)
        sizes = counts.astype(np.int32)
        starts = (np.cumsum(sizes) - sizes).astype(np.int32)
        self._csr_arrays = members, starts, sizes
        self._masks = (seg.lo[ids], seg.hi[ids])
        self._numbers: list[Number] | None = None
        self._triples: Any = None

    @property
    def numbers(self) -> list[Number]:
        """Every number on the board, sorted by cells (made on first use)."""
        if self._numbers is None:
            cells = _segments(self.expert).cells
            self._numbers = [
                Number(cells[i], v) for i, v in zip(self._ids.tolist(), self._value.tolist(), strict=True)
            ]
        return self._numbers

    def group(self, g: int) -> list[int]:
        """The indexes of the numbers of value `values[g]`, in cell order."""
        members, starts, sizes = self._csr_arrays
        return members[starts[g] : starts[g] + sizes[g]].tolist()

    # --- value triples -------------------------------------------------------------------
    def triples(self) -> Any:
        """Every value relation with occurrences on the board, best score first.

        numpy arrays ``(a, b, c, product, score)``: group ids into `values`, a <= b."""
        if self._triples is None:
            self._triples = self._find_triples()
        return self._triples

    def triple(self, k: int) -> Triple:
        ga, gb, gc, prod, score = self.triples()
        return Triple(TIMES if prod[k] else PLUS, int(ga[k]), int(gb[k]), int(gc[k]), int(score[k]))

    def _find_triples(self) -> Any:
        import numpy as np

        empty = np.zeros(0, dtype=np.int64)
        if not self.values.size:
            return empty, empty, empty, np.zeros(0, dtype=bool), empty
        u = self.values.astype(np.int64)
        counts = self._csr_arrays[2].astype(np.int64)
        first = self._csr_arrays[0][self._csr_arrays[1]]  # one number of each value
        length = self._length[first]
        w = self._weight[first]
        found: list[tuple[Any, Any, Any, bool]] = []
        max_len = 1 if self.kids else int(length.max())  # KISSA_KIDS: single-digit operands
        present_bits = _bitmap(np, u)
        found.extend(self._sums(np, u, length, max_len, counts, present_bits))
        if self.kids:
            found.extend(self._products(np, u, np.nonzero(length == 1)[0], length, counts, present_bits))
        else:
            found.extend(self._products_by_result(np, u, length, counts))
        found = [f for f in found if f[0].size]
        if not found:
            return empty, empty, empty, np.zeros(0, dtype=bool), empty
        ga = np.concatenate([f[0] for f in found])
        gb = np.concatenate([f[1] for f in found])
        gc = np.concatenate([f[2] for f in found])
        is_prod = np.concatenate([np.full(f[0].size, f[3]) for f in found])
        score = w[ga] + w[gb] + w[gc]
        score = np.where(is_prod, score * 2, score)  # T-7: a product is doubled
        clears = length[ga] + length[gb] + length[gc] == self.tokens
        score = np.where(clears, score * 2, score)  # T-8, TA-6: clearing doubles again
        # best score first, then + before ×, then by operands and result (one sort key)
        key = ((((2047 - score) << 1 | is_prod) << 13 | ga) << 13 | gb) << 13 | gc
        order = np.argsort(key, kind="stable")
        return ga[order], gb[order], gc[order], is_prod[order], score[order]

    def _operands_b(self, np: Any, u: Any, sel: Any) -> Any:
        """Candidate second operands for first operands `sel`: b >= a (canonical order)."""
        if self.kids:
            return sel
        return np.arange(int(sel[0]), u.size)

    def _sums(self, np: Any, u: Any, length: Any, max_len: int, counts: Any, bits: Any) -> list[tuple[Any, Any, Any, bool]]:
        """a + b = c, a <= b: for each b and each length of a, c lies in a narrow window
        of the sorted values (all lengths at once)."""
        lens = [la for la in range(1, max_len + 1) if (length == la).any()]
        amin = np.array([u[length == la][0] for la in lens], dtype=np.int64)
        amax = np.array([u[length == la][-1] for la in lens], dtype=np.int64)
        b_idx = np.nonzero(length <= max_len)[0] if self.kids else np.arange(u.size)
        b_vals = u[b_idx][:, None]
        lo = np.searchsorted(u, (b_vals + amin[None, :]).ravel(), "left")
        hi = np.searchsorted(u, (b_vals + np.minimum(amax[None, :], b_vals)).ravel(), "right")
        n = np.maximum(hi - lo, 0)
        total = int(n.sum())
        if total == 0:
            return []
        ends = np.cumsum(n)
        c_idx = np.repeat(lo - ends + n, n) + np.arange(total)
        a_need = u[c_idx] - np.repeat(np.repeat(b_vals.ravel(), len(lens)), n)
        maybe = np.nonzero(bits[a_need & _BITMASK])[0]  # cheap hash filter first
        a_need, c_idx = a_need[maybe], c_idx[maybe]
        b_i = b_idx[np.searchsorted(ends, maybe, "right") // len(lens)]
        pos = np.minimum(np.searchsorted(u, a_need), u.size - 1)
        ok = (u[pos] == a_need) & (length[pos] <= max_len)
        a_idx, b_i, c_idx = pos[ok], b_i[ok], c_idx[ok]
        keep = self._enough(np, a_idx, b_i, c_idx, counts)
        return [(a_idx[keep], b_i[keep], c_idx[keep], False)]

    def _products(
        self, np: Any, u: Any, sel: Any, length: Any, counts: Any, bits: Any
    ) -> list[tuple[Any, Any, Any, bool]]:
        """a × b = c, neither factor 0 (T-5): an outer product kept within ten digits."""
        sel = sel[u[sel] > 0]
        if sel.size == 0:
            return []
        la = int(length[sel[0]])
        b_idx = self._operands_b(np, u, sel)
        b_idx = b_idx[(length[b_idx] <= SIZE + 1 - la) & (u[b_idx] > 0)]
        if b_idx.size == 0:
            return []
        a_vals = u[sel]
        prod = a_vals[:, None] * u[b_idx][None, :]  # < 10**11, no overflow
        valid = a_vals[:, None] <= u[b_idx][None, :]
        maybe = np.nonzero(valid & bits[prod & _BITMASK])  # cheap hash filter first
        cand = prod[maybe]
        pos = np.minimum(np.searchsorted(u, cand), u.size - 1)
        ok = u[pos] == cand
        a_idx = sel[maybe[0][ok]]
        b_i = b_idx[maybe[1][ok]]
        c_idx = pos[ok]
        keep = self._enough(np, a_idx, b_i, c_idx, counts)
        return [(a_idx[keep], b_i[keep], c_idx[keep], True)]

    def _products_by_result(self, np: Any, u: Any, length: Any, counts: Any) -> list[tuple[Any, Any, Any, bool]]:
        """a × b = c, 1 <= a <= b (T-5: never by zero): for each result c, the factors a up
        to its square root that divide it (a float division, exact at this size)."""
        out = []
        for lc in range(1, int(length.max()) + 1):
            c_idx = np.nonzero(length == lc)[0]
            if c_idx.size == 0:
                continue
            c_vals = u[c_idx]
            a_idx = np.nonzero((u > 0) & (u <= math.isqrt(int(c_vals[-1]))))[0]
            if a_idx.size == 0:
                continue
            a_vals = u[a_idx]
            b = np.rint(c_vals[None, :] / a_vals[:, None]).astype(np.int64)
            hit = np.nonzero((b * a_vals[:, None] == c_vals[None, :]) & (b >= a_vals[:, None]))
            b_vals = b[hit]
            pos = np.minimum(np.searchsorted(u, b_vals), u.size - 1)
            ok = u[pos] == b_vals
            a_i, b_i, c_i = a_idx[hit[0][ok]], pos[ok], c_idx[hit[1][ok]]
            keep = self._enough(np, a_i, b_i, c_i, counts)
            out.append((a_i[keep], b_i[keep], c_i[keep], True))
        return out

    @staticmethod
    def _enough(np: Any, a: Any, b: Any, c: Any, counts: Any) -> Any:
        """Equal values need as many occurrences as they are used (a cheap first filter)."""
        need_a = 1 + (a == b) + (a == c)
        need_b = 1 + (b == a) + (b == c)
        need_c = 1 + (c == a) + (c == b)
        return (counts[a] >= need_a) & (counts[b] >= need_b) & (counts[c] >= need_c)

    # --- occurrences -----------------------------------------------------------------------
    def _mask_arrays(self) -> Any:
        return self._masks

    def chunks(self, budget: int = 1_000_000) -> Iterator[tuple[int, Any]]:
        """All moves, best score first, a few value triples at a time (lazy).

        Yields ``(first, (t, ia, ib, ic))`` where ``first + t`` is the triple's index."""
        import numpy as np

        ga, gb, gc, _, _ = self.triples()
        _, _, sizes = self._csr(np)
        work = np.cumsum(sizes[ga].astype(np.int64) * sizes[gb] * sizes[gc])
        i, n = 0, int(ga.size)
        while i < n:
            done = int(work[i - 1]) if i else 0
            j = int(np.searchsorted(work, done + budget, "right"))
            j = max(j, i + 1)
            yield i, self.expand(i, j)
            i = j

    def expand(self, i: int, j: int) -> Any:
        """The disjoint occurrences of triples i..j-1, as numpy arrays (t, ia, ib, ic).

        `t` is the triple's index minus `i`; rows come triple by triple, and within a
        triple in (ia, ib, ic) order. Pairs (a, b) first, then each kept pair with every c."""
        import numpy as np

        lo, hi = self._mask_arrays()
        tga, tgb, tgc, _, _ = self.triples()
        ga, gb, gc = tga[i:j], tgb[i:j], tgc[i:j]
        members, starts, sizes = self._csr(np)
        glo, ghi = self._group_masks(np)
        nb = sizes[gb]
        t, q, r = _grid(np, sizes[ga] * nb, nb)
        ia = members[starts[ga][t] + q]
        ib = members[starts[gb][t] + r]
        ok = (ga[t] != gb[t]) | (ia < ib)  # a + b and b + a once: equal values in cell order
        # T-4: pairwise disjoint. The cells of every number of a value, put together, tell
        # which triples (then which pairs) can overlap at all: only those are compared.
        need = ((glo[ga] & glo[gb]) | (ghi[ga] & ghi[gb])) != 0
        ok &= _disjoint(np, need, t, lo, hi, ia, lo, hi, ib)
        t, ia, ib = t[ok], ia[ok], ib[ok]
        gct = gc[t]
        cnt = sizes[gct]
        p = np.repeat(np.arange(t.size, dtype=np.int32), cnt)
        shift = np.repeat((np.cumsum(cnt, dtype=np.int32) - cnt - starts[gct]).astype(np.int32), cnt)
        ic = members[np.arange(p.size, dtype=np.int32) - shift]
        m_lo, m_hi = lo[ia] | lo[ib], hi[ia] | hi[ib]
        need = ((m_lo & glo[gct]) | (m_hi & ghi[gct])) != 0
        ok = _disjoint(np, need, p, m_lo, m_hi, None, lo, hi, ic)
        p = p[ok]
        return t[p], ia[p], ib[p], ic[ok]

    def _group_masks(self, np: Any) -> Any:
        """For each value, the union of the cells of all its numbers (bit masks)."""
        if not hasattr(self, "_gmasks"):
            lo, hi = self._masks
            members, starts, sizes = self._csr_arrays
            if members.size:
                self._gmasks = (
                    np.bitwise_or.reduceat(lo[members], starts),
                    np.bitwise_or.reduceat(hi[members], starts),
                )
            else:
                self._gmasks = (lo[:0], hi[:0])
        return self._gmasks

    def _csr(self, np: Any) -> Any:
        return self._csr_arrays

    def moves(self) -> Iterator[tuple[str, int, int, int, int]]:
        """Every legal move ``(op, ia, ib, ic, score)``, best score first."""
        _, _, _, prod, score = self.triples()
        for first, (t, ia, ib, ic) in self.chunks():
            k = t + first
            ops = prod[k].tolist()
            scores = score[k].tolist()
            for p, a, b, c, s in zip(ops, ia.tolist(), ib.tolist(), ic.tolist(), scores, strict=True):
                yield (TIMES if p else PLUS), a, b, c, s

    def count(self) -> int:
        return sum(int(arrs[0].size) for _, arrs in self.chunks())

    def best(self, n: int = 1) -> list[tuple[str, int, int, int, int]]:
        """The `n` best moves by score (ties: the listing order), without listing the rest."""
        out: list[tuple[str, int, int, int, int]] = []
        _, _, _, prod, score = self.triples()
        i, step, total = 0, 4, int(score.size)
        while i < total and len(out) < n:
            j = min(total, i + step)
            t, ia, ib, ic = self.expand(i, j)
            for k, a, b, c in zip(t.tolist(), ia.tolist(), ib.tolist(), ic.tolist(), strict=True):
                if len(out) >= n:
                    break
                out.append((TIMES if prod[i + k] else PLUS, a, b, c, int(score[i + k])))
            i, step = j, step * 2
        return out

    def any_move(self) -> bool:
        """Whether at least one legal move exists (RULES T-9 is decided by this)."""
        n = int(self.triples()[0].size)
        return any(self._first(k) is not None for k in range(n))

    def _first(self, k: int) -> tuple[int, int, int] | None:
        """One disjoint occurrence of value triple k, or None (plain Python: usually quick)."""
        tr = self.triple(k)
        masks = self._py_masks()
        ga, gb, gc = self.group(tr.a), self.group(tr.b), self.group(tr.c)
        for a in ga:
            ma = masks[a]
            for b in gb:
                if (tr.a == tr.b and b <= a) or masks[b] & ma:
                    continue
                mab = ma | masks[b]
                for c in gc:
                    if not masks[c] & mab:
                        return a, b, c
        return None

    def _py_masks(self) -> list[int]:
        if not hasattr(self, "_pm"):
            self._pm = [mask_of(n.cells) for n in self.numbers]
        return self._pm


_BITMASK = (1 << 16) - 1


def _disjoint(np: Any, need: Any, row: Any, lo1: Any, hi1: Any, idx1: Any, lo2: Any, hi2: Any, idx2: Any) -> Any:
    """Per row, whether two numbers share no cell; masks compared only where `need[row]`.

    `idx1` None: lo1/hi1 are already per group of rows (indexed by `row`)."""
    share = float(need.mean()) if need.size else 0.0
    if share > 0.5:  # most rows need it: one pass over all is cheaper than picking them
        a = row if idx1 is None else idx1
        return ((lo1[a] & lo2[idx2]) | (hi1[a] & hi2[idx2])) == 0
    ok = np.ones(row.size, dtype=bool)
    if share == 0.0:
        return ok
    rows = np.nonzero(need[row])[0]
    a = row[rows] if idx1 is None else idx1[rows]
    b = idx2[rows]
    ok[rows] = ((lo1[a] & lo2[b]) | (hi1[a] & hi2[b])) == 0
    return ok


def _grid(np: Any, counts: Any, inner: Any) -> tuple[Any, Any, Any]:
    """Row r repeated counts[r] times: (row, local // inner[row], local % inner[row]), where
    local counts 0, 1, ... within each row (local itself when inner is None)."""
    total = int(counts.sum())
    row = np.repeat(np.arange(counts.size, dtype=np.int32), counts)
    local = np.arange(total, dtype=np.int32) - np.repeat((np.cumsum(counts) - counts).astype(np.int32), counts)
    if inner is None:
        return row, local, None
    width = inner[row]
    q = ((local + 0.5) / width).astype(np.int32)  # float division: exact here, and fast
    return row, q, local - q * width


def _bitmap(np: Any, u: Any) -> Any:
    """A presence table of the values' low 16 bits: most absent products fail it at once."""
    bits = np.zeros(_BITMASK + 1, dtype=bool)
    bits[u & _BITMASK] = True
    return bits


def move_score(values: Sequence[int], op: str, tokens_left_after: int) -> int:
    """RULES T-7, T-8, TA-6: token sum, doubled for a product, doubled again when clearing."""
    score = sum(weight(v) for v in values)
    if op == TIMES:
        score *= 2
    if tokens_left_after == 0:
        score *= 2
    return score
