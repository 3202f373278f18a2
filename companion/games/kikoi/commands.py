"""KIKOI's commands, read by the one grammar, and their handlers.

Requests in any order and either language: "demande à Bob le KIGLISS qui dort", "Bob, kigliss
dort ?", "ask Bob for kigliss sleep" (the patterns are in `companion/language/<lang>/kikoi.json`,
``"read"``; the slots read in `phrases`). A missing or ambiguous part is asked back. Queries
(`readings`): "mon plateau" / "my board" (said to the asker only), "c'est quoi le KIGLISS ?",
"apprendre" / "learn", "journal" / "log" (only in the easier mode `repeat_public_log`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.core import Event, IllegalAction, Match, fold
from companion.games.base import Act, Ask, GameUI, Handler, Intent, Refuse
from companion.language import find_players, strip_players, words, yes_no
from companion.language.grammar import Grammar
from companion.narration import Msg, Priority, Raw, Utterance, say, secret, stand_in

from . import narration, readings
from .notation import Found, find_tokens, scan
from .phrases import GRAMMAR, vocabulary
from .reader import KikoiTokens
from .readings import NOTHING, Board, Describe, Learn, Log, Status
from .rules import (
    ALL,
    ANSWER,
    ASK,
    DEAL,
    DRAW,
    KIKONK_ASK,
    PIRATE,
    REDS,
    DrawBlind,
    Drew,
    Pass,
    Pirate,
    RedsIn,
    Reply,
    Rules,
)
from .rules import (
    Ask as AskAction,
)
from .tokens import KIKOI, KIPIRAT, token_from_id, token_id, white

# Refusals whose reason names what the asker holds (a token on their board, their row's KIKOI).
SECRET_REASONS = ("already_have", "kikoi_not_on_board")


# --- the commands --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Said:
    """A turn said: the turn or answer words (`verb`: their groups), the token or part of one,
    the player asked, or everyone. Which action it is depends on the phase (the handler)."""

    verb: tuple[frozenset[str], ...] = ()
    token: Found | None = None
    player: int | None = None
    everyone: bool = False

    @property
    def verbs(self) -> frozenset[str]:
        return frozenset().union(*self.verb) if self.verb else frozenset()


def _said_all(**kw: Any) -> Said:
    return Said(everyone=True, **kw)


COMMANDS: dict[str, Callable[..., Any]] = {"learn": Learn, "describe": readings.describe_command, "board": Board,
                                           "log": Log, "status": Status, "said": Said, "said_all": _said_all}


# --- the handlers ----------------------------------------------------------------------------------
def _names(folded: str, match: Match[Any, Any]) -> list[int]:
    """The seats a line names: by name (or a close spelling), or as "joueur 2" / "player 2"."""
    return find_players(folded, match.players, vocabulary())


def _has(folded: str, key: str) -> bool:
    padded = f" {folded} "
    return any(f" {w} " in padded for w in (words("shared", "everyone") if key == "everyone" else ()))


def on_said(c: Said, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if match.over:
        return None, view
    found, verbs = c.token or NOTHING, c.verbs
    game: Rules = match.game  # type: ignore[assignment]
    state = match.state
    phase = state.phase
    legal = game.legal_actions(state, seat) if match.current == seat else []
    if phase == PIRATE:
        # « kipirat », or a close spelling of it (« kipira », « kipirrat »), steals
        if "steal" in verbs or KIPIRAT in found.reds:
            return Act(Pirate(True)), view
        return (Act(Pirate(False)) if "let_pass" in verbs else _not_now(c, phase, seat)), view
    if phase == REDS:
        # RULES KI-3: the table says the red tokens are in the bag (« prêt », « oui »).
        return (Act(RedsIn()) if verbs & {"yes", "ready"} else _not_now(c, phase, seat)), view
    if phase == ANSWER:
        if verbs & {"no", "refuse"}:
            return Act(Reply(False)), view
        return (Act(Reply(True)) if verbs & {"yes", "give"} else _not_now(c, phase, seat)), view
    if phase in (DEAL, DRAW) or (phase == ASK and legal and isinstance(legal[0], Drew)):
        if found.empty:
            return _not_now(c, DRAW if phase == ASK else phase, seat), view  # a draw told at a real table
        if c.player is not None and c.player != seat:
            # « Bruno, kigliss maison » while Anne tells hers: Bruno speaking, not Anne's token
            # (RULES KI-2: each player draws their own tokens; at a physical table they tell them in turn)
            other, teller = match.players[c.player], match.players[seat]
            return Refuse([say("kikoi.refused.other_telling", Priority.IMPORTANT, "error", None,
                               other=Raw(other), player=Raw(teller))]), view
        return _token_then(found, seat, lambda t: Act(Drew(t))), view
    if phase == ASK and legal and isinstance(legal[0], (DrawBlind, Pass)) and found.empty and verbs & {"draw", "pass"}:
        return Act(legal[0]), view
    if phase == KIKONK_ASK and found.empty and "pass" in verbs and legal == [Pass()]:
        return Act(Pass()), view
    if found.empty and c.player is None:
        if "draw" in verbs:
            return Refuse([say("kikoi.no_free_draw", Priority.IMPORTANT, "error", seat)]), view
        return _not_now(c, phase, seat), view
    if verbs - {"give"}:
        return _not_now(c, phase, seat), view  # « je pioche le kigliss » outside a draw: no request
    everyone = phase == KIKONK_ASK or c.everyone
    return _request(match, seat, found, [] if c.player is None else [c.player], everyone), view


HANDLERS: dict[type, Handler] = {Learn: readings.on_learn, Describe: readings.on_describe, Board: readings.on_board,
                                 Log: readings.on_log, Status: readings.on_status, Said: on_said}


def _not_now(c: Said, phase: str, seat: int) -> Intent | None:
    """A request, or a turn or answer word, while the table waits for something else (an
    answer, the Kipirat, the red tokens, a request): refused with what the table waits for, as
    the rules refuse it (`wrong_phase`), never « not understood ». A bare « oui » / « non » is
    not the game's then: it is the shared word (« rien à confirmer », the answer to a
    read-back), and stays listed for the voice (`GameUI.phrases`, FALL_THROUGH)."""
    if (c.token is None or c.token.empty) and c.player is None and all(w & {"yes", "no"} for w in c.verb):
        return None
    return Refuse([say("kikoi.refused.wrong_phase", Priority.IMPORTANT, "error", seat, phase=Msg(f"kikoi.phase.{phase}"))])


def _request(match: Match[Any, Any], seat: int, found: Found, targets: list[int], everyone: bool) -> Intent:
    """A request, or a question back for what is missing or ambiguous."""
    others = [s for s in targets if s != seat] or targets

    def resolve(line: str) -> Intent | None:
        f2 = fold(line)
        if yes_no(f2) in ("no", "cancel"):
            return None  # « annule », « non »: the session drops the question
        more = scan(strip_players(f2, match.players, vocabulary()))
        names2 = _names(f2, match)
        if more.empty and not names2 and not _has(f2, "everyone"):
            return None
        merged = Found(more.kikois or found.kikois, more.moments or found.moments, more.reds or found.reds)
        return _request(match, seat, merged, names2 or targets, everyone or _has(f2, "everyone"))

    if found.reds and not (found.kikois or found.moments):
        t = found.reds[0]
        target = ALL if everyone else (others[0] if others else 0)
        return Act(AskAction(target, t))
    if not found.kikois:
        return Ask(say("kikoi.which_kikoi", Priority.TEXT, "question", seat), resolve)
    if len(found.kikois) > 1:
        return Ask(say("kikoi.which_of", Priority.TEXT, "question", seat,
                       choices=[narration.kikoi(KIKOI[k]) for k in found.kikois]), resolve)
    k = found.kikois[0]
    if len(found.moments) != 1:
        return Ask(say("kikoi.which_moment", Priority.TEXT, "question", seat,
                       kikoi=narration.kikoi(KIKOI[k])), resolve)
    t = white(k, found.moments[0])
    if everyone:
        return Act(AskAction(ALL, t))
    if len(others) != 1:
        return Ask(say("kikoi.which_player", Priority.TEXT, "question", seat, token=narration.tok(token_id(t))),
                   resolve if not others else (lambda line: resolve(line) if _names(fold(line), match) else None))
    return Act(AskAction(others[0], t))


def _token_then(found: Found, seat: int, make: Callable[[int], Intent]) -> Intent:
    tokens = [white(k, m) for k in (found.kikois or range(5)) for m in (found.moments or range(5))] \
        if (found.kikois or found.moments) else []
    tokens += list(found.reds)
    if len(tokens) == 1:
        return make(tokens[0])

    def resolve(line: str) -> Intent | None:
        more = scan(fold(line))
        if more.empty or yes_no(line) in ("no", "cancel"):
            return None
        return _token_then(Found(more.kikois or found.kikois, more.moments or found.moments, more.reds), seat, make)

    if len(found.kikois) == 1 and not found.moments:
        q = say("kikoi.which_moment", Priority.TEXT, "question", seat, kikoi=narration.kikoi(KIKOI[found.kikois[0]]))
    else:
        q = say("kikoi.which_kikoi", Priority.TEXT, "question", seat)
    return Ask(q, resolve)


class KikoiUI(GameUI):
    game: Rules
    tokens = KikoiTokens()  # laid on the token reader (issue #23)
    COMMANDS = COMMANDS
    HANDLERS = HANDLERS

    def grammar(self) -> Grammar:
        return GRAMMAR()

    def context(self, match: Match[Any, Any], seat: int) -> dict[str, Any]:
        return {**super().context(match, seat), "known": vocabulary()}

    # --- chance told by the table ---------------------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """The tokens `seat` may say they took from the bag now (the deal or a draw)."""
        return [token_id(a.token) for a in match.legal(seat) if isinstance(a, Drew)]

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        tokens = find_tokens(outcome)
        drawn = {a.token for a in match.legal(seat) if isinstance(a, Drew)}
        if len(tokens) != 1 or not drawn:
            return None
        return Act(Drew(tokens[0]))  # a token not in the bag is refused with the reason

    # --- speaking --------------------------------------------------------------------------------------
    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, list(match.players))

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.help(self.game, match, seat)

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.status(self.game, match, seat)

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        return readings.turn_prompt(self.game, match, seat)

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        """Why, kindly, to the player alone; never whose board a token is on; then what is possible."""
        params: dict[str, Any] = {}
        for key, value in exc.detail.items():
            if key == "token" and isinstance(value, str):
                try:
                    params[key] = narration.tok(value)
                except KeyError:
                    params[key] = Raw(value)
            elif key == "kikoi" and isinstance(value, str):
                params[key] = narration.kikoi(value)
            elif key == "phase":
                params[key] = Msg(f"kikoi.phase.{value}")
        reason = Utterance((Msg(f"kikoi.refused.{exc.code}", **params),), Priority.IMPORTANT, "error", seat)
        # RULES KIA-10: a token on the asker's board, or the KIKOI of their row, is theirs alone:
        # the table hears only that the request is refused; the reason goes to their own channel.
        out = [stand_in(say("kikoi.refused.cannot_ask", Priority.IMPORTANT, "error", seat)), secret(reason)] \
            if exc.code in SECRET_REASONS else [reason]
        state = match.state
        if exc.code in ("kikoi_not_on_board", "already_have", "ask_yourself", "not_legal", "no_kikonk",
                        "kikonk_asks_everyone") and not match.over and match.current == seat:
            kikois = sorted({token_from_id(token_id(t)) // 5 for t in self.game.request_tokens(state, seat)})
            if kikois:  # the KIKOI of the asker's row: theirs alone
                out.append(secret(say("kikoi.hint.can_ask", Priority.TEXT, None, seat,
                                      kikois=[narration.kikoi(KIKOI[k]) for k in kikois])))
        return out

    def undoable(self, match: Match[Any, Any]) -> bool:
        # Undo would let a player take back a request after hearing the answer or the draw:
        # only a physical table may undo, to correct a mistyped report.
        return bool(self.game.config["physical"])

    def history_allowed(self, match: Match[Any, Any]) -> bool:
        # RULES KIA-10: public events are said once, unless the easier mode is chosen.
        return bool(self.game.config["repeat_public_log"])

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        if match.over:
            return "scoring"
        if match.state.phase in (DEAL, REDS):
            return "setup"
        if match.state.phase in (PIRATE, KIKONK_ASK):
            return "variants"
        return "turn"
