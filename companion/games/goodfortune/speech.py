"""Spoken forms built from written ones: tiles, charms, lines and scores as messages.

Narration reads tiles from the events' §7 strings only, so a transcript made after the
fact says exactly what the table heard.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from companion.narration import Msg

from .notation import parse_tile
from .scoring import score
from .tiles import Tile


def points_msg(n: int) -> Msg:
    """"1 point", "27 points" (core.points has the plural forms)."""
    return Msg("core.points", n=n)


def as_tile(t: Tile | str) -> Tile:
    return t if isinstance(t, Tile) else parse_tile(t)


def charm_msg(charm: str) -> Msg:
    return Msg(f"goodfortune.charm.{charm}")


def tile_msg(t: Tile | str) -> Msg:
    """"12, trèfle et maneki-neko, dé 4" (number first: it is what players say)."""
    tile = as_tile(t)
    a, b = tile.charms
    if tile.number is None:
        return Msg("goodfortune.tile_nonumber", a=charm_msg(a), b=charm_msg(b), die=tile.die)
    return Msg("goodfortune.tile", number=tile.number, a=charm_msg(a), b=charm_msg(b), die=tile.die)


def number_of(t: Tile | str) -> int:
    n = as_tile(t).number
    assert n is not None
    return n


def seq(items: list[Any]) -> Any:
    """A long spoken list joined with semicolons (tiles, groups): "a ; b ; c"."""
    if not items:
        return Msg("goodfortune.none")
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Msg("goodfortune.seq", head=item, tail=out)
    return out


def tiles_msg(tiles: Iterable[Tile | str]) -> Any:
    return seq([tile_msg(t) for t in tiles])


def numbers_msg(tiles: Iterable[Tile | str]) -> Any:
    items = [str(number_of(t)) for t in tiles]
    return items if items else Msg("goodfortune.none")


def groups_msg(tiles: Sequence[Tile | str], tie_order: str = "best") -> tuple[int, Any]:
    """A collection's score and its groups, each as a message."""
    parsed = [as_tile(t) for t in tiles]
    b = score(parsed, tie_order)
    return b.total, seq([
        Msg("goodfortune.group", charm=charm_msg(g.charm), n=len(g.tiles), dice=g.dice, points=points_msg(g.points),
            numbers=[str(parsed[i].number) for i in g.tiles if parsed[i].number is not None])
        for g in b.groups
    ])


def breakdown_msgs(groups: list[dict[str, Any]]) -> Any:
    """Groups as the game_ended event carries them, as one spoken list."""
    return seq([Msg("goodfortune.group", charm=charm_msg(g["charm"]), n=len(g["tiles"]), dice=g["dice"],
                points=points_msg(g["points"]), numbers=[str(number_of(t)) for t in g["tiles"]]) for g in groups])
