"""KIKOI events as utterances: message ids with parameters, no text (kikoi.po holds the words).

Public events are said to the table once (RULES KIA-10); a player's own tokens (deal, draw,
a secret KIPIRAT, a new board after KITOURN in the announcing variant) are said to that
player only. Depends only on the event's fields and the players' names; `NARRATORS` maps
each event class to its narrator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core import Event
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

from . import events as E
from .tokens import KIKOI, MOMENTS, is_white, token_from_id


def tok(token: int | str) -> Msg:
    """A token's spoken name: "le Kigliss qui dort" / "Kigliss sleeping"."""
    t = token_from_id(token) if isinstance(token, str) else token
    if is_white(t):
        return Msg(f"kikoi.tok.{MOMENTS[t % 5]}", kikoi=Msg(f"kikoi.name.{KIKOI[t // 5]}"))
    return Msg(f"kikoi.red.{('kikonk', 'kitourn', 'kipirat')[t - 25]}")


def kikoi(name: str) -> Msg:
    return Msg(f"kikoi.name.{name}")


def token_list(tokens: list[str]) -> Msg | list[Msg]:
    """A spoken list of tokens in board order (KIA-11: house, eat, bike, forest, sleep)."""
    if not tokens:
        return Msg("kikoi.nothing")
    return [tok(t) for t in sorted(tokens, key=token_from_id)]


def board_reading(tokens: list[str], to: int | None, priority: Priority = Priority.TEXT,
                  secret: bool = False) -> list[Utterance]:
    """A board read row by row, top to bottom (KIMOUSS first), empty rows said as such.

    A secret KIPIRAT is said in the first line, never as a line of its own: a shared screen
    shows « (dit en privé à Anne) » once per private line, so one more line would name its
    holder to everyone (RULES KI-11)."""
    rows: list[list[str]] = [[] for _ in range(5)]
    for t in tokens:
        v = token_from_id(t)
        if is_white(v):
            rows[v // 5].append(t)
    out = [say("kikoi.board_count_secret" if secret else "kikoi.board_count", priority, "private", to,
               n=len(tokens))]
    for k, row in enumerate(rows):
        name = kikoi(KIKOI[k])
        if not row:
            out.append(say("kikoi.row_empty", priority, None, to, kikoi=name))
        elif len(row) == 5:
            out.append(say("kikoi.row_full", priority, None, to, kikoi=name))
        else:
            moments = [Msg(f"kikoi.moment.{MOMENTS[token_from_id(t) % 5]}") for t in sorted(row, key=token_from_id)]
            out.append(say("kikoi.row", priority, None, to, kikoi=name, n=len(row), moments=moments))
    return out


Narrator = Callable[[Any, list[str]], list[Utterance]]
# One narrator per event class of `events.py` (tests/test_events_typed.py checks that none is
# missing, by walking the classes, not by playing).
NARRATORS: dict[type[Event], Narrator] = {}


def narrates(*kinds: type[Event]) -> Callable[[Narrator], Narrator]:
    def register(fn: Narrator) -> Narrator:
        for kind in kinds:
            NARRATORS[kind] = fn
        return fn
    return register


def narrate(event: Event, players: list[str]) -> list[Utterance]:
    """What the table (or, for a private event, its one player) hears of `event`."""
    fn = NARRATORS.get(type(event))
    return fn(event, players) if fn is not None else []


def name(players: list[str], seat: int | None) -> Raw:
    return Raw(players[seat]) if seat is not None and 0 <= seat < len(players) else Raw("?")


@narrates(E.GameStarted)
def _started(e: E.GameStarted, players: list[str]) -> list[Utterance]:
    msg = "kikoi.started_physical" if e.physical else "kikoi.started"
    out = [say(msg, n=e.players, deal=e.deal, first=name(players, e.first))]
    if not e.red_tokens:
        out.append(say("kikoi.red_off"))
    elif e.physical:
        # RULES KI-1: at a real table the red tokens stay out of the bag for the deal.
        out.append(say("kikoi.red_aside"))
    else:
        out.append(say("kikoi.red_on"))
    return out


@narrates(E.RedsDue)
def _reds_due(e: E.RedsDue, players: list[str]) -> list[Utterance]:
    # RULES KI-3: the deal is done; now the red tokens go into the bag.
    return [say("kikoi.reds_due", earcon="turn")]


@narrates(E.RedsPutIn)
def _reds_in(e: E.RedsPutIn, players: list[str]) -> list[Utterance]:
    return [say("kikoi.reds_in")]


@narrates(E.TokensDealt)
def _dealt(e: E.TokensDealt, players: list[str]) -> list[Utterance]:
    return [say("kikoi.dealt", Priority.MESSAGE, "private", e.seat, n=len(e.tokens), tokens=token_list(e.tokens))]


@narrates(E.TokenDealt)
def _dealt_one(e: E.TokenDealt, players: list[str]) -> list[Utterance]:
    return [say("kikoi.dealt_one", Priority.MESSAGE, "private", e.seat, token=tok(e.token))]


@narrates(E.DealDone)
def _deal_done(e: E.DealDone, players: list[str]) -> list[Utterance]:
    return [say("kikoi.deal_done", n=e.bag)]


@narrates(E.TurnBegan)
def _turn(e: E.TurnBegan, players: list[str]) -> list[Utterance]:
    # terse: the question or the prompt that follows names the player (#29)
    return [say("kikoi.turn", earcon="turn", least=Verbosity.NORMAL, player=name(players, e.seat))]


@narrates(E.PlayAgain)
def _play_again(e: E.PlayAgain, players: list[str]) -> list[Utterance]:
    return [say("kikoi.play_again", least=Verbosity.NORMAL, player=name(players, e.seat))]


@narrates(E.Asked)
def _asked(e: E.Asked, players: list[str]) -> list[Utterance]:
    return [say("kikoi.asked", earcon="question", asker=name(players, e.asker), target=name(players, e.target),
                token=tok(e.token))]


@narrates(E.KikonkAsked)
def _kikonk_asked(e: E.KikonkAsked, players: list[str]) -> list[Utterance]:
    return [say("kikoi.kikonk_asked", earcon="question", asker=name(players, e.asker), token=tok(e.token))]


@narrates(E.Given)
def _given(e: E.Given, players: list[str]) -> list[Utterance]:
    msg = "kikoi.given_kikonk" if e.kikonk else "kikoi.given"
    return [say(msg, earcon="move", giver=name(players, e.giver), receiver=name(players, e.receiver),
                token=tok(e.token))]


@narrates(E.Refused)
def _refused(e: E.Refused, players: list[str]) -> list[Utterance]:
    return [say("kikoi.refused", earcon="bad", target=name(players, e.target), asker=name(players, e.asker))]


@narrates(E.RefusedCompleted)
def _refused_completed(e: E.RefusedCompleted, players: list[str]) -> list[Utterance]:
    return [say("kikoi.refused_completed", earcon="bad", target=name(players, e.target), kikoi=kikoi(e.kikoi))]


@narrates(E.TurnLost)
def _turn_lost(e: E.TurnLost, players: list[str]) -> list[Utterance]:
    return [say("kikoi.turn_lost", player=name(players, e.seat))]


@narrates(E.BagEmptied)
def _bag_emptied(e: E.BagEmptied, players: list[str]) -> list[Utterance]:
    return [say("kikoi.bag_emptied")]


@narrates(E.BagEmptyNoDraw)
def _no_draw(e: E.BagEmptyNoDraw, players: list[str]) -> list[Utterance]:
    return [say("kikoi.no_draw", player=name(players, e.seat))]


@narrates(E.TokenDrawn)
def _drew(e: E.TokenDrawn, players: list[str]) -> list[Utterance]:
    return [say("kikoi.drew", Priority.MESSAGE, "private", e.seat, token=tok(e.token))]


@narrates(E.GoodDraw)
def _good_draw(e: E.GoodDraw, players: list[str]) -> list[Utterance]:
    return [say("kikoi.good_draw", earcon="good", player=name(players, e.seat), n=e.bag)]


@narrates(E.BadDraw)
def _bad_draw(e: E.BadDraw, players: list[str]) -> list[Utterance]:
    return [say("kikoi.bad_draw", earcon="draw", player=name(players, e.seat), n=e.bag)]


@narrates(E.DrewBlind)
def _drew_blind(e: E.DrewBlind, players: list[str]) -> list[Utterance]:
    return [say("kikoi.drew_blind", earcon="draw", player=name(players, e.seat), n=e.bag)]


@narrates(E.KikonkDrawn)
def _kikonk_drawn(e: E.KikonkDrawn, players: list[str]) -> list[Utterance]:
    return [say("kikoi.kikonk_drawn", earcon="good", player=name(players, e.seat))]


@narrates(E.KikonkFailed)
def _kikonk_failed(e: E.KikonkFailed, players: list[str]) -> list[Utterance]:
    if e.token is None:
        return [say("kikoi.kikonk_nothing", player=name(players, e.asker))]
    return [say("kikoi.kikonk_failed", earcon="bad", token=tok(e.token))]


@narrates(E.KitournDrawn)
def _kitourn_drawn(e: E.KitournDrawn, players: list[str]) -> list[Utterance]:
    return [say("kikoi.kitourn_drawn", earcon="draw", player=name(players, e.seat))]


@narrates(E.BoardsRotated)
def _rotated(e: E.BoardsRotated, players: list[str]) -> list[Utterance]:
    return [say("kikoi.boards_rotated", earcon="move")]


@narrates(E.BoardReceived)
def _board_received(e: E.BoardReceived, players: list[str]) -> list[Utterance]:
    return board_reading(e.tokens, e.seat, Priority.MESSAGE)


@narrates(E.KipiratDrawn)
def _kipirat_drawn(e: E.KipiratDrawn, players: list[str]) -> list[Utterance]:
    return [say("kikoi.kipirat_drawn", Priority.MESSAGE, "private", e.seat)]


@narrates(E.Stolen)
def _stolen(e: E.Stolen, players: list[str]) -> list[Utterance]:
    return [say("kikoi.stolen", Priority.IMPORTANT, "bad", pirate=name(players, e.pirate),
                receiver=name(players, e.receiver), token=tok(e.token))]


@narrates(E.DayCompleted)
def _day_completed(e: E.DayCompleted, players: list[str]) -> list[Utterance]:
    return [say("kikoi.day_completed", earcon="score", player=name(players, e.seat), kikoi=kikoi(e.kikoi))]


@narrates(E.Passed)
def _passed(e: E.Passed, players: list[str]) -> list[Utterance]:
    return [say("kikoi.passed", player=name(players, e.seat))]


@narrates(E.GameEnded)
def _ended(e: E.GameEnded, players: list[str]) -> list[Utterance]:
    out = [say(f"kikoi.ended.{e.reason or 'all_days'}", Priority.IMPORTANT, "end")]
    for seat, days in enumerate(e.days):
        if days:
            out.append(say("kikoi.final_days", Priority.IMPORTANT, player=name(players, seat), n=len(days),
                           days=[kikoi(k) for k in days]))
        else:
            out.append(say("kikoi.final_none", Priority.IMPORTANT, player=name(players, seat)))
    winners = [name(players, s) for s in e.winners]
    out.append(say("kikoi.winners", Priority.IMPORTANT, n=len(winners), players=winners))
    return out
