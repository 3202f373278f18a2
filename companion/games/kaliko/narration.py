"""Kaliko events to utterances (message ids with parameters; no text here).

Each play is narrated path by path ("ligne rouge : 6 segments, un croisement, fermée -
18 points"). Narration reads only the event's data and the players' names.
"""

from __future__ import annotations

from typing import Any

from companion.core import Event, Match
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

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


def played_utterance(d: dict[str, Any], player: Raw) -> Utterance:
    """A scoring play in one utterance: who, the points, where (every cell), the main path
    joined and the incidental ones, the player's total. Terse: "Paul 8 : 3h1, 3h2. blanche. Total 13."."""
    paths = _ordered_paths(d["paths"])
    parts: list[Msg] = [
        Msg(
            "kaliko.played",
            player=player,
            n=len(d["placements"]),
            score=d["score"],
            cells=[cell_msg(*p["cell"]) for p in d["placements"]],
        )
    ]
    parts += [path_msg(p, line=True) for p in paths]
    parts.append(Msg("kaliko.total", player=player, n=d["total"]))
    return Utterance(tuple(parts), Priority.MESSAGE, "score")


def narrate(event: Event, match: Match[Any, Any]) -> list[Utterance]:
    d = event.data
    names = match.players

    def who(seat: int) -> Raw:
        return Raw(names[seat])

    t = event.type
    if t == "game_started" and d.get("physical"):
        out = [say("kaliko.started_physical", players=d["players"], first=who(d["first"]))]
        if d["start"] is not None:  # a chosen start tile (RULES K-4 variant)
            out.append(say("kaliko.start_tile", tile=tile_msg(d["start"]["tile"]), number=d["start"]["number"]))
        return out
    if t == "start_told":  # physical table: the start tile laid at the centre (RULES K-4)
        return [say("kaliko.start_tile", tile=tile_msg(d["tile"]), number=d["number"])]
    if t == "tiles_told":  # physical table: the tiles told, read back to their owner alone
        first = d.get("first", 1)
        return [say("kaliko.told", to=d["seat"], earcon="private", n=len(d["tiles"]), tiles=hand_list(d["tiles"], first))]
    if t == "tiles_returned":  # physical table: an exchange's old tiles go back, after the draw (K-7)
        return [say("kaliko.returned", player=who(d["seat"]), n=d["n"], bag=d["bag"])]
    if t == "game_started":
        start = d["start"]
        return [
            say("kaliko.started", players=d["players"], bag=d["bag"], first=who(d["first"])),
            say("kaliko.start_tile", tile=tile_msg(start["tile"]), number=start["number"]),
        ]
    # Tiles coming into a hand are announced as a count ("main" reads them), by their hand
    # positions; only the verbose forms list them (the {tiles} parameter).
    if t == "hand_dealt":
        return [say("kaliko.hand_dealt", to=d["seat"], earcon="private", n=len(d["tiles"]), tiles=hand_list(d["tiles"]))]
    if t == "tiles_played":
        return [played_utterance(d, who(d["seat"]))]
    if t == "tiles_drawn":
        # terse: the bag on request (« sac »): a routine draw is not news (#29)
        return [say("kaliko.drawn", earcon="draw", least=Verbosity.NORMAL, player=who(d["seat"]), n=d["n"], bag=d["bag"])]
    if t == "tiles_drawn_private":
        first = d.get("first", 1)
        return [say("kaliko.you_drew", to=d["seat"], earcon="private", n=len(d["tiles"]), first=first,
                    tiles=hand_list(d["tiles"], first))]
    if t == "tiles_exchanged":
        return [say("kaliko.exchanged", earcon="draw", player=who(d["seat"]), n=d["n"], bag=d["bag"])]
    if t == "exchange_drawn":
        first = d.get("first", 1)
        return [say("kaliko.exchange_private", to=d["seat"], earcon="private", n=len(d["drawn"]), first=first,
                    tiles=hand_list(d["drawn"], first))]
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
