"""Good Fortune's readings: every zone said on request (RULES GFA-9: everything is public).

Each reading is a frozen command record read by the one grammar, with its handler
`(command, match, seat, view) -> (intent, view)`: an `Answer` to the seat who asked.

The central line and its ends, either lucky line, either collection with its grouped score,
the medallion, where a tile is, the discards, and what each of one's tiles would do now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core import Match
from companion.games.base import Answer, Intent
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration
from .rules import HAND, LEFT, RIGHT, GoodFortune, State, placements
from .scoring import score
from .speech import charm_msg, groups_msg, points_msg, tile_msg, tiles_msg
from .tiles import N_TILES


# --- the reading commands and their handlers ------------------------------------------
@dataclass(frozen=True)
class Where:
    number: int


@dataclass(frozen=True)
class Central:
    end: str | None = None


@dataclass(frozen=True)
class Zone:
    """A reading of one player's zone, or both: `whose` is "mine", "opponent", "both", or a
    seat named (`player`)."""

    whose: str | None = None
    player: int | None = None


class Collection(Zone):
    """The declared zone is a collection."""


class Line(Zone):
    """The declared zone is a line."""


@dataclass(frozen=True)
class Query:
    """A reading without a slot: discards, medallion, options, deck, status."""


class Discards(Query):
    """« les défausses »: the discards said."""


class Medallion(Query):
    """« le médaillon »: who holds it."""


class Options(Query):
    """« les options »: the choices open now."""


class Deck(Query):
    """« la pioche »: what is left to draw."""


class Status(Query):
    """« état » of the game's own."""


def _answer(seat: int, msgs: list[Msg], command: str) -> Answer:
    return Answer([Utterance((m,), Priority.TEXT, None, seat) for m in msgs], command=command)


def _seats(zone: Zone, seat: int) -> tuple[int, ...]:
    if zone.player is not None:
        return (zone.player,)
    return {"both": (0, 1), "opponent": (1 - seat,)}.get(zone.whose or "", (seat,))


def on_where(c: Where, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return _answer(seat, [where(match.state, c.number, match)], "where"), view


def on_central(c: Central, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return _answer(seat, [central(match.state)], "central"), view


def on_collection(c: Collection, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return _answer(seat, [collection(match.state, s, match) for s in _seats(c, seat)], "collection"), view


def on_line(c: Line, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return _answer(seat, [lucky_line(match.state, s, match) for s in _seats(c, seat)], "line"), view


def on_discards(c: Discards, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    return _answer(seat, [Msg("goodfortune.read.discarded", n=len(state.discarded),
                              tiles=tiles_msg(state.tile(n) for n in state.discarded))], "discards"), view


def on_medallion(c: Medallion, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if match.state.phase == "declare":  # no medallion before the deal is done
        return _answer(seat, [Msg("goodfortune.medallion_not_yet")], "medallion"), view
    return _answer(seat, [medallion(match.state, match)], "medallion"), view


def on_options(c: Options, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return _answer(seat, options(match.state, match, seat), "options"), view


def on_deck(c: Deck, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    mid = "goodfortune.read.deck_synthetic" if state.deck == "synthetic" else "goodfortune.read.deck"
    return _answer(seat, [Msg(mid, name=Raw(state.deck))], "deck"), view


def on_status(c: Status, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return Answer(status(match, seat), command="status"), view


# --- what they say ----------------------------------------------------------------------
def central(state: State) -> Msg:
    if len(state.central) < 3:
        return Msg("goodfortune.read.central_partial", n=len(state.central), tiles=tiles_msg(state.tile(n) for n in state.central))
    lefts = state.lefts
    if lefts is not None:
        from .rules import exposed

        return Msg("goodfortune.read.central_halves", left=tile_msg(state.tile(state.central[0])),
                   middle=tile_msg(state.tile(state.central[1])), right=tile_msg(state.tile(state.central[2])),
                   left_shows=charm_msg(exposed(state.tiles, state.central, lefts, LEFT) or ""),
                   right_shows=charm_msg(exposed(state.tiles, state.central, lefts, RIGHT) or ""))
    return Msg("goodfortune.read.central", left=tile_msg(state.tile(state.central[0])),
               middle=tile_msg(state.tile(state.central[1])), right=tile_msg(state.tile(state.central[2])))


def lucky_line(state: State, s: int, match: Match[Any, Any]) -> Msg:
    line = state.lines[s]
    if not line:
        return Msg("goodfortune.read.line_empty", player=Raw(match.players[s]))
    return Msg("goodfortune.read.line", player=Raw(match.players[s]), n=len(line),
               tiles=tiles_msg(state.tile(n) for n in line))


def collection(state: State, s: int, match: Match[Any, Any]) -> Msg:
    col = [state.tile(n) for n in state.collections[s]]
    if not col:
        return Msg("goodfortune.read.collection_empty", player=Raw(match.players[s]))
    total, groups = groups_msg(col, match.game.config["tie_order"])
    return Msg("goodfortune.read.collection", player=Raw(match.players[s]), n=len(col), score=points_msg(total),
               tiles=tiles_msg(col), groups=groups)


def medallion(state: State, match: Match[Any, Any]) -> Msg:
    return Msg("goodfortune.read.medallion", player=Raw(match.players[state.holder]),
               face=narration.face_msg(state.face), meaning=narration.meaning_msg(state.face))


def where(state: State, n: int, match: Match[Any, Any]) -> Msg:
    if not 1 <= n <= N_TILES:
        return Msg("goodfortune.read.no_such_tile", number=n)
    tile = tile_msg(state.tile(n))
    for s in (0, 1):
        if n in state.lines[s]:
            return Msg("goodfortune.read.where_line", tile=tile, player=Raw(match.players[s]))
        if n in state.collections[s]:
            return Msg("goodfortune.read.where_collection", tile=tile, player=Raw(match.players[s]))
        if state.pushed[s] == n:
            return Msg("goodfortune.read.where_pushed", tile=tile, player=Raw(match.players[s]))
    if n in state.central:
        pos = ("left", "middle", "right")[state.central.index(n)] if len(state.central) == 3 else "middle"
        return Msg("goodfortune.read.where_central", tile=tile, position=Msg(f"goodfortune.position.{pos}"))
    if n in state.discarded:
        return Msg("goodfortune.read.where_discarded", tile=tile)
    return Msg("goodfortune.read.where_unknown", tile=tile)


def options(state: State, match: Match[Any, Any], seat: int) -> list[Msg]:
    """What each of one's tiles would do against the line as it stands now."""
    if state.phase == "declare" or len(state.central) < 3:
        return [Msg("goodfortune.read.options_none")]
    if state.phase == "place" and state.pushed[seat] is not None:
        numbers = [state.pushed[seat]]
    else:
        numbers = list(state.lines[seat])
    if not numbers:
        return [Msg("goodfortune.read.options_none")]
    out = [Msg("goodfortune.read.options_intro")]
    for n in numbers:
        assert n is not None
        game: GoodFortune = match.game  # type: ignore[assignment]
        opts = placements(state.tiles, state.central, state.lefts, n, game.domino_half, game.free_end)
        ends = []
        for o in opts:
            if any(e.end == o.end for e in opts[: opts.index(o)]):
                continue
            gone = state.central[-1 if o.end == LEFT else 0]
            if o.collects:
                after = score([state.tile(x) for x in (*state.collections[seat], gone)], match.game.config["tie_order"])
                ends.append(Msg("goodfortune.read.option_collect", end=narration.end_msg(o.end), number=gone,
                                score=after.total))
            else:
                ends.append(Msg("goodfortune.read.option_discard", end=narration.end_msg(o.end), number=gone))
        out.append(Msg("goodfortune.read.option", number=n, ends=ends))
    return out


def status(match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """Where the game stands: the round, the medallion, what each player pushed, whose turn,
    the central line, the scores."""
    state: State = match.state
    out: list[Msg] = []
    scores = match.outcome().scores
    if state.phase == "declare":
        out.append(Msg("goodfortune.status.declare", player=Raw(match.players[0]),
                       n=len(state.lines[0]) + len(state.central)))
    elif match.over:
        out.append(Msg("goodfortune.status.over"))
    else:
        out.append(Msg("goodfortune.status.round", round=state.round))
        out.append(medallion(state, match))
        for s in (0, 1):
            pushed = state.pushed[s]
            if pushed is not None:
                out.append(Msg("goodfortune.read.where_pushed", tile=tile_msg(state.tile(pushed)),
                               player=Raw(match.players[s])))
        cur = match.current
        assert cur is not None
        if state.phase == "place":
            out.append(Msg("goodfortune.status.to_place", player=Raw(match.players[cur]), number=state.pushed[cur]))
        else:
            out.append(Msg("goodfortune.status.to_push", player=Raw(match.players[cur])))
        out.append(central(state))
    if state.phase != "declare":
        out.append(Msg("goodfortune.status.scores", a=Raw(match.players[0]), sa=scores[0],
                       b=Raw(match.players[1]), sb=scores[1]))
    return [Utterance((m,), Priority.TEXT, None, seat) for m in out]


def help(match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """What can be done now, by `seat` (None: someone who is not playing), and the readings."""
    state: State = match.state
    if match.over:
        mid = "goodfortune.help.over"
    elif seat is None or match.current != seat:
        mid = "goodfortune.help.wait"
    elif state.phase == "declare":
        mid = "goodfortune.help.declare_line" if len(state.lines[0]) < HAND else "goodfortune.help.declare_central"
    elif state.phase == "place":
        mid = "goodfortune.help.place_outer" if getattr(match.game, "domino_half", False) else "goodfortune.help.place"
    else:
        mid = "goodfortune.help.push"
    current = match.current
    return [say(mid, Priority.TEXT, to=seat, player=Raw(match.players[current]) if current is not None else Raw("")),
            say("goodfortune.help.readings", Priority.TEXT, to=seat)]
