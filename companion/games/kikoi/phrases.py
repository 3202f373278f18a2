"""What KIKOI players can say: the grammar's slot readers, and what is sayable now.

The patterns (``"read"``), templates and spoken forms are data:
`companion/language/<lang>/kikoi.json`. `GRAMMAR()` reads a line (tokens in any order of a
KIKOI and a moment word, « le Kigliss qui dort », "kigliss sleep", close names such as
« kiglis »; players; the answer and turn words); `sayable` lists the canonical phrases now,
filled with the tokens, players and KIKOI of the state.

Canonical forms are the companion's own: a token is said as the narration says it
(« le Kigliss qui dort », "Kigliss sleeping"), so what a player hears they can say back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion import language as tables
from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, spoken
from companion.language.grammar import Context, Player, grammar_of

from .notation import scan
from .rules import ALL, DrawBlind, Drew, Pass, Pirate, RedsIn, Reply
from .rules import Ask as AskAction
from .tokens import KIKOI, MOMENTS, RED, is_white


@tables.cached
def vocabulary() -> frozenset[str]:
    """Every single word KIKOI knows (never taken for a misspelt player name)."""
    out: set[str] = set()
    for section in ("kikoi", "moment", "red", "words"):
        for phrases in tables.groups("kikoi", section).values():
            out.update(w for p in phrases for w in p.split())
    return frozenset(out)


@tables.cached
def _token_words() -> frozenset[str]:
    return frozenset(w for section in ("kikoi", "moment", "red") for ps in tables.groups("kikoi", section).values()
                     for p in ps for w in p.split())


@tables.cached
def _glue() -> frozenset[str]:
    return frozenset(w for p in tables.groups("kikoi", "words").get("filler", ()) for w in p.split())


@dataclass(frozen=True)
class TokenWords:
    """A token, or the part of one said (« kigliss », « qui dort »), in any order of its
    words and the filler between them, close names too (« kimous »): a `Found`. `names`: the
    slot of a KIKOI's name (« what is Kigliss »), whose values are the five names."""

    names: bool = False

    def values(self, ctx: Context, lang: str) -> list[str]:
        """Every token of the game (25 white, 3 red) as the companion says it, or the KIKOI."""
        if self.names:
            return [kikoi_name(k, lang) for k in range(len(KIKOI))]
        return [token_name(t, lang) for t in range(25 + len(RED))]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        words, glue = _token_words(), _glue()
        j = i
        while j < len(tokens) and (tokens[j] in words or tokens[j] in glue
                                   or (len(tokens[j]) >= 5 and tokens[j].startswith("ki"))):
            j += 1
            if tokens[j - 1] in glue:
                continue
            found = scan(" ".join(tokens[i:j]))
            if not found.empty:
                yield j, found


@dataclass(frozen=True)
class Verbs:
    """A turn or answer word (« je donne », « non », « je pioche », « prêt »...): the word
    groups it belongs to, yes and no of the shared table among them."""

    GROUPS = ("give", "refuse", "steal", "let_pass", "draw", "pass", "ready")

    def values(self, ctx: Context, lang: str) -> list[str]:
        own = tables.spoken("kikoi", "words", lang)
        shared = tables.spoken("shared", "words", lang)
        return [str(p) for g in self.GROUPS for p in own.get(g, ())] + [str(p) for g in ("yes", "no")
                                                                         for p in shared.get(g, ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        shared = tables.groups("shared", "words")
        own = tables.groups("kikoi", "words")
        by_end: dict[int, set[str]] = {}
        for name, phrases in [*((g, own.get(g, ())) for g in self.GROUPS), ("yes", shared.get("yes", ())),
                              ("no", shared.get("no", ()))]:
            for p in phrases:
                ws = p.split()
                if list(tokens[i:i + len(ws)]) == ws:
                    by_end.setdefault(i + len(ws), set()).add(name)
        for end, names in by_end.items():
            yield end, frozenset(names)


@dataclass(frozen=True)
class Everyone:
    """« tout le monde », "everyone" (the shared table)."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        return [str(p) for p in tables.table("shared", lang).get("everyone", ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        for p in tables.words("shared", "everyone"):
            ws = p.split()
            if list(tokens[i:i + len(ws)]) == ws:
                yield i + len(ws), True


def _readers() -> dict[str, Any]:
    return {"token": TokenWords(), "kikoi": TokenWords(names=True), "player": Player(), "verb": Verbs(), "everyone": Everyone()}


#: the templates read as they are listed (a language of tables only is read so)
TEMPLATES = {"ask": "said", "ask_all": "said_all", "drew": "said", "describe": "describe", "board": "board",
             "status": "status", "learn": "learn", "log": "log"}
GRAMMAR = grammar_of("kikoi", _readers, TEMPLATES)

#: a request heard is weighed against the legal requests one slot away (another KIKOI, moment or
#: player: every request has a dozen such rivals, all listed alike) and read back when the sound
#: stands less than this far above the nearest. English voices of other synthesizers heard
#: « Kimouss at home » as « Kigliss at home » at 0.8-0.98 and played it (5 of 54 legal requests
#: of flite kal16, awb and Festival kal_diphone, the fitting set; none played from 4 up); on
#: voices never used for it (flite rms and slt, Festival ked and cmu_us_slt), 2 of 72 played
#: → 1, right requests read back 38 → 45 of 64 (bench/voice_whole_language.py --voices;
#: docs/voice.md)
LEGAL_RIVALS = 4.0


def kikoi_name(k: int, lang: str) -> str:
    """A KIKOI's name as said (the first of its words in the table)."""
    return str(spoken("kikoi", "kikoi", lang)[KIKOI[k]][0])


def token_name(token: int, lang: str) -> str:
    """A token as the companion says it: « le Kigliss qui dort », "the Kikonk"."""
    forms = spoken("kikoi", "spoken", lang)
    if is_white(token):
        return fill(forms["token"][MOMENTS[token % 5]], kikoi=kikoi_name(token // 5, lang))
    return str(forms["red"][RED[token - 25]])


def _action(ui: GameUI, match: Match[Any, Any], action: Any, lang: str) -> tuple[str, str, dict[str, str]]:
    """(template key, phrase, slot values) of one legal action."""
    t = spoken("kikoi", "templates", lang)
    if isinstance(action, AskAction):
        token = token_name(action.token, lang)
        if action.target is ALL:
            return "ask_all", fill(t["ask_all"], token=token), {"token": token}
        player = match.players[action.target]
        return "ask", fill(t["ask"], token=token, player=player), {"token": token, "player": player}
    if isinstance(action, Drew):
        token = token_name(action.token, lang)
        return "drew", fill(t["drew"], token=token), {"token": token}
    if isinstance(action, DrawBlind):
        return "draw_blind", t["draw_blind"], {}
    if isinstance(action, Pass):
        return "pass", t["pass"], {}
    if isinstance(action, Reply):
        key = "give" if action.give else "refuse"
        return key, t[key], {}
    if isinstance(action, Pirate):
        key = "steal" if action.steal else "let_pass"
        return key, t[key], {}
    if isinstance(action, RedsIn):
        return "reds", t["reds"], {}
    raise TypeError(action)


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kikoi", "templates", lang)
    for key in ("board", "learn", "status") + (("log",) if ui.game.config["repeat_public_log"] else ()):
        b.rule(t[key], key)
        b.say(t[key], key)
    names = [kikoi_name(k, lang) for k in range(len(KIKOI))]
    b.rule(t["describe"], "describe")
    b.slot("kikoi", names)
    for name in names:
        b.say(fill(t["describe"], kikoi=name), "describe")
    for action in match.legal(seat):
        key, phrase, slots = _action(ui, match, action, lang)
        b.rule(t[key], "action")
        for name, value in slots.items():
            b.slot(name, [value])
        b.say(phrase, action_command(ui.game, action), t[key])
