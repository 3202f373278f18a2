"""KIKOI events as utterances: message ids with parameters, no text (kikoi.po holds the words).

Public events are said to the table once (RULES KIA-10); a player's own tokens (deal, draw,
a secret KIPIRAT, a new board after KITOURN in the announcing variant) are said to that
player only. Depends only on the event's data and the players' names.
"""

from __future__ import annotations

from typing import Any

from companion.core import Event
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, say

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


def narrate(event: Event, players: list[str]) -> list[Utterance]:
    d: dict[str, Any] = event.data

    def name(seat: int | None) -> Raw:
        return Raw(players[seat]) if seat is not None and 0 <= seat < len(players) else Raw("?")

    kind = event.type
    if kind == "game_started":
        msg = "kikoi.started_physical" if d.get("physical") else "kikoi.started"
        out = [say(msg, n=d["players"], deal=d["deal"], first=name(d["first"]))]
        if not d.get("red_tokens"):
            out.append(say("kikoi.red_off"))
        elif d.get("physical"):
            # RULES KI-1: at a real table the red tokens stay out of the bag for the deal.
            out.append(say("kikoi.red_aside"))
        else:
            out.append(say("kikoi.red_on"))
        return out
    if kind == "reds_due":
        # RULES KI-3: the deal is done; now the red tokens go into the bag.
        return [say("kikoi.reds_due", earcon="turn")]
    if kind == "reds_in":
        return [say("kikoi.reds_in")]
    if kind == "tokens_dealt":
        return [say("kikoi.dealt", Priority.MESSAGE, "private", d["seat"], n=len(d["tokens"]),
                    tokens=token_list(d["tokens"]))]
    if kind == "token_dealt":
        return [say("kikoi.dealt_one", Priority.MESSAGE, "private", d["seat"], token=tok(d["token"]))]
    if kind == "deal_done":
        return [say("kikoi.deal_done", n=d["bag"])]
    if kind == "turn_began":
        # terse: the question or the prompt that follows names the player (#29)
        return [say("kikoi.turn", earcon="turn", least=Verbosity.NORMAL, player=name(d["seat"]))]
    if kind == "play_again":
        return [say("kikoi.play_again", least=Verbosity.NORMAL, player=name(d["seat"]))]
    if kind == "asked":
        return [say("kikoi.asked", earcon="question", asker=name(d["asker"]), target=name(d["target"]),
                    token=tok(d["token"]))]
    if kind == "kikonk_asked":
        return [say("kikoi.kikonk_asked", earcon="question", asker=name(d["asker"]), token=tok(d["token"]))]
    if kind == "given":
        msg = "kikoi.given_kikonk" if d.get("kikonk") else "kikoi.given"
        return [say(msg, earcon="move", giver=name(d["giver"]), receiver=name(d["receiver"]),
                    token=tok(d["token"]))]
    if kind == "refused":
        return [say("kikoi.refused", earcon="bad", target=name(d["target"]), asker=name(d["asker"]))]
    if kind == "refused_completed":
        return [say("kikoi.refused_completed", earcon="bad", target=name(d["target"]),
                    kikoi=kikoi(d["kikoi"]))]
    if kind == "turn_lost":
        return [say("kikoi.turn_lost", player=name(d["seat"]))]
    if kind == "bag_emptied":
        return [say("kikoi.bag_emptied")]
    if kind == "bag_empty_no_draw":
        return [say("kikoi.no_draw", player=name(d["seat"]))]
    if kind == "token_drawn":
        return [say("kikoi.drew", Priority.MESSAGE, "private", d["seat"], token=tok(d["token"]))]
    if kind == "good_draw":
        return [say("kikoi.good_draw", earcon="good", player=name(d["seat"]), n=d["bag"])]
    if kind == "bad_draw":
        return [say("kikoi.bad_draw", earcon="draw", player=name(d["seat"]), n=d["bag"])]
    if kind == "drew_blind":
        return [say("kikoi.drew_blind", earcon="draw", player=name(d["seat"]), n=d["bag"])]
    if kind == "kikonk_drawn":
        return [say("kikoi.kikonk_drawn", earcon="good", player=name(d["seat"]))]
    if kind == "kikonk_failed":
        if d.get("token") is None:
            return [say("kikoi.kikonk_nothing", player=name(d["asker"]))]
        return [say("kikoi.kikonk_failed", earcon="bad", token=tok(d["token"]))]
    if kind == "kitourn_drawn":
        return [say("kikoi.kitourn_drawn", earcon="draw", player=name(d["seat"]))]
    if kind == "boards_rotated":
        return [say("kikoi.boards_rotated", earcon="move")]
    if kind == "board_received":
        return board_reading(d["tokens"], d["seat"], Priority.MESSAGE)
    if kind == "kipirat_drawn":
        return [say("kikoi.kipirat_drawn", Priority.MESSAGE, "private", d["seat"])]
    if kind == "stolen":
        return [say("kikoi.stolen", Priority.IMPORTANT, "bad", pirate=name(d["pirate"]),
                    receiver=name(d["receiver"]), token=tok(d["token"]))]
    if kind == "day_completed":
        return [say("kikoi.day_completed", earcon="score", player=name(d["seat"]), kikoi=kikoi(d["kikoi"]))]
    if kind == "passed":
        return [say("kikoi.passed", player=name(d["seat"]))]
    if kind == "game_ended":
        out = [say(f"kikoi.ended.{d.get('reason') or 'all_days'}", Priority.IMPORTANT, "end")]
        for seat, days in enumerate(d["days"]):
            if days:
                out.append(say("kikoi.final_days", Priority.IMPORTANT, player=name(seat), n=len(days),
                               days=[kikoi(k) for k in days]))
            else:
                out.append(say("kikoi.final_none", Priority.IMPORTANT, player=name(seat)))
        winners = [name(s) for s in d["winners"]]
        out.append(say("kikoi.winners", Priority.IMPORTANT, n=len(winners), players=winners))
        return out
    return []
