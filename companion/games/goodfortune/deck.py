"""Decks: the table of the 21 tiles (number, charm pair, die), its checks, the synthetic deck.

Pure. The publisher's table is not public (RULES GFA-8), so the project ships a *synthetic*
deck, always named "synthetic" and never presented as the publisher's (RULES §6.1). An owner
enters their own copy's table once (see `deckfile.py` and `cli.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .notation import parse_tile
from .tiles import CHARMS, DIE_VALUES, N_TILES, Tile

SYNTHETIC = "synthetic"
DEFAULT = "default"  # the deck option's default: the owner's chosen deck, else the synthetic one

#: Invented for the project: every pair of charms once, numbers 1-21, dice 1-4, chosen so
#: that each charm's die sum is 14-16. NOT the publisher's table.
_SYNTHETIC_TILES = (
    "1:clover+fatima:2", "2:clover+mati:1", "3:ganesh+mati:2", "4:ganesh+scarab:2",
    "5:horseshoe+mati:2", "6:fatima+scarab:3", "7:clover+neko:1", "8:clover+horseshoe:4",
    "9:neko+scarab:1", "10:horseshoe+fatima:1", "11:mati+scarab:3", "12:fatima+mati:4",
    "13:horseshoe+neko:3", "14:horseshoe+ganesh:1", "15:neko+ganesh:4", "16:fatima+neko:2",
    "17:clover+scarab:3", "18:fatima+ganesh:3", "19:horseshoe+scarab:4", "20:neko+mati:4",
    "21:clover+ganesh:3",
)  # fmt: skip

ALL_PAIRS = frozenset(frozenset(p) for p in combinations(CHARMS, 2))


@dataclass(frozen=True)
class Deck:
    name: str
    tiles: tuple[Tile, ...]  # sorted by number: tiles[n - 1].number == n

    @property
    def synthetic(self) -> bool:
        return self.name == SYNTHETIC

    def tile(self, number: int) -> Tile:
        return self.tiles[number - 1]


class DeckError(ValueError):
    """A table that is not a deck; `problems` lists (code, detail) pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{c}: {d}" if d else c for c, d in problems))
        self.problems = problems


def problems(tiles: list[Tile]) -> list[tuple[str, str]]:
    """Everything wrong with a table of tiles (empty when it is a deck). §2.1, §6.1."""
    out: list[tuple[str, str]] = []
    if len(tiles) != N_TILES:
        out.append(("count", f"{len(tiles)} tiles, a deck has {N_TILES}"))
    seen_n: dict[int, Tile] = {}
    seen_p: dict[frozenset[str], Tile] = {}
    for t in tiles:
        if t.number is None or not 1 <= t.number <= N_TILES:
            out.append(("number", f"{t}: numbers run from 1 to {N_TILES}"))
        elif t.number in seen_n:
            out.append(("number_twice", f"{t} and {seen_n[t.number]}"))
        else:
            seen_n[t.number] = t
        if t.charms[0] == t.charms[1] or any(c not in CHARMS for c in t.charms):
            out.append(("pair", f"{t}: two different charms of {', '.join(CHARMS)}"))
        elif t.pair in seen_p:
            out.append(("pair_twice", f"{t} and {seen_p[t.pair]}"))
        else:
            seen_p[t.pair] = t
        if t.die not in DIE_VALUES:
            out.append(("die", f"{t}: a die shows 1 to 4"))
    missing_n = [n for n in range(1, N_TILES + 1) if n not in seen_n]
    if missing_n and len(tiles) == N_TILES:
        out.append(("number_missing", ", ".join(map(str, missing_n))))
    return out


def make_deck(name: str, tiles: list[Tile]) -> Deck:
    found = problems(tiles)
    if found:
        raise DeckError(found)
    return Deck(name, tuple(sorted(tiles, key=lambda t: t.number or 0)))


def synthetic() -> Deck:
    return make_deck(SYNTHETIC, [parse_tile(s, need_number=True) for s in _SYNTHETIC_TILES])


def free_pairs(tiles: list[Tile]) -> list[frozenset[str]]:
    """Charm pairs no tile of `tiles` has yet (for the guided entry), in canonical order."""
    used = {t.pair for t in tiles}
    return [frozenset(p) for p in combinations(CHARMS, 2) if frozenset(p) not in used]
