"""Good Fortune's events as utterances (message ids with parameters; no text here).

Depends only on each event's fields and the players' names (`NARRATORS` maps each event
class to its narrator), so a transcript made after the game says what the table heard. Tiles are read from the events' §7 strings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core import Event, Match
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

from . import events as E
from .speech import breakdown_msgs, charm_msg, number_of, seq, tile_msg, tiles_msg


def face_msg(face: str) -> Msg:
    return Msg(f"goodfortune.face.{face}")


def meaning_msg(face: str) -> Msg:
    """What the medallion's face means for this round (RULES GF-7)."""
    return Msg(f"goodfortune.face_means.{face}")


def end_msg(end: str) -> Msg:
    return Msg(f"goodfortune.end.{end}")


def declared_together(events: list[E.TileDeclared], match: Match[Any, Any]) -> list[Utterance]:
    """Tiles of the physical deal told in one line, said back once: one sentence for the lucky
    line's tiles and one for the central line's (#17: nine numbers, one echo)."""
    if len(events) == 1:
        return narrate(events[0], match)
    out: list[Utterance] = []
    for zone in ("line", "central"):
        evs = [e for e in events if e.zone == zone]
        if not evs:
            continue
        tiles = tiles_msg([e.tile for e in evs])
        numbers = [str(number_of(e.tile)) for e in evs]
        last = evs[-1].count
        if zone == "line":
            out.append(say("goodfortune.declared_line_many", player=Raw(match.players[0]), tiles=tiles,
                           numbers=numbers, n=last))
        else:
            out.append(say("goodfortune.declared_central_many", tiles=tiles, numbers=numbers, n=last))
    return out


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
    """What the table hears of `event`."""
    fn = NARRATORS.get(type(event))
    return fn(event, match) if fn is not None else []


def who(match: Match[Any, Any], seat: int) -> Raw:
    return Raw(match.players[seat])


def told(match: Match[Any, Any]) -> bool:
    """At a physical table the first player's line and the central line were just said back as
    the table told them: said once, not again when the game starts (#17)."""
    return bool(match.game.config.get("physical"))


@narrates(E.GameStarted)
def _started(e: E.GameStarted, match: Match[Any, Any]) -> list[Utterance]:
    out = [say("goodfortune.started_synthetic" if e.deck == "synthetic" else "goodfortune.started_deck",
               name=Raw(e.deck))]
    if e.physical:
        if e.deck == "synthetic":
            # RULES GFA-8, §6.1: the invented tiles are not the box's; say how to enter the box's.
            out.append(say("goodfortune.physical_synthetic", Priority.IMPORTANT))
        out.append(say("goodfortune.physical_deal", player=who(match, 0), earcon="question"))
    return out


@narrates(E.TileDeclared)
def _declared(e: E.TileDeclared, match: Match[Any, Any]) -> list[Utterance]:
    if e.zone == "line":
        assert e.seat is not None
        return [say("goodfortune.declared_line", player=who(match, e.seat), tile=tile_msg(e.tile), n=e.count)]
    return [say("goodfortune.declared_central", tile=tile_msg(e.tile), n=e.count)]


@narrates(E.LuckyLineDealt)
def _lucky_line(e: E.LuckyLineDealt, match: Match[Any, Any]) -> list[Utterance]:
    if told(match) and e.seat == 0:
        return []
    return [say("goodfortune.lucky_line", player=who(match, e.seat), tiles=tiles_msg(e.tiles), n=len(e.tiles))]


@narrates(E.CentralLineLaid)
def _central_laid(e: E.CentralLineLaid, match: Match[Any, Any]) -> list[Utterance]:
    if told(match):
        return []
    return [say("goodfortune.central_laid", tiles=tiles_msg(e.tiles))]


@narrates(E.MedallionTaken)
def _medallion_taken(e: E.MedallionTaken, match: Match[Any, Any]) -> list[Utterance]:
    return [say("goodfortune.medallion_taken", player=who(match, e.seat), face=face_msg(e.face),
                meaning=meaning_msg(e.face))]


@narrates(E.RoundStarted)
def _round_started(e: E.RoundStarted, match: Match[Any, Any]) -> list[Utterance]:
    extra: list[Utterance] = []
    if e.shows:  # GF_MATCH=domino_half: both ends show a charm
        left, right = e.shows
        assert left is not None and right is not None
        extra.append(say("goodfortune.ends_show", left=charm_msg(left), right=charm_msg(right)))
    return [say("goodfortune.round_started", earcon="turn", round=e.round, player=who(match, e.holder),
                face=face_msg(e.face), meaning=meaning_msg(e.face),
                left=tile_msg(e.ends[0]), right=tile_msg(e.ends[1]),
                lnum=number_of(e.ends[0]), rnum=number_of(e.ends[1]))] + extra


@narrates(E.TilePushed)
def _pushed(e: E.TilePushed, match: Match[Any, Any]) -> list[Utterance]:
    return [say("goodfortune.pushed", earcon="move", player=who(match, e.seat), tile=tile_msg(e.tile),
                number=number_of(e.tile))]


@narrates(E.OrderDecided)
def _order(e: E.OrderDecided, match: Match[Any, Any]) -> list[Utterance]:
    # terse and normal: the placements that follow, in order, say which went first (#29)
    return [say("goodfortune.order", least=Verbosity.VERBOSE, face=face_msg(e.face), meaning=meaning_msg(e.face),
                first=who(match, e.first), number=number_of(e.first_tile),
                second=who(match, e.second), other=number_of(e.second_tile))]


@narrates(E.PlacementChoice)
def _placement_choice(e: E.PlacementChoice, match: Match[Any, Any]) -> list[Utterance]:
    choices = seq([_choice(c) for c in e.choices])
    return [say("goodfortune.choice", earcon="question", player=who(match, e.seat), number=number_of(e.tile),
                choices=choices)]


@narrates(E.TilePlaced)
def _tile_placed(e: E.TilePlaced, match: Match[Any, Any]) -> list[Utterance]:
    return [_placed(e, who(match, e.seat))]


@narrates(E.MedallionPassed)
def _medallion_passed(e: E.MedallionPassed, match: Match[Any, Any]) -> list[Utterance]:
    if not e.passed:
        mid = "goodfortune.medallion_flipped"
    elif not e.flipped:
        mid = "goodfortune.medallion_passed_same"
    else:
        mid = "goodfortune.medallion_passed"
    return [say(mid, player=who(match, e.seat), face=face_msg(e.face), meaning=meaning_msg(e.face))]


@narrates(E.GameEnded)
def _game_ended(e: E.GameEnded, match: Match[Any, Any]) -> list[Utterance]:
    return _ended(e, match.players)


def _choice(c: dict[str, Any]) -> Msg:
    kind = "collect" if c["collects"] else "discard"
    if c.get("outer"):
        return Msg(f"goodfortune.choice_{kind}_outer", end=end_msg(c["end"]), outer=charm_msg(c["outer"]),
                   number=number_of(c["gone"]))
    return Msg(f"goodfortune.choice_{kind}", end=end_msg(c["end"]), number=number_of(c["gone"]), tile=tile_msg(c["gone"]))


def _placed(e: E.TilePlaced, player: Raw) -> Utterance:
    common: dict[str, Any] = dict(player=player, number=number_of(e.tile), end=end_msg(e.end),
                                  against=number_of(e.against), line=[str(number_of(x)) for x in e.line])
    if e.collected:
        return say("goodfortune.placed_collect", earcon="good", matched=[charm_msg(c) for c in e.matched],
                   collected=tile_msg(e.collected), won=number_of(e.collected), score=e.score, **common)
    assert e.discarded is not None
    return say("goodfortune.placed_discard", earcon="bad", discarded=tile_msg(e.discarded),
               gone=number_of(e.discarded), **common)


def _ended(e: E.GameEnded, names: list[str]) -> list[Utterance]:
    out = [say("goodfortune.ended", Priority.IMPORTANT)]  # why it ended (GF-11), then the scores
    for seat, groups in enumerate(e.breakdowns):
        parts = breakdown_msgs(groups) if groups else Msg("goodfortune.no_groups")
        out.append(say("goodfortune.final_score", Priority.IMPORTANT, player=Raw(names[seat]), n=e.scores[seat],
                       groups=parts))
    scores, winners = e.scores, e.winners
    if len(winners) == 1:
        w = winners[0]
        if scores[0] == scores[1]:
            out.append(say("goodfortune.won_tiebreak", Priority.IMPORTANT, "end", player=Raw(names[w]), n=scores[w],
                           rule=Msg(f"goodfortune.tiebreak.{e.tiebreak}")))
        else:
            out.append(say("goodfortune.won", Priority.IMPORTANT, "end", player=Raw(names[w]), score=scores[w],
                           other=scores[1 - w]))
    else:
        out.append(say("goodfortune.draw", Priority.IMPORTANT, "end", n=scores[0]))
    return out
