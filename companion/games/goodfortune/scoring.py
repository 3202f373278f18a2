"""Scoring a collection (RULES GF-12, GF-13, GFA-5, GFA-6): greedy grouping by charm.

Pure. Repeat on the tiles not yet grouped (GFA-6, dynamic recount): take the charm on the
most tiles; on equal count, the one whose tiles have the higher die sum (GF-12.2); group
*all* remaining tiles showing it (GF-12.3). A group scores tiles x die sum (GF-13).

Ties beyond the die sum (GFA-5): by default every tied charm is tried and the branch with
the highest total is kept (the first such branch in canonical charm order when totals are
equal); `tie_order="fixed"` takes the first tied charm in canonical order instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .tiles import CHARMS, Tile

TIE_ORDERS = ("best", "fixed")


@dataclass(frozen=True)
class Group:
    charm: str
    tiles: tuple[int, ...]  # indices into the scored collection, in the order given
    dice: int

    @property
    def points(self) -> int:  # RULES GF-13
        return len(self.tiles) * self.dice


@dataclass(frozen=True)
class Breakdown:
    total: int
    groups: tuple[Group, ...]


def score(tiles: Sequence[Tile], tie_order: str = "best") -> Breakdown:
    """The grouping of `tiles` under RULES GF-12 and its total (GF-13)."""
    if tie_order not in TIE_ORDERS:
        raise ValueError(tie_order)
    key = tuple((CHARMS.index(t.charms[0]), CHARMS.index(t.charms[1]), t.die) for t in tiles)
    total, plan = _best(key, (1 << len(key)) - 1, tie_order == "fixed")
    groups = []
    left = (1 << len(key)) - 1
    for c in plan:
        idx = tuple(i for i in range(len(key)) if left >> i & 1 and c in key[i][:2])
        groups.append(Group(CHARMS[c], idx, sum(key[i][2] for i in idx)))
        for i in idx:
            left &= ~(1 << i)
    return Breakdown(total, tuple(groups))


def total(tiles: Sequence[Tile], tie_order: str = "best") -> int:
    return score(tiles, tie_order).total


@lru_cache(maxsize=200_000)
def _best(key: tuple[tuple[int, int, int], ...], left: int, fixed: bool) -> tuple[int, tuple[int, ...]]:
    """(best total, charms in group order) for the tiles of `key` whose bit is set in `left`."""
    if not left:
        return 0, ()
    count = [0] * len(CHARMS)
    dsum = [0] * len(CHARMS)
    for i, (a, b, d) in enumerate(key):
        if left >> i & 1:
            count[a] += 1
            dsum[a] += d
            count[b] += 1
            dsum[b] += d
    top = max(zip(count, dsum, strict=True))  # GF-12.1 most tiles, GF-12.2 then the higher die sum
    tied = [c for c in range(len(CHARMS)) if (count[c], dsum[c]) == top]
    if fixed:  # GFA-5 variant: canonical charm order
        tied = tied[:1]
    best: tuple[int, tuple[int, ...]] | None = None
    for c in tied:  # GFA-5 default: try every tied branch, keep the best total
        rest = left
        for i, (a, b, _d) in enumerate(key):
            if left >> i & 1 and (a == c or b == c):
                rest &= ~(1 << i)
        sub, plan = _best(key, rest, fixed)
        here = count[c] * dsum[c] + sub
        if best is None or here > best[0]:
            best = (here, (c, *plan))
    assert best is not None
    return best
