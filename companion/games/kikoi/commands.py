"""What KIKOI players say or type, understood: requests, answers, draws, the KIPIRAT, queries.

Requests in any order and either language: "demande à Bob le KIGLISS qui dort", "Bob, kigliss
dort ?", "ask Bob for kigliss sleep". A missing or ambiguous part is asked back. Queries:
"mon plateau" / "my board" (said to the asker only), "c'est quoi le KIGLISS ?" (texture and
symbols), "apprendre" / "learn" (the 28 tokens one by one), "journal" / "log" (the public
events again, only in the easier mode `repeat_public_log`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from companion import language as tables
from companion.core import Event, IllegalAction, Match, fold
from companion.games.base import Act, Answer, Ask, GameUI, Intent, Refuse
from companion.language import find_players, strip_players, yes_no
from companion.narration import Msg, Priority, Raw, Utterance, say, secret, stand_in

from . import narration
from .notation import Found, find_tokens, scan
from .reader import KikoiTokens
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
from .tokens import KIKOI, KIPIRAT, MOMENTS, RED, token_from_id, token_id, white

# Refusals whose reason names what the asker holds (a token on their board, their row's KIKOI).
SECRET_REASONS = ("already_have", "kikoi_not_on_board")

# The words are data: `companion/language/<lang>/kikoi.json` ("words"), every language at once;
# "tout le monde" / "everyone" comes from the shared table.


def words(key: str) -> tuple[str, ...]:
    """The folded phrases of one of KIKOI's word groups (board, give, steal...)."""
    if key == "everyone":
        return tables.words("shared", "everyone")
    return tables.groups("kikoi", "words").get(key, ())


@tables.cached
def _vocabulary() -> frozenset[str]:
    """Every single word KIKOI knows (never taken for a misspelt player name)."""
    out: set[str] = set()
    for section in ("kikoi", "moment", "red", "words"):
        for phrases in tables.groups("kikoi", section).values():
            out.update(w for p in phrases for w in p.split())
    return frozenset(out)


def _has(folded: str, words: tuple[str, ...]) -> bool:
    return any(re.search(r"\b" + re.escape(w) + r"\b", folded) for w in words)


def _names(folded: str, match: Match[Any, Any]) -> list[int]:
    """The seats a line names: by name (or a close spelling), or as "joueur 2" / "player 2"."""
    return find_players(folded, match.players, _vocabulary())


def _strip_names(folded: str, match: Match[Any, Any]) -> str:
    return strip_players(folded, match.players, _vocabulary())


def legal_is_request(game: Rules, state: Any, seat: int) -> bool:
    legal = game.legal_actions(state, seat)
    return bool(legal) and isinstance(legal[0], AskAction)


def tok_param(tid: str) -> Msg:
    return narration.tok(tid)


class KikoiUI(GameUI):
    game: Rules
    tokens = KikoiTokens()  # laid on the token reader (issue #23)

    # --- understanding ---------------------------------------------------------------------------
    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        folded = fold(text)
        if not folded:
            return None
        bare = _strip_names(folded, match)
        found = scan(bare)
        if _has(folded, words("learn")):
            return self._learn(0, seat)
        if _has(folded, words("what")) and not found.empty:
            return Answer(self.describe(found, seat), command="describe")
        if _has(folded, words("board")) and not found.reds:
            return Answer(self.board(match, seat, found), command="board")
        if _has(folded, words("log")):
            return self._log(match, seat)
        if _has(folded, words("status")) and found.empty:
            return Answer(self.status(match, seat), command="status")
        if match.over:
            return None
        state = match.state
        phase = state.phase
        legal = self.game.legal_actions(state, seat) if match.current == seat else []
        if phase == PIRATE:
            # « kipirat », or a close spelling of it (« kipira », « kipirrat »), steals
            if _has(folded, words("steal")) or KIPIRAT in found.reds:
                return Act(Pirate(True))
            if _has(folded, words("let_pass")):
                return Act(Pirate(False))
            return None
        if phase == REDS:
            # RULES KI-3: the table says the red tokens are in the bag (« prêt », « oui »).
            if yes_no(folded) == "yes" or _has(folded, words("ready")):
                return Act(RedsIn())
            return None
        if phase == ANSWER:
            said = yes_no(folded)  # a plain yes or no in any language of the tables
            if said in ("yes", "no"):
                return Act(Reply(said == "yes"))
            if _has(folded, words("refuse")):
                return Act(Reply(False))
            if _has(folded, words("give")):
                return Act(Reply(True))
            return None
        if phase in (DEAL, DRAW) or (phase == ASK and legal and isinstance(legal[0], Drew)):
            if found.empty:
                return None
            return self._token_then(found, seat, lambda t: Act(Drew(t)), whites_only=False)
        if phase == ASK and legal and isinstance(legal[0], (DrawBlind, Pass)) and found.empty:
            if _has(folded, words("draw")) or _has(folded, words("pass")):
                return Act(legal[0])
        if phase == KIKONK_ASK and found.empty and _has(folded, words("pass")) and legal == [Pass()]:
            return Act(Pass())
        if found.empty and not _names(folded, match):
            if _has(folded, words("draw")):
                return Refuse([say("kikoi.no_free_draw", Priority.IMPORTANT, "error", seat)])
            return None
        everyone = phase == KIKONK_ASK or _has(bare, words("everyone"))
        return self._request(match, seat, found, _names(folded, match), everyone)

    def _request(self, match: Match[Any, Any], seat: int, found: Found, targets: list[int],
                 everyone: bool) -> Intent:
        """A request, or a question back for what is missing or ambiguous."""
        others = [s for s in targets if s != seat] or targets

        def resolve(line: str) -> Intent | None:
            f2 = fold(line)
            more = scan(_strip_names(f2, match))
            names2 = _names(f2, match)
            if more.empty and not names2 and not _has(f2, words("everyone")):
                return None
            merged = Found(more.kikois or found.kikois, more.moments or found.moments,
                           more.reds or found.reds)
            return self._request(match, seat, merged, names2 or targets,
                                 everyone or _has(f2, words("everyone")))

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
        if not others:
            return Ask(say("kikoi.which_player", Priority.TEXT, "question", seat, token=tok_param(token_id(t))),
                       resolve)
        if len(others) > 1:
            return Ask(say("kikoi.which_player", Priority.TEXT, "question", seat, token=tok_param(token_id(t))),
                       lambda line: resolve(line) if _names(fold(line), match) else None)
        return Act(AskAction(others[0], t))

    def _token_then(self, found: Found, seat: int, make: Callable[[int], Intent],
                    whites_only: bool) -> Intent:
        tokens = [white(k, m) for k in (found.kikois or range(5)) for m in (found.moments or range(5))] \
            if (found.kikois or found.moments) else []
        if not whites_only:
            tokens += list(found.reds)
        if len(tokens) == 1:
            return make(tokens[0])

        def resolve(line: str) -> Intent | None:
            more = scan(fold(line))
            if more.empty:
                return None
            merged = Found(more.kikois or found.kikois, more.moments or found.moments, more.reds)
            return self._token_then(merged, seat, make, whites_only)

        if len(found.kikois) == 1 and not found.moments:
            q = say("kikoi.which_moment", Priority.TEXT, "question", seat,
                    kikoi=narration.kikoi(KIKOI[found.kikois[0]]))
        else:
            q = say("kikoi.which_kikoi", Priority.TEXT, "question", seat)
        return Ask(q, resolve)

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

    # --- queries -------------------------------------------------------------------------------------
    def board(self, match: Match[Any, Any], seat: int, found: Found | None = None) -> list[Utterance]:
        """The asker's own board, said to them alone (RULES KIA-10)."""
        view = self.game.view(match.state, seat)
        tokens = view["board"]
        if found is not None and found.kikois:
            tokens = [t for t in tokens if KIKOI.index(t.split("-")[0]) in found.kikois]
            out = narration.board_reading(tokens, seat)[1:]
            out = [u for u in out if any(isinstance(p, Msg) and p.params.get("kikoi") in
                                         [narration.kikoi(KIKOI[k]) for k in found.kikois] for p in u.parts)]
        else:
            out = narration.board_reading(tokens, seat, secret=bool(view.get("secret")))
        return out

    def describe(self, found: Found, seat: int) -> list[Utterance]:
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

    def _learn(self, i: int, seat: int) -> Intent:
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
            if not f or _has(f, words("next")):
                return self._learn(i + 1, seat)
            if _has(f, words("end_learn")):
                return Answer([say("kikoi.learn_stopped", Priority.TEXT, None, seat)])
            return None

        return Ask(question, resolve, command="learn")

    def _log(self, match: Match[Any, Any], seat: int) -> Intent:
        """The public events again: only in the easier mode (RULES KIA-10 variant)."""
        if not self.game.config["repeat_public_log"]:
            return Refuse([say("kikoi.log_not_allowed", Priority.TEXT, "error", seat)], command="log")
        utts: list[Utterance] = []
        for ev in match.events():
            if ev.to is None:
                utts.extend(Utterance(u.parts, Priority.TEXT, None, seat) for u in self.narrate(ev, match))
        return Answer(utts[-40:], command="log")

    # --- speaking --------------------------------------------------------------------------------------
    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, list(match.players))

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        out: list[Utterance] = []
        if match.over or seat is None:
            out.append(say("kikoi.help.queries", Priority.TEXT, to=seat))
            return out
        state = self.game.seen_state(match.state, seat)
        if state.actor != seat:
            out.append(say("kikoi.help.wait", Priority.TEXT, to=seat, player=Raw(match.players[state.actor])))
        else:
            legal = self.game.legal_actions(state, seat)
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

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        """Whose turn, the bag, and the player's own completed days (others' only in the easy mode)."""
        state = self.game.seen_state(match.state, seat)
        out: list[Utterance] = []
        if match.over:
            out.append(say("kikoi.status_over", Priority.TEXT, to=seat))
            for s, b in enumerate(self.game.view(state, None)["days"]):
                out.append(say("kikoi.final_days" if b else "kikoi.final_none", Priority.TEXT, to=seat,
                               player=Raw(match.players[s]), n=len(b), days=[narration.kikoi(k) for k in b]))
            return out
        out.append(say(f"kikoi.status.{state.phase}", Priority.TEXT, to=seat,
                       player=Raw(match.players[state.actor]), turn=Raw(match.players[state.turn]),
                       n=len(state.bag)))
        view = self.game.view(state, seat)
        if seat is not None:
            mine = view["days"][seat]
            out.append(say("kikoi.status_mine", Priority.TEXT, "private", seat, n=len(mine),
                           days=[narration.kikoi(k) for k in mine] or Msg("kikoi.nothing")))
        if self.game.config["repeat_public_log"]:
            for s, b in enumerate(view["days"]):
                if s != seat:
                    out.append(say("kikoi.final_days" if b else "kikoi.final_none", Priority.TEXT, to=seat,
                                   player=Raw(match.players[s]), n=len(b), days=[narration.kikoi(k) for k in b]))
        return out

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
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
        if phase == ASK and legal_is_request(self.game, state, seat):
            return [say("kikoi.prompt.ask", Priority.MESSAGE, "turn", None, player=name)]
        return [say("core.your_turn", player=name, earcon="turn")]

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
