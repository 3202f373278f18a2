"""What 2kissa10 players can say: the grammar's slot readers, and what is sayable now.

The patterns (``"read"``), word groups, templates and spoken forms are data:
`companion/language/<lang>/kissa.json`. `GRAMMAR()` reads a line; its slots are read here: a
number as said (« 10 en A1 vers le bas », "ten at a one", « deux neuf » for 29, a cell alone),
an operator, a cell (« e5 », « e 5 », « e cinq »), a column letter, a digit (« les 9 »,
"nines"), a row of digits dictated (« cinq trois vide six... »), a place in a list
(« le deuxième »), a direction, a player. `sayable` lists the canonical phrases now: a move is
said as the companion says it (« 10 en A1 plus 29 en C4 vers le bas égale 39 en E2 »:
`narration.equation_msg` rendered in the listener's language), so what a player hears they can
say back. A full board has tens of thousands of moves: beyond the builder's limit (2,000) an
even sample with both operations, and the listed moves are then marked as a sample.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion import language as tables
from companion.core import Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, fill, is_ordinal, number_at, ordinal, read_number, spoken
from companion.language.grammar import Context, Grammar, Number, Player, grammar_of
from companion.narration import catalog

from .finder import COLUMNS, PLUS, SIZE, TIMES, value_of
from .narration import direction, equation_msg, number_msg
from .notation import cell_name
from .rules import ENTRY, OVER, Declare, EnterRow, Move, MoveList, PlaceToken, StartPlay


# --- the words, from the phrase tables -------------------------------------------------------
def words(key: str) -> tuple[str, ...]:
    """The folded phrases of one of 2kissa10's word groups (row, hint, any...), every language."""
    return tables.groups("kissa", "words").get(key, ())


@tables.cached
def vocabulary() -> frozenset[str]:
    """Every single word 2kissa10 knows (never taken for a misspelt player name)."""
    out: set[str] = set()
    for section in ("words", "direction"):
        for phrases in tables.groups("kissa", section).values():
            out.update(w for p in phrases for w in p.split())
    return frozenset(out)


@tables.cached
def _zero_words() -> frozenset[str]:
    """Words said for the digit 0 inside a number ("two oh five"), beyond the shared reader's."""
    return frozenset(tables.words("kissa", "zero"))


@tables.cached
def _by_first(name: str) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The phrases of a word group, or of every direction (`name` "direction"), by their first
    word: (words, the group or direction), for reading them fast at any word of a line."""
    pairs = ([(p, way) for way, ps in tables.groups("kissa", "direction").items() for p in ps] if name == "direction"
             else [(p, name) for p in words(name)])
    out: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for p, value in pairs:
        ws = tuple(p.split())
        out.setdefault(ws[0], []).append((ws, value))
    return {k: tuple(v) for k, v in out.items()}


def said_at(tokens: Sequence[str], i: int, name: str) -> Iterable[tuple[int, str]]:
    """Where each phrase of group `name` said at word `i` ends, and its group or direction."""
    if i < len(tokens):
        for ws, value in _by_first(name).get(tokens[i], ()):
            if tuple(tokens[i:i + len(ws)]) == ws:
                yield i + len(ws), value


def _digit_word(tokens: Sequence[str], k: int) -> int | None:
    """The digit one word says (« sept », "oh"; not « premier »), else None."""
    if k >= len(tokens) or tokens[k].isdecimal():
        return None
    if tokens[k] in _zero_words():
        return 0
    value, used = number_at(tokens, k)
    return value if used == 1 and value <= 9 and not is_ordinal(tokens[k]) else None


def number_said(tokens: Sequence[str], i: int) -> tuple[int, int]:
    """The number said at word `i`: (value, words used), (0, 0) when none. Digits said one by one
    are one number of several digits (« deux neuf » is 29, "two oh five" is 205): a number of
    the board is its digits read in order (RULES T-3)."""
    run: list[int] = []
    k = i
    while (d := _digit_word(tokens, k)) is not None:
        run.append(d)
        k += 1
    if len(run) > 1:
        return int("".join(map(str, run))), len(run)
    if i < len(tokens) and tokens[i] in _zero_words():
        return 0, 1
    return number_at(tokens, i)


_CELL = re.compile(r"^([a-j])(10|[1-9])$")


def cell_at(tokens: Sequence[str], i: int) -> tuple[int, int] | None:
    """A cell at word `i` (« e5 », « e 5 », « e cinq »): (cell index, words used)."""
    if i >= len(tokens):
        return None
    m = _CELL.match(tokens[i])
    if m:
        return (int(m.group(2)) - 1) * SIZE + COLUMNS.index(m.group(1).upper()), 1
    if len(tokens[i]) == 1 and tokens[i] in "abcdefghij" and i + 1 < len(tokens):
        n, used = number_at(tokens, i + 1)
        if used == 1 and 1 <= n <= SIZE:
            return (n - 1) * SIZE + COLUMNS.index(tokens[i].upper()), 2
    return None


def ways_at(tokens: Sequence[str], i: int) -> Iterable[tuple[int, str]]:
    """The directions said at word `i` (« vers le bas », "down right"): (end, way)."""
    return said_at(tokens, i, "direction")


# --- the slot readers ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    """A number of an equation as said: its value, and the cell of its first digit and its
    direction when said (a number may be named by its cell alone: « A1 plus C4 égale E2 »)."""

    value: int | None = None
    cell: int | None = None
    way: str | None = None


@dataclass(frozen=True)
class NumberSaid:
    """« 10 », « 10 en A1 », « 29 en C4 vers le bas », « A1 droite »: a `Spec`."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        """The values on the board (`heard_context`), in digits: the recogniser hears the
        natural form « 3 plus 4 equals 7 » (issue 24 §7); the cells are found by the reading."""
        return [str(v) for v in ctx.get("numbers", ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        value, used = number_said(tokens, i)
        if not used:
            got = cell_at(tokens, i)
            if got is not None:
                yield from self._way(tokens, i + got[1], Spec(None, got[0]))
            return
        j = i + used
        yield from self._way(tokens, j, Spec(value))
        for k in (j, *(end for end, _at in said_at(tokens, j, "at"))):
            got = cell_at(tokens, k)
            if got is not None:
                yield from self._way(tokens, k + got[1], Spec(value, got[0]))

    @staticmethod
    def _way(tokens: Sequence[str], j: int, spec: Spec) -> Iterable[tuple[int, Spec]]:
        yield j, spec
        for end, way in ways_at(tokens, j):
            yield end, Spec(spec.value, spec.cell, way)


@dataclass(frozen=True)
class Op:
    """« plus », « et », « fois », "times", « multiplié par »: the operation's sign."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        own = tables.spoken("kissa", "words", lang)
        return [str(p) for key in ("plus", "times") for p in own.get(key, ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        for key, op in (("plus", PLUS), ("times", TIMES)):
            for end, _key in said_at(tokens, i, key):
                yield end, op


@dataclass(frozen=True)
class Cell:
    """A cell: « e5 », « e 5 », « e cinq »."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        got = cell_at(tokens, i)
        if got is not None:
            yield i + got[1], got[0]


@dataclass(frozen=True)
class Column:
    """A column letter, A to J."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        if i < len(tokens) and len(tokens[i]) == 1 and tokens[i] in "abcdefghij":
            yield i + 1, tokens[i].upper()


@tables.cached
def _plural_endings() -> tuple[str, ...]:
    """How a plural ends ("s": "the 7s", "nines"), from the tables' `plural_endings`."""
    return tables.words("kissa", "plural_endings")


@dataclass(frozen=True)
class Digit:
    """A digit named: « 7 », « sept », and with `plural` "7s", "nines" (the tables' endings)."""

    plural: bool = True

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        if i >= len(tokens):
            return
        word = tokens[i]
        bare = [word[: -len(e)] for e in _plural_endings() if self.plural and word.endswith(e) and len(word) > len(e)]
        for w in (word, *bare):
            if w.isdecimal():
                if len(w) == 1:
                    yield i + 1, int(w)
                return
            value = 0 if w in _zero_words() else None if is_ordinal(w) else read_number(w)
            if value is not None and 0 <= value <= 9:
                yield i + 1, value
                return


@tables.cached
def _empty() -> frozenset[str]:
    return frozenset(words("empty"))


@dataclass(frozen=True)
class Digits:
    """A row's cells dictated or typed: « 5 3 6 5 0 2 3 0 1 8 », « 5365023018 », « cinq trois
    vide six... » (an empty word for an empty cell): the digits as RULES §7 writes them."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        empty = _empty()
        out = []
        k = i
        while k < len(tokens):
            w = tokens[k]
            if w.isdecimal():
                out.append(w)
            elif w in empty:
                out.append(".")
            elif (d := _digit_word(tokens, k)) is not None:
                out.append(str(d))
            else:
                break
            k += 1
        if out:
            yield k, "".join(out)


@dataclass(frozen=True)
class Way:
    """A direction alone (« vers le bas », "down"): which of the readings a reply picks."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        yield from ways_at(tokens, i)


@dataclass(frozen=True)
class Place:
    """A place in the list just heard, the rest of the line: « le deuxième », « choix 2 »,
    "the last one" (`LAST`)."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        place = ordinal(" ".join(tokens[i:]))
        if place is not None:
            yield len(tokens), place


def _readers() -> dict[str, Any]:
    said = NumberSaid()
    return {"a": said, "b": said, "c": said, "spec": said, "op": Op(), "number": Number(), "cell": Cell(),
            "column": Column(), "digit": Digit(), "digit1": Digit(plural=False), "digits": Digits(), "way": Way(),
            "place": Place(), "player": Player()}


GRAMMAR = grammar_of("kissa", _readers)
#: the answers to « which reading? » (read only while that question waits)
REPLIES = ("any", "more", "drop", "place", "pick")


@tables.cached
def replies() -> Grammar:
    """The grammar's rules for the answers to « which reading? » alone."""
    g = GRAMMAR()
    return Grammar(g.game, [r for r in g.rules if r.kind in REPLIES], g.readers, g.filler)


@dataclass(frozen=True)
class Replies:
    """What may answer « which reading? » while it waits, for the recogniser (issue 24 §7: the
    answers heard by voice, not only typed): a frozen value the waiting question holds, read
    in the listener's thread. Each phrase is one the `replies()` grammar reads."""

    #: the options read now, numbered over the whole list (« choix 9 » on the second page)
    places: tuple[int, ...]
    #: the numbers that tell the readings apart, (value, cells), in every reading (« 7 en E2 »)
    numbers: tuple[tuple[int, tuple[int, ...]], ...]
    #: « la suite » gives more
    more: bool

    def phrases(self, lang: str) -> list[str]:
        """The replies in `lang`: the options (« choix 2 », « le deuxième », « le dernier »),
        each number as the question says it, its cell alone or after « en », « peu importe »,
        « la suite » when there is more, « laisse tomber »."""
        own = tables.table("kissa", lang)
        ordinals = tables.table("shared", lang).get("ordinal", {})
        nth: dict[int, list[str]] = {}
        for word, k in ordinals.get("words", {}).items():
            nth.setdefault(int(k), []).append(word)
        out: list[str] = []
        for form in own.get("replies", []):
            for k in self.places:
                if "{nth}" in form:
                    out += [form.replace("{nth}", w) for w in nth.get(k, ())]
                else:
                    out.append(form.replace("{k}", str(k)))
        out += list(ordinals.get("last", ()))
        at = own.get("words", {}).get("at", [])[:1]
        cat = catalog(lang)
        ways = {way: ps[0] for way, ps in spoken("kissa", "direction", lang).items() if ps}
        for value, cells in self.numbers:
            out.append(cat.text(number_msg(value, cells)))
            out += [cell_name(cells[0]), *(f"{a} {cell_name(cells[0])}" for a in at)]
            way = direction(cells)
            if way in ways:
                out.append(ways[way])
        words_ = own.get("words", {})
        for key in ("any", "drop", *(("more",) if self.more else ())):
            out += list(words_.get(key, ()))
        return list(dict.fromkeys(out))


def replies_of(board: Sequence[int], legal: Sequence[Move], roles: Sequence[str], places: Sequence[int],
               more: bool) -> Replies:
    """The `Replies` of a question listing `legal` by the numbers of `roles` that differ."""
    numbers = dict.fromkeys((value_of(board, getattr(m, r)), tuple(getattr(m, r))) for m in legal for r in roles)
    return Replies(tuple(places), tuple(numbers), more)


QUERIES = ("tokens", "board", "numbers", "digits", "hint", "best", "moves", "status")


def move_phrase(board: Any, move: Move, lang: str) -> str:
    """A move as the companion says it, in `lang`."""
    cells = (move.a, move.b, move.c)
    values = [value_of(board, c) for c in cells]
    return catalog(lang).text(equation_msg(move.op, values, cells))


def spoken_move(board: Any, move: Move) -> Move:
    """The move a player's words for `move` give: "2 plus 2 égale 4" is taken as the product,
    which scores more (TA-5, as the move's handler reads it back), so the sum is never said."""
    va, vb, vc = (value_of(board, c) for c in (move.a, move.b, move.c))
    if move.op == PLUS and va and vb and va * vb == vc:
        return Move(TIMES, move.a, move.b, move.c)
    return move


#: the kinds of the grammar the recogniser hears whole (every value on the board, legal or not):
#: the equations said by their values (issue 24 §7); the rest is heard as listed
HEARD_KINDS = ("equation",)
#: a heard move is weighed against the legal moves one slot away (another cell, the same
#: numbers), listed or not: the templates weigh every cell alike, so « G3 » heard as « D3 » is
#: the likeliest wrong move; read back under this margin (a sample's moves: always
#: `recognizer.SAMPLED_LEGAL_MARGIN`, the same 6, fitted there)
LEGAL_RIVALS = 6.0


def heard_context(match: Match[Any, Any], seat: int) -> dict[str, Any]:
    """What the slots list for the recogniser beyond the players: the distinct values on the
    board (an equation's numbers are bounded to them: « 3 plus 4 equals 7 » is heard only when
    3, 4 and 7 lie on the board), none while the rows are entered."""
    if match.state.phase in (ENTRY, OVER):
        return {"numbers": ()}
    finder = match.game.finder(match.state.board)  # type: ignore[attr-defined]
    return {"numbers": sorted({n.value for n in finder.numbers})}


def every_phrase(ui: GameUI, match: Match[Any, Any], seat: int, lang: str) -> Iterable[str] | None:
    """Every legal move's phrase now, one at a time, as `sayable` says them, for the
    recogniser's second pass (`voice.sayable.every_move`); None while the rows are entered or
    the game is over (`sayable` lists them then). Made from the lazy move list, never through
    a `Builder`: the Builder's tuples, list and dict of 95,000 moves raised the peak memory of
    `companion play --voice` by some 20 MB (measured, docs/voice.md)."""
    state = match.state
    if state.phase in (ENTRY, OVER):
        return None
    board = state.board
    t = spoken("kissa", "templates", lang)

    def phrases() -> Iterable[str]:
        for action in _legal_in_chunks(match.legal(seat)):
            if isinstance(action, Move):
                yield move_phrase(board, spoken_move(board, action), lang)
            elif isinstance(action, Declare):
                yield t["declare"]
    return phrases()


def _legal_in_chunks(legal: Any) -> Iterable[Any]:
    """The legal moves in order, made a few thousand at a time: iterating a `MoveList` makes
    its chunk's indices Python ints at once (one chunk of 95,000 moves on a full board, 9 MB)."""
    if not isinstance(legal, MoveList) or legal._arrays is not None:
        yield from legal
        return
    for first, (t, ia, ib, ic) in legal.finder.chunks(budget=LEGAL_CHUNK):
        yield from legal._rows(t + first, ia, ib, ic)
    yield from legal.extra


#: how many legal moves `every_phrase` makes at a time
LEGAL_CHUNK = 4096


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kissa", "templates", lang)
    state = match.state
    board = state.board
    for key in QUERIES:
        b.rule(t[key], key)
        b.say(t[key], key)
    rows = [str(r) for r in range(1, SIZE + 1)]
    columns = list(COLUMNS)
    cells = [cell_name(i) for i in range(SIZE * SIZE)]
    b.slot("row", rows)
    b.slot("column", columns)
    b.slot("cell", cells)
    b.slot("digit", [str(d) for d in range(10)])
    for key, slot, values in (("row", "row", rows), ("column", "column", columns), ("cell", "cell", cells),
                              ("around", "cell", cells), ("digit", "digit", [str(d) for d in range(10)])):
        b.rule(t[key], key)
        for v in values:
            b.say(fill(t[key], **{slot: v}), key)
    if state.phase == OVER:
        return
    legal = match.legal(seat)
    if state.phase != ENTRY:
        cat = catalog(lang)
        finder = ui.game.finder(board)  # type: ignore[attr-defined]
        b.slot("number", [cat.text(number_msg(n.value, n.cells)) for n in finder.numbers])
    # a full board has tens of thousands of moves: an even sample with both operations
    moves = b.sample(legal, lambda a: (type(a).__name__, getattr(a, "op", None)), [("Move", PLUS), ("Move", TIMES)])
    if Declare() in legal and Declare() not in moves:  # physical table: "no solution"
        moves.append(Declare())
    for action in moves:
        if isinstance(action, Move):
            action = spoken_move(board, action)
        command = action_command(ui.game, action)
        if isinstance(action, Move):
            key = "times" if action.op == TIMES else "plus"
            b.rule(t[key], "action")
            b.say(move_phrase(board, action, lang), command, t[key])
        elif isinstance(action, EnterRow):
            b.rule(t["enter_row"], "action")
            digits = " ".join(action.digits)
            b.slot("digits", [digits])  # any ten digits: a sample (each rotation of 0-9)
            b.say(fill(t["enter_row"], row=str(action.row + 1), digits=digits), command, t["enter_row"])
        elif isinstance(action, PlaceToken):  # a token drawn from the bag, told (RULES T-1)
            b.rule(t["token"], "action")
            b.say(fill(t["token"], digit=str(action.digit)), command, t["token"])
        elif isinstance(action, StartPlay):
            b.rule(t["start"], "action")
            b.slot("player", list(match.players))
            b.say(fill(t["start"], player=match.players[action.first]), command, t["start"])
        elif isinstance(action, Declare):
            b.rule(t["declare"], "action")
            b.say(t["declare"], command, t["declare"])
