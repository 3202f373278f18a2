"""Kaliko events to utterances (message ids with parameters; no text here).

Each play is narrated path by path ("ligne rouge : 6 segments, un croisement, fermée -
18 points"). Narration reads only the event's fields and the players' names; `NARRATORS` maps each
event class to its narrator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core import Event, Match
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

from . import events as E
from .notation import cell_msg, segment_msgs
from .tiles import TILES


def tile_msg(tile: str) -> Msg:
    """A tile described segment by segment, as it lies."""
    s1, s2, s3 = segment_msgs(tile)
    return Msg("kaliko.tile", s1=s1, s2=s2, s3=s3)


def tok(tid: str) -> Msg:
    """A tile by its written id (its number 1-85, RULES §7), as the token reader names a tag
    laid on it (« tuile 42 : rouge de 3 à 5 h… »); ValueError for no tile."""
    n = int(tid)
    if not 1 <= n <= len(TILES):
        raise ValueError(tid)
    return Msg("kaliko.numbered_tile", number=n, tile=tile_msg(TILES[n - 1]))


def crossings_msg(n: int) -> Msg:
    return Msg("kaliko.n_crossings", n=n) if n else Msg("kaliko.no_crossing")


def path_msg(p: dict[str, Any], line: bool = False) -> Msg:
    """One scoring path of a play: colour, segments, crossings, closed, main, points.
    `line`: as a play's narration names it (kaliko.line: colour and closed, #29)."""
    return Msg(
        "kaliko.line" if line else "kaliko.path" if p["crossings"] else "kaliko.path_uncrossed",
        colour=Msg(f"kaliko.colour_f.{p['colour']}"),
        segments=Msg("kaliko.n_segments", n=p["segments"]),
        crossings=crossings_msg(p["crossings"]),
        closed=Msg("kaliko.closed") if p["closed"] else Msg("kaliko.open"),
        role=Msg("kaliko.main") if p.get("main") else Msg("kaliko.incidental"),
        n=p["score"],
    )


def hand_list(numbers: list[int], first: int = 1) -> list[Msg]:
    """Tiles of a hand by their place in it (the one numbering players use: "prends 2")."""
    return [Msg("kaliko.hand_item", pos=first + i, tile=tile_msg(TILES[n - 1])) for i, n in enumerate(numbers)]


def _ordered_paths(paths: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main path first (the one the play joined), then the incidental ones."""
    return sorted(paths, key=lambda p: not p.get("main"))


def played_utterance(e: E.TilesPlayed, player: Raw) -> Utterance:
    """A scoring play in one utterance: who, the points, where (every cell), the main path
    joined and the incidental ones, the player's total. Terse: "Paul 8 : 3h1, 3h2. blanche. Total 13."."""
    paths = _ordered_paths(e.paths)
    parts: list[Msg] = [
        Msg(
            "kaliko.played",
            player=player,
            n=len(e.placements),
            score=e.score,
            cells=[cell_msg(*p["cell"]) for p in e.placements],
        )
    ]
    parts += [path_msg(p, line=True) for p in paths]
    parts.append(Msg("kaliko.total", player=player, n=e.total))
    return Utterance(tuple(parts), Priority.MESSAGE, "score")


Narrator = Callable[[Any, Match[Any, Any]], list[Utterance]]
# One narrator per event class of `events.py` (tests/test_events_typed.py checks that none is
# missing, by walking the classes, not by playing).
NARRATORS: dict[type[Event], Narrator] = {}


def narrates(*kinds: type[Event]) -> Callable[[Narrator], Narrator]:
    def register(fn: Narrator) -> Narrator:
        for kind in kinds:
            NARRATORS[kind] = fn
        return fn
    return register


def narrate(event: Event, match: Match[Any, Any]) -> list[Utterance]:
    """What the table (or, for a private event, its one player) hears of `event`."""
    fn = NARRATORS.get(type(event))
    return fn(event, match) if fn is not None else []


def who(match: Match[Any, Any], seat: int) -> Raw:
    return Raw(match.players[seat])


@narrates(E.GameStarted)
def _started(e: E.GameStarted, match: Match[Any, Any]) -> list[Utterance]:
    if e.physical:
        out = [say("kaliko.started_physical", players=e.players, first=who(match, e.first))]
        if e.start is not None:  # a chosen start tile (RULES K-4 variant)
            out.append(say("kaliko.start_tile", tile=tile_msg(e.start["tile"]), number=e.start["number"]))
        return out
    start = e.start
    assert start is not None
    return [
        say("kaliko.started", players=e.players, bag=e.bag, first=who(match, e.first)),
        say("kaliko.start_tile", tile=tile_msg(start["tile"]), number=start["number"]),
    ]


@narrates(E.StartTold)
def _start_told(e: E.StartTold, match: Match[Any, Any]) -> list[Utterance]:
    # physical table: the start tile laid at the centre (RULES K-4)
    return [say("kaliko.start_tile", tile=tile_msg(e.tile), number=e.number)]


@narrates(E.TilesTold)
def _told(e: E.TilesTold, match: Match[Any, Any]) -> list[Utterance]:
    # physical table: the tiles told, read back to their owner alone
    return [say("kaliko.told", to=e.seat, earcon="private", n=len(e.tiles), tiles=hand_list(e.tiles, e.first))]


@narrates(E.TilesReturned)
def _returned(e: E.TilesReturned, match: Match[Any, Any]) -> list[Utterance]:
    # physical table: an exchange's old tiles go back, after the draw (K-7)
    return [say("kaliko.returned", player=who(match, e.seat), n=e.n, bag=e.bag)]


# Tiles coming into a hand are announced as a count ("main" reads them), by their hand
# positions; only the verbose forms list them (the {tiles} parameter).
@narrates(E.HandDealt)
def _hand_dealt(e: E.HandDealt, match: Match[Any, Any]) -> list[Utterance]:
    return [say("kaliko.hand_dealt", to=e.seat, earcon="private", n=len(e.tiles), tiles=hand_list(e.tiles))]


@narrates(E.TilesPlayed)
def _played(e: E.TilesPlayed, match: Match[Any, Any]) -> list[Utterance]:
    return [played_utterance(e, who(match, e.seat))]


@narrates(E.TilesDrawn)
def _drawn(e: E.TilesDrawn, match: Match[Any, Any]) -> list[Utterance]:
    # terse: the bag on request (« sac »): a routine draw is not news (#29)
    return [say("kaliko.drawn", earcon="draw", least=Verbosity.NORMAL, player=who(match, e.seat), n=e.n, bag=e.bag)]


@narrates(E.TilesDrawnPrivate)
def _you_drew(e: E.TilesDrawnPrivate, match: Match[Any, Any]) -> list[Utterance]:
    return [say("kaliko.you_drew", to=e.seat, earcon="private", n=len(e.tiles), first=e.first,
                tiles=hand_list(e.tiles, e.first))]


@narrates(E.TilesExchanged)
def _exchanged(e: E.TilesExchanged, match: Match[Any, Any]) -> list[Utterance]:
    return [say("kaliko.exchanged", earcon="draw", player=who(match, e.seat), n=e.n, bag=e.bag)]


@narrates(E.ExchangeDrawn)
def _exchange_drawn(e: E.ExchangeDrawn, match: Match[Any, Any]) -> list[Utterance]:
    return [say("kaliko.exchange_private", to=e.seat, earcon="private", n=len(e.drawn), first=e.first,
                tiles=hand_list(e.drawn, e.first))]


@narrates(E.Passed)
def _passed(e: E.Passed, match: Match[Any, Any]) -> list[Utterance]:
    return [say("kaliko.passed", player=who(match, e.seat), n=e.passes)]


@narrates(E.GameEnded)
def _ended(e: E.GameEnded, match: Match[Any, Any]) -> list[Utterance]:
    scores = [Msg("kaliko.player_score", player=who(match, i), n=s) for i, s in enumerate(e.scores)]
    winners = [who(match, i) for i in e.winners]
    reason = Msg(f"kaliko.end.{e.reason or 'all_passed'}")
    return [
        say("kaliko.ended", priority=Priority.IMPORTANT, earcon="end", reason=reason, scores=scores,
            winners=winners, n=len(winners))
    ]
