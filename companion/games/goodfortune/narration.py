"""Good Fortune's events as utterances (message ids with parameters; no text here).

Depends only on each event's data and the players' names, so a transcript made after the
game says what the table heard. Tiles are read from the events' §7 strings.
"""

from __future__ import annotations

from typing import Any

from companion.core import Event, Match
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

from .speech import breakdown_msgs, charm_msg, number_of, seq, tile_msg, tiles_msg


def face_msg(face: str) -> Msg:
    return Msg(f"goodfortune.face.{face}")


def meaning_msg(face: str) -> Msg:
    """What the medallion's face means for this round (RULES GF-7)."""
    return Msg(f"goodfortune.face_means.{face}")


def end_msg(end: str) -> Msg:
    return Msg(f"goodfortune.end.{end}")


def declared_together(events: list[Event], match: Match[Any, Any]) -> list[Utterance]:
    """Tiles of the physical deal told in one line, said back once: one sentence for the lucky
    line's tiles and one for the central line's (#17: nine numbers, one echo)."""
    if len(events) == 1:
        return narrate(events[0], match)
    out: list[Utterance] = []
    for zone in ("line", "central"):
        evs = [e for e in events if e.data["zone"] == zone]
        if not evs:
            continue
        tiles = tiles_msg([e.data["tile"] for e in evs])
        numbers = [str(number_of(e.data["tile"])) for e in evs]
        last = evs[-1].data["count"]
        if zone == "line":
            out.append(say("goodfortune.declared_line_many", player=Raw(match.players[0]), tiles=tiles,
                           numbers=numbers, n=last))
        else:
            out.append(say("goodfortune.declared_central_many", tiles=tiles, numbers=numbers, n=last))
    return out


def narrate(event: Event, match: Match[Any, Any]) -> list[Utterance]:
    d = event.data
    names = match.players

    def who(seat: int) -> Raw:
        return Raw(names[seat])

    t = event.type
    if t == "game_started":
        out = [say("goodfortune.started_synthetic" if d["deck"] == "synthetic" else "goodfortune.started_deck",
                   name=Raw(d["deck"]))]
        if d.get("physical"):
            if d["deck"] == "synthetic":
                # RULES GFA-8, §6.1: the invented tiles are not the box's; say how to enter the box's.
                out.append(say("goodfortune.physical_synthetic", Priority.IMPORTANT))
            out.append(say("goodfortune.physical_deal", player=who(0), earcon="question"))
        return out
    if t == "tile_declared":
        if d["zone"] == "line":
            return [say("goodfortune.declared_line", player=who(d["seat"]), tile=tile_msg(d["tile"]), n=d["count"])]
        return [say("goodfortune.declared_central", tile=tile_msg(d["tile"]), n=d["count"])]
    # At a physical table the first player's line and the central line were just said back as
    # the table told them: said once, not again when the game starts (#17).
    told = bool(match.game.config.get("physical"))
    if t == "lucky_line_dealt":
        if told and d["seat"] == 0:
            return []
        return [say("goodfortune.lucky_line", player=who(d["seat"]), tiles=tiles_msg(d["tiles"]), n=len(d["tiles"]))]
    if t == "central_line_laid":
        if told:
            return []
        return [say("goodfortune.central_laid", tiles=tiles_msg(d["tiles"]))]
    if t == "medallion_taken":
        return [say("goodfortune.medallion_taken", player=who(d["seat"]), face=face_msg(d["face"]),
                    meaning=meaning_msg(d["face"]))]
    if t == "round_started":
        shows = d.get("shows")
        extra = [say("goodfortune.ends_show", left=charm_msg(shows[0]), right=charm_msg(shows[1]))] if shows else []
        return [say("goodfortune.round_started", earcon="turn", round=d["round"], player=who(d["holder"]),
                    face=face_msg(d["face"]), meaning=meaning_msg(d["face"]),
                    left=tile_msg(d["ends"][0]), right=tile_msg(d["ends"][1]),
                    lnum=number_of(d["ends"][0]), rnum=number_of(d["ends"][1]))] + extra
    if t == "tile_pushed":
        return [say("goodfortune.pushed", earcon="move", player=who(d["seat"]), tile=tile_msg(d["tile"]),
                    number=number_of(d["tile"]))]
    if t == "order_decided":
        # terse and normal: the placements that follow, in order, say which went first (#29)
        return [say("goodfortune.order", least=Verbosity.VERBOSE, face=face_msg(d["face"]), meaning=meaning_msg(d["face"]),
                    first=who(d["first"]), number=number_of(d["first_tile"]),
                    second=who(d["second"]), other=number_of(d["second_tile"]))]
    if t == "placement_choice":
        choices = seq([_choice(c) for c in d["choices"]])
        return [say("goodfortune.choice", earcon="question", player=who(d["seat"]), number=number_of(d["tile"]),
                    choices=choices)]
    if t == "tile_placed":
        return [_placed(d, who(d["seat"]))]
    if t == "medallion_passed":
        if not d["passed"]:
            mid = "goodfortune.medallion_flipped"
        elif not d["flipped"]:
            mid = "goodfortune.medallion_passed_same"
        else:
            mid = "goodfortune.medallion_passed"
        return [say(mid, player=who(d["seat"]), face=face_msg(d["face"]), meaning=meaning_msg(d["face"]))]
    if t == "game_ended":
        return _ended(d, names)
    return []


def _choice(c: dict[str, Any]) -> Msg:
    kind = "collect" if c["collects"] else "discard"
    if c.get("outer"):
        return Msg(f"goodfortune.choice_{kind}_outer", end=end_msg(c["end"]), outer=charm_msg(c["outer"]),
                   number=number_of(c["gone"]))
    return Msg(f"goodfortune.choice_{kind}", end=end_msg(c["end"]), number=number_of(c["gone"]), tile=tile_msg(c["gone"]))


def _placed(d: dict[str, Any], player: Raw) -> Utterance:
    common: dict[str, Any] = dict(player=player, number=number_of(d["tile"]), end=end_msg(d["end"]),
                                  against=number_of(d["against"]), line=[str(number_of(x)) for x in d["line"]])
    if d["collected"]:
        return say("goodfortune.placed_collect", earcon="good", matched=[charm_msg(c) for c in d["matched"]],
                   collected=tile_msg(d["collected"]), won=number_of(d["collected"]), score=d["score"], **common)
    return say("goodfortune.placed_discard", earcon="bad", discarded=tile_msg(d["discarded"]),
               gone=number_of(d["discarded"]), **common)


def _ended(d: dict[str, Any], names: list[str]) -> list[Utterance]:
    out = [say("goodfortune.ended", Priority.IMPORTANT)]  # why it ended (GF-11), then the scores
    for seat, groups in enumerate(d["breakdowns"]):
        parts = breakdown_msgs(groups) if groups else Msg("goodfortune.no_groups")
        out.append(say("goodfortune.final_score", Priority.IMPORTANT, player=Raw(names[seat]), n=d["scores"][seat],
                       groups=parts))
    scores, winners = d["scores"], d["winners"]
    if len(winners) == 1:
        w = winners[0]
        if scores[0] == scores[1]:
            out.append(say("goodfortune.won_tiebreak", Priority.IMPORTANT, "end", player=Raw(names[w]), n=scores[w],
                           rule=Msg(f"goodfortune.tiebreak.{d['tiebreak']}")))
        else:
            out.append(say("goodfortune.won", Priority.IMPORTANT, "end", player=Raw(names[w]), score=scores[w],
                           other=scores[1 - w]))
    else:
        out.append(say("goodfortune.draw", Priority.IMPORTANT, "end", n=scores[0]))
    return out
