"""Kaliko events to utterances (message ids with parameters; no text here).

Each play is narrated path by path ("ligne rouge : 6 segments, un croisement, fermée -
18 points"). Narration reads only the event's data and the players' names.
"""

from __future__ import annotations

from typing import Any

from companion.core import Event, Match
from companion.narration import Msg, Priority, Raw, Utterance, say

from .notation import cell_msg, segment_msgs
from .tiles import TILES


def tile_msg(tile: str) -> Msg:
    """A tile described segment by segment, as it lies."""
    s1, s2, s3 = segment_msgs(tile)
    return Msg("kaliko.tile", s1=s1, s2=s2, s3=s3)


def crossings_msg(n: int) -> Msg:
    return Msg("kaliko.n_crossings", n=n) if n else Msg("kaliko.no_crossing")


def path_msg(p: dict[str, Any]) -> Msg:
    """One scoring path of a play: colour, segments, crossings, closed, main, points."""
    return Msg(
        "kaliko.path",
        colour=Msg(f"kaliko.colour_f.{p['colour']}"),
        segments=Msg("kaliko.n_segments", n=p["segments"]),
        crossings=crossings_msg(p["crossings"]),
        closed=Msg("kaliko.closed") if p["closed"] else Msg("kaliko.open"),
        role=Msg("kaliko.main") if p.get("main") else Msg("kaliko.incidental"),
        n=p["score"],
    )


def _tiles(numbers: list[int], seat: int) -> list[Utterance]:
    """One private utterance per tile: a list of tiles of three lines each is too long."""
    return [
        Utterance((Msg("kaliko.numbered_tile", number=n, tile=tile_msg(TILES[n - 1])),), Priority.MESSAGE, None, seat)
        for n in numbers
    ]


def narrate(event: Event, match: Match[Any, Any]) -> list[Utterance]:
    d = event.data
    names = match.players

    def who(seat: int) -> Raw:
        return Raw(names[seat])

    t = event.type
    if t == "game_started":
        start = d["start"]
        return [
            say("kaliko.started", players=d["players"], bag=d["bag"], first=who(d["first"])),
            say("kaliko.start_tile", tile=tile_msg(start["tile"]), number=start["number"]),
        ]
    if t == "hand_dealt":
        return [say("kaliko.hand_dealt", to=d["seat"], earcon="private", n=len(d["tiles"]))] + _tiles(
            d["tiles"], d["seat"]
        )
    if t == "tiles_played":
        out = [
            say(
                "kaliko.played",
                earcon="score",
                player=who(d["seat"]),
                n=len(d["placements"]),
                score=d["score"],
                cells=[cell_msg(*p["cell"]) for p in d["placements"]],
            )
        ]
        for p in d["paths"]:
            out.append(Utterance((path_msg(p),), Priority.MESSAGE))
        out.append(say("kaliko.total", player=who(d["seat"]), n=d["total"]))
        return out
    if t == "tiles_drawn":
        return [say("kaliko.drawn", earcon="draw", player=who(d["seat"]), n=d["n"], bag=d["bag"])]
    if t == "tiles_drawn_private":
        return [say("kaliko.you_drew", to=d["seat"], earcon="private", n=len(d["tiles"]))] + _tiles(
            d["tiles"], d["seat"]
        )
    if t == "tiles_exchanged":
        return [say("kaliko.exchanged", earcon="draw", player=who(d["seat"]), n=d["n"], bag=d["bag"])]
    if t == "exchange_drawn":
        return [say("kaliko.exchange_private", to=d["seat"], earcon="private", n=len(d["drawn"]))] + _tiles(
            d["drawn"], d["seat"]
        )
    if t == "passed":
        return [say("kaliko.passed", player=who(d["seat"]), n=d["passes"])]
    if t == "game_ended":
        scores = [Msg("kaliko.player_score", player=who(i), n=s) for i, s in enumerate(d["scores"])]
        winners = [who(i) for i in d["winners"]]
        reason = Msg(f"kaliko.end.{d.get('reason') or 'all_passed'}")
        return [
            say("kaliko.ended", priority=Priority.IMPORTANT, earcon="end", reason=reason, scores=scores,
                winners=winners, n=len(winners))
        ]
    return []
