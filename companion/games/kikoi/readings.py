"""KIKOI's readings: one's own board (to the asker alone, RULES KIA-10), what a token feels
like (RULES §3.1), the learn mode (the 28 tokens one by one) and the public log (only in the
easier mode)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core import Match, fold
from companion.games.base import Answer, Ask, Intent, Refuse
from companion.language import groups
from companion.narration import Msg, Priority, Raw, Utterance, say, secret, stand_in

from . import narration
from .notation import Found
from .rules import ANSWER, ASK, DEAL, DRAW, KIKONK_ASK, PIRATE, REDS, DrawBlind, Drew, Pass, Rules
from .rules import Ask as AskAction
from .tokens import KIKOI, MOMENTS, RED, white

NOTHING = Found((), (), ())


# --- the reading commands and their handlers --------------------------------------------
@dataclass(frozen=True)
class Describe:
    token: Found = NOTHING
    kikoi: Found | None = None


@dataclass(frozen=True)
class Board:
    token: Found | None = None


@dataclass(frozen=True)
class Learn:
    """« apprendre »: the tokens explained one by one."""


@dataclass(frozen=True)
class Log:
    """« historique »: what happened since the player's last move."""


@dataclass(frozen=True)
class Status:
    """« état » of the game: days, bag, who is to play."""


def describe_command(token: Found | None = None, kikoi: Found | None = None) -> Describe:
    return Describe(token or kikoi or NOTHING)


def on_learn(c: Learn, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return learn(0, seat), view


def on_describe(c: Describe, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return Answer(describe(c.token, seat), command="describe"), view


def on_board(c: Board, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if c.token is not None and c.token.reds:
        return None, view
    return Answer(board(match, seat, c.token), command="board"), view


def on_log(c: Log, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return log(match, seat), view


def on_status(c: Status, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return Answer(status(match.game, match, seat), command="status"), view  # type: ignore[arg-type]


def _has(folded: str, key: str) -> bool:
    padded = f" {folded} "
    return any(f" {w} " in padded for w in groups("kikoi", "words").get(key, ()))


def board(match: Match[Any, Any], seat: int, found: Found | None = None) -> list[Utterance]:
    """The asker's own board, said to them alone (RULES KIA-10)."""
    view = match.game.view(match.state, seat)
    tokens = view["board"]
    if found is not None and found.kikois:
        tokens = [t for t in tokens if KIKOI.index(t.split("-")[0]) in found.kikois]
        out = narration.board_reading(tokens, seat)[1:]
        out = [u for u in out if any(isinstance(p, Msg) and p.params.get("kikoi") in
                                     [narration.kikoi(KIKOI[k]) for k in found.kikois] for p in u.parts)]
    else:
        out = narration.board_reading(tokens, seat, secret=bool(view.get("secret")))
    return out

def describe(found: Found, seat: int) -> list[Utterance]:
    """Textures and symbols: "c'est quoi le KIGLISS ?" (RULES §3.1)."""
    out: list[Utterance] = []
    for k in found.kikois:
        out.append(say("kikoi.describe_kikoi", Priority.TEXT, None, seat, kikoi=narration.kikoi(KIKOI[k]),
                       texture=Msg(f"kikoi.texture.{KIKOI[k]}"), row=k + 1))
        moments = found.moments or tuple(range(5))
        for m in moments:
            out.append(say("kikoi.describe_token", Priority.TEXT, None, seat,
                           token=narration.tok(white(k, m)), symbol=Msg(f"kikoi.symbol.{MOMENTS[m]}")))
    if not found.kikois:
        for m in found.moments:
            out.append(say("kikoi.describe_moment", Priority.TEXT, None, seat,
                           moment=Msg(f"kikoi.moment.{MOMENTS[m]}"), symbol=Msg(f"kikoi.symbol.{MOMENTS[m]}")))
    for t in found.reds:
        name = RED[t - 25]
        out.append(say(f"kikoi.describe_red.{name}", Priority.TEXT, None, seat))
    return out

def learn(i: int, seat: int) -> Intent:
    """The learn mode: the 28 tokens one by one; "suivant" / "next" goes on."""
    if i >= 28:
        return Answer([say("kikoi.learn_done", Priority.TEXT, "good", seat)], command="learn")
    if i < 25:
        k, m = divmod(i, 5)
        body = say("kikoi.learn_white", Priority.TEXT, None, seat, i=i + 1, token=narration.tok(i),
                   texture=Msg(f"kikoi.texture.{KIKOI[k]}"), symbol=Msg(f"kikoi.symbol.{MOMENTS[m]}"))
    else:
        body = say("kikoi.learn_red", Priority.TEXT, None, seat, i=i + 1,
                   description=Msg(f"kikoi.describe_red.{RED[i - 25]}"))
    parts = body.parts + (Msg("kikoi.learn_next"),) if i == 0 else body.parts
    question = Utterance(parts, Priority.TEXT, "question", seat)

    def resolve(line: str) -> Intent | None:
        f = fold(line)
        if not f or _has(f, "next"):
            return learn(i + 1, seat)
        if _has(f, "end_learn"):
            return Answer([say("kikoi.learn_stopped", Priority.TEXT, None, seat)])
        return None

    return Ask(question, resolve, command="learn")

def log(match: Match[Any, Any], seat: int) -> Intent:
    """The public events again: only in the easier mode (RULES KIA-10 variant)."""
    if not match.game.config["repeat_public_log"]:
        return Refuse([say("kikoi.log_not_allowed", Priority.TEXT, "error", seat)], command="log")
    utts: list[Utterance] = []
    for ev in match.events():
        if ev.to is None:
            utts.extend(Utterance(u.parts, Priority.TEXT, None, seat) for u in narration.narrate(ev, list(match.players)))
    return Answer(utts[-40:], command="log")


def help(game: Rules, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """What `seat` can do now (the same words for everyone in a KIPIRAT window), and the queries."""
    out: list[Utterance] = []
    if match.over or seat is None:
        out.append(say("kikoi.help.queries", Priority.TEXT, to=seat))
        return out
    state = game.seen_state(match.state, seat)
    if state.actor != seat:
        out.append(say("kikoi.help.wait", Priority.TEXT, to=seat, player=Raw(match.players[state.actor])))
    else:
        legal = game.legal_actions(state, seat)
        first = legal[0]
        phase = state.phase
        if phase == ASK and isinstance(first, AskAction) and first.target is not None:
            # the example is a token the player may ask for: it names their row (KIA-10)
            out.append(stand_in(say("kikoi.help.ask_public", Priority.TEXT, to=seat)))
            out.append(secret(say("kikoi.help.ask", Priority.TEXT, to=seat, target=Raw(match.players[first.target]),
                                  token=narration.tok(first.token))))
        elif phase == KIKONK_ASK and isinstance(first, AskAction):
            out.append(stand_in(say("kikoi.help.kikonk_public", Priority.TEXT, to=seat)))
            out.append(secret(say("kikoi.help.kikonk", Priority.TEXT, to=seat, token=narration.tok(first.token))))
        elif isinstance(first, DrawBlind):
            out.append(say("kikoi.help.draw_blind", Priority.TEXT, to=seat))
        elif isinstance(first, Pass):
            out.append(say("kikoi.help.pass", Priority.TEXT, to=seat))
        elif phase == ANSWER:
            out.append(say("kikoi.help.answer", Priority.TEXT, to=seat))
        elif phase == DEAL:
            out.append(say("kikoi.help.deal", Priority.TEXT, to=seat, n=state.deal_left))
        elif phase == REDS:
            out.append(say("kikoi.help.reds", Priority.TEXT, to=seat))
        elif isinstance(first, Drew):
            out.append(say("kikoi.help.draw", Priority.TEXT, to=seat))
        elif phase == PIRATE:
            # the same words for everyone: the help never tells who holds the KIPIRAT
            out.append(say("kikoi.help.pirate", Priority.TEXT, to=seat))
    out.append(say("kikoi.help.queries", Priority.TEXT, to=seat))
    return out


def status(game: Rules, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """Whose turn, the bag, and the player's own completed days (others' only in the easy mode)."""
    state = game.seen_state(match.state, seat)
    out: list[Utterance] = []
    if match.over:
        out.append(say("kikoi.status_over", Priority.TEXT, to=seat))
        for s, b in enumerate(game.view(state, None)["days"]):
            out.append(say("kikoi.final_days" if b else "kikoi.final_none", Priority.TEXT, to=seat,
                           player=Raw(match.players[s]), n=len(b), days=[narration.kikoi(k) for k in b]))
        return out
    out.append(say(f"kikoi.status.{state.phase}", Priority.TEXT, to=seat,
                   player=Raw(match.players[state.actor]), turn=Raw(match.players[state.turn]),
                   n=len(state.bag)))
    view = game.view(state, seat)
    if seat is not None:
        mine = view["days"][seat]
        out.append(say("kikoi.status_mine", Priority.TEXT, "private", seat, n=len(mine),
                       days=[narration.kikoi(k) for k in mine] or Msg("kikoi.nothing")))
    if game.config["repeat_public_log"]:
        for s, b in enumerate(view["days"]):
            if s != seat:
                out.append(say("kikoi.final_days" if b else "kikoi.final_none", Priority.TEXT, to=seat,
                               player=Raw(match.players[s]), n=len(b), days=[narration.kikoi(k) for k in b]))
    return out


def legal_is_request(game: Rules, state: Any, seat: int) -> bool:
    legal = game.legal_actions(state, seat)
    return bool(legal) and isinstance(legal[0], AskAction)


def turn_prompt(game: Rules, match: Match[Any, Any], seat: int) -> list[Utterance]:
    """Whose turn it is and what the table waits for, in the words of the phase."""
    state = match.state
    name = Raw(match.players[seat])
    phase = state.phase
    if phase == PIRATE and state.pending is not None:
        return [say("kikoi.prompt.pirate", Priority.MESSAGE, "question", seat, player=name,
                    token=narration.tok(state.pending[0]))]
    if phase == ANSWER and state.request is not None:
        asker, _target, t = state.request
        return [say("kikoi.prompt.answer", Priority.MESSAGE, "question", None, player=name,
                    asker=Raw(match.players[asker]), token=narration.tok(t))]
    if phase == DEAL:
        return [say("kikoi.prompt.deal", Priority.MESSAGE, "turn", seat, player=name, n=state.deal_left)]
    if phase == REDS:
        return [say("kikoi.prompt.reds", Priority.MESSAGE, "question", None, player=name)]
    if phase == DRAW:
        return [say("kikoi.prompt.draw", Priority.MESSAGE, "draw", None, player=name)]
    if phase == KIKONK_ASK:
        return [say("kikoi.prompt.kikonk", Priority.MESSAGE, "turn", None, player=name)]
    if phase == ASK and legal_is_request(game, state, seat):
        return [say("kikoi.prompt.ask", Priority.MESSAGE, "turn", None, player=name)]
    return [say("core.your_turn", player=name, earcon="turn")]
