"""What Good Fortune players can say: the grammar's slot readers, and what is sayable now.

The patterns (``"read"``), templates and spoken forms are data:
`companion/language/<lang>/goodfortune.json`. `GRAMMAR()` is the one grammar that reads a line
(its slots read here: numbers in digits or words, ends, charms, players, « ma »/« sa »);
`sayable` lists the canonical phrases now, filled with the numbers, ends and charms of the
state. Numbers are said in words (« douze », "twelve"); digits are understood as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion import language as tables
from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, number_word, spoken
from companion.language.grammar import Context, Names, Number, Player, grammar_of

from .rules import Declare, Place, Push
from .tiles import N_TILES


@dataclass(frozen=True)
class Whose:
    """« ma », « sa », « les deux »: the word groups mine, opponent, both."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        own = tables.spoken("goodfortune", "words", lang)
        return [str(p) for name in ("mine", "opponent", "both") for p in own.get(name, ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        for name in ("mine", "opponent", "both"):
            for phrase in tables.groups("goodfortune", "words").get(name, ()):
                ws = phrase.split()
                if list(tokens[i:i + len(ws)]) == ws:
                    yield i + len(ws), name


@dataclass(frozen=True)
class TileSaid:
    """A number, and when a charm is said right after it, that charm too (12 mati)."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        """Every tile number, alone and with each charm's canonical name after it."""
        numbers = _NUMBER.values(ctx, lang)
        charms = _CHARM.values(ctx, lang)
        return numbers + [f"{n} {c}" for n in numbers for c in charms]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        for end, n in Number().spans(tokens, i, ctx):
            yield end, (n, None)
            for after, charm in Names("goodfortune", "charm").spans(tokens, end, ctx):
                yield after, (n, charm)


#: the numbers the recogniser hears: the tiles' (a number is still read whatever it is, and
#: refused with its reason when no tile has it)
_NUMBER = Number(said=(1, N_TILES))
_CHARM = Names("goodfortune", "charm")


def _readers() -> dict[str, Any]:
    return {"number": _NUMBER, "end": Names("goodfortune", "end"), "charm": Names("goodfortune", "charm"),
            "player": Player(), "whose": Whose(), "tile": TileSaid()}


GRAMMAR = grammar_of("goodfortune", _readers)

#: the kinds the recogniser hears whole (issue 24 §3): a tile declared or pushed, an end (what
#: may be not legal now, so heard as said and refused). A question is never illegal: it is heard
#: in its listed form (« where is 11 », « my line »), as Kaliko's are. Heard whole, the loose
#: « <question> <be>* {number} » took real talk (« tell s 11 », « at read there 11 ») as
#: « where is 11 » at 0.95: 11 of 84 trials answered at once, 6 so (docs/voice.md)
HEARD_KINDS = ("tiles", "place")


@tables.cached
def vocabulary() -> frozenset[str]:
    """Every single word Good Fortune knows (never taken for a misspelt player name)."""
    out = {w for ws in tables.groups("goodfortune", "words").values() for p in ws for w in p.split()}
    out |= {w for ws in tables.groups("goodfortune", "charm").values() for p in ws for w in p.split()}
    return frozenset(out)


QUERIES = (
    ("central", "central"), ("my_line", "line"), ("their_line", "line"), ("my_collection", "collection"),
    ("their_collection", "collection"), ("detail", "collection"), ("medallion", "medallion"),
    ("discards", "discards"), ("options", "options"), ("deck", "deck"), ("status", "status"),
)


def charm_name(charm: str, lang: str) -> str:
    return str(spoken("goodfortune", "spoken", lang)["charm"][charm])


def end_name(end: str, lang: str) -> str:
    return str(spoken("goodfortune", "spoken", lang)["end"][end])


def _action(ui: GameUI, match: Match[Any, Any], seat: int, action: Any, lang: str) -> tuple[str, dict[str, str]]:
    """(template key, slot values) of one legal action."""
    if isinstance(action, Declare):
        tile = number_word(action.number, lang)
        if action.left is not None:
            return "declare_charm", {"tile": tile, "charm": charm_name(action.left, lang)}
        return "declare", {"tile": tile}
    if isinstance(action, Push):
        return "push", {"tile": number_word(action.number, lang)}
    if isinstance(action, Place):
        same_end = [a for a in match.legal(seat) if isinstance(a, Place) and a.end == action.end]
        if action.outer is not None and len({a.outer for a in same_end}) > 1:
            return "place_outer", {"end": end_name(action.end, lang), "charm": charm_name(action.outer, lang)}
        return "place", {"end": end_name(action.end, lang)}
    raise TypeError(action)


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("goodfortune", "templates", lang)
    for key, command in QUERIES:
        if key == "medallion" and match.state.phase == "declare":
            continue
        b.rule(t[key], command)
        b.say(t[key], command)
    b.rule(t["where"], "where")
    numbers = [number_word(n, lang) for n in range(1, N_TILES + 1)]
    b.slot("number", numbers)
    for n in numbers:
        b.say(fill(t["where"], number=n), "where")
    for action in match.legal(seat):
        key, slots = _action(ui, match, seat, action, lang)
        for name, value in slots.items():
            b.slot(name, [value])
        b.rule(t[key], "action")
        b.say(fill(t[key], **slots), action_command(ui.game, action), t[key])
