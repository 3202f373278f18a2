"""Good Fortune's pieces: the seven charms and the tile (number, charm pair, die).

RULES GF §2.1: 21 tiles, each with a number 1-21, two different charms and a die of 1-4 pips;
7 charms, so the 21 tiles are the 21 pairs of charms (§6.1). Ids follow RULES §7.
"""

from __future__ import annotations

from dataclasses import dataclass

#: RULES §7 charm ids, in the canonical order of GFA-5's `fixed` tie order.
CHARMS: tuple[str, ...] = ("clover", "horseshoe", "fatima", "neko", "ganesh", "mati", "scarab")
N_TILES = 21
DIE_VALUES = (1, 2, 3, 4)
FIRST, LAST = 1, 21  # RULES GF-1: the two tiles dealt one to each player


@dataclass(frozen=True)
class Tile:
    """One tile. `number` is None only for a collected tile written without its number."""

    number: int | None
    charms: tuple[str, str]
    die: int

    def has(self, charm: str) -> bool:
        return charm in self.charms

    def shares(self, other: Tile) -> tuple[str, ...]:
        """The charms this tile has in common with `other` (RULES GFA-2, default reading)."""
        return tuple(c for c in self.charms if c in other.charms)

    def other(self, charm: str) -> str:
        """The tile's charm that is not `charm` (its outer half once `charm` touches)."""
        a, b = self.charms
        return b if charm == a else a

    @property
    def pair(self) -> frozenset[str]:
        return frozenset(self.charms)

    def __str__(self) -> str:  # RULES §7: number:charm+charm:die
        body = f"{self.charms[0]}+{self.charms[1]}:{self.die}"
        return body if self.number is None else f"{self.number}:{body}"
