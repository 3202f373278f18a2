"""What Kaliko players can say: the grammar's slot readers, and what is sayable now.

The patterns (``"read"``), word groups, templates and spoken forms are data:
`companion/language/<lang>/kaliko.json`. `GRAMMAR()` reads a line; its slots are read here:
cells as the companion says or prints them (« 1 h 1 puis 3 h 1 », « en 9 h 1 », « 3h2 »,
« 1h1-3h1 », « centre »), hours, colours, tiles described by colour and shape (« bleu petit
arc »), numbers in digits or words, and the tiles told at a physical table (`read_tiles`:
« 12 40 », « rouge 3 5 blanc 7 9 bleu 11 1 », « 01B 23R 45W », RULES §7). Free forms the
patterns cannot hold are notation read before the grammar: an axial cell « (2,-1) » is read
as its name, and a play said in one line has its steps joined by « ; » or the table's
separator (« pose 2 en 1 h 1 puis 3 h 1 ensuite bleu 3 ensuite joue »: `split_steps`).
`sayable` lists the canonical phrases now.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.core import IllegalAction, Match
from companion.games.base import GameUI, action_command
from companion.language import Builder, cached, fill, groups, number_at, spoken, words
from companion.language.grammar import Context, Number, grammar_of
from companion.narration import catalog

from .draft import draft_of
from .finder import all_plays, constraints_key, open_ends
from .notation import cell_msg, cell_text, clock, colour_of_word, edge_of_clock, parse_cell
from .rules import PLAY, Drew, Exchange, Pass, Play, packed_board
from .tiles import (
    COLOUR,
    COLOURS,
    FITS,
    NUMBER,
    ORIENTED,
    OT_NUMBER,
    ROTATIONS,
    TILES,
    cell_id,
    cell_qr,
    hex_distance,
    identity,
    oriented,
    parse_segments,
)

FULL_HAND = 4  # every legal action is listed up to this hand size; beyond, a sample
QUERIES = ("hand", "cell", "ends", "board", "score", "bag", "hint", "best", "moves", "draft", "clear")
HOURS = (1, 3, 5, 7, 9, 11)


@cached
def _separator() -> re.Pattern[str]:
    alts = sorted(words("kaliko", "separator"), key=len, reverse=True)
    return re.compile("|".join(r"\b" + re.escape(a).replace(r"\ ", r"\s+") + r"\b" for a in alts) or r"(?!)", re.I)


def split_steps(text: str) -> list[str]:
    """The steps of a line, split at « ; » and at the separator words (« ensuite », "and then")."""
    parts: list[str] = []
    for chunk in text.split(";"):
        parts.extend(_separator().split(chunk))
    return [p.strip() for p in parts if p.strip()]


@dataclass(frozen=True)
class Ambiguous:
    """Tiles said by their colours and shapes that fit more than one tile (mirror images)."""

    numbers: tuple[int, ...]


_IDENTITY_WORD = re.compile(r"^([0-5])([0-5])([rwb])$")


def read_tiles(tokens: list[str], raw: str = "") -> list[int] | Ambiguous | None:
    """The tiles told in folded words, in order: numbers 1-85 (digits or words), identities as
    written (« 01b 23r 45w », RULES §7), or spoken as the companion says them, three segments
    each: a colour and its two hours (« rouge 3 5 », the tile as it lies, any rotation) or its
    shape (« rouge petit arc »). None when a word is not understood or a tile is unfinished;
    `Ambiguous` when colours and shapes fit several tiles. Numbers out of 1-85 are kept: the
    rules refuse them with the reason."""
    skip = vocab("filler") | vocab("then") | vocab("hour") | frozenset(groups("kaliko", "words").get("draw", ()))
    shapes = shape_gaps()
    out: list[int] = []
    segs: list[list[Any]] = []  # [colour, hours, gap] of each segment said, three a tile
    idents: list[tuple[int, int, str]] = []

    def finish() -> int | Ambiguous | None:
        found = _described(segs)
        segs.clear()
        return found

    i = 0
    while i < len(tokens):
        w = tokens[i]
        two = " ".join(tokens[i : i + 2])
        m = _IDENTITY_WORD.match(w)
        value, used = number_at(tokens, i)
        if m:
            idents.append((int(m.group(1)), int(m.group(2)), m.group(3).upper()))
            if len(idents) == 3:
                tile = _identity_number(idents)
                if tile is None:
                    return None
                out.append(tile)
                idents = []
            i += 1
            continue
        if idents:
            return None
        if colour_of_word(w) is not None:
            if len(segs) == 3:
                found = finish()
                if not isinstance(found, int):
                    return found
                out.append(found)
            segs.append([colour_of_word(w), [], None])
            i += 1
        elif used and segs and len(segs[-1][1]) < 2 and segs[-1][2] is None:
            segs[-1][1].append(value)  # an hour of the segment being said
            i += used
        elif used:
            if segs:
                found = finish() if len(segs) == 3 else None
                if not isinstance(found, int):
                    return found
                out.append(found)
            out.append(value)  # a tile's number
            i += used
        elif two in shapes and segs and segs[-1][2] is None:
            segs[-1][2] = shapes[two]
            i += 2
        elif w in shapes and segs and segs[-1][2] is None:
            segs[-1][2] = shapes[w]
            i += 1
        elif w in skip:
            i += 1
        else:
            return None
    if idents or (segs and len(segs) != 3):
        return None
    if segs:
        found = finish()
        if not isinstance(found, int):
            return found
        out.append(found)
    return out


def vocab(key: str) -> frozenset[str]:
    """One of Kaliko's word lists (filler, all, near, ring, at...), every language, folded."""
    return _vocab(key)


@cached
def _vocab(key: str) -> frozenset[str]:
    return frozenset(words("kaliko", key))


@cached
def shape_gaps() -> dict[str, int]:
    """Line shapes by the gap between their edges: 1 short arc, 2 wide arc, 3 straight."""
    gap = {"short": 1, "wide": 2, "straight": 3}
    return {w: gap[k] for k, ws in groups("kaliko", "shapes").items() for w in ws if k in gap}


# --- the grammar's slots ----------------------------------------------------------------------------
BAD = "bad"  # a cell said that names none (« 4h1 », « 1 h 1 puis 3 h »): refused, nothing changes
UNREAD = "unread"  # words after « tire » that tell no tile
_CELLISH = re.compile(r"^\d{1,2}(h\d{1,2})?$")
_HOURED = re.compile(r"^\d{1,2}h\d{1,2}$")
_AXIAL_IN = re.compile(r"\(\s*(-?\d+)\s*[,;]\s*(-?\d+)\s*\)")
_AXIAL_BARE = re.compile(r"(?<![\dh])(-?\d+)\s*,\s*(-?\d+)")
_IDENTITY = re.compile(r"^[0-5]{2}[rwb]$")


def rejoin_hours(tokens: Sequence[str]) -> list[str]:
    """Folded speech « 3 h 2 » or « 3 2 » (hour, steps) -> « 3h2 »; « 3h2 » kept."""
    skip = vocab("hour") | vocab("then")
    nums = [w for w in tokens if w not in skip]
    out: list[str] = []
    i = 0
    while i < len(nums):
        if nums[i].isdecimal() and i + 1 < len(nums) and nums[i + 1].isdecimal():
            out.append(f"{nums[i]}h{nums[i + 1]}")
            i += 2
        else:
            out.append(nums[i])
            i += 1
    return out


def axial_as_names(text: str, told: bool) -> str:
    """Notation before the grammar: an axial cell « (2,-1) » (RULES §7; « va 2,-1 » too, but
    not a line of tiles being told, « 12, 40 ») written as its name (« 1h1 3h1 »), which the
    cell slot reads."""
    def name(m: re.Match[str]) -> str:
        return f" {cell_text(int(m.group(1)), int(m.group(2)))} "

    text = _AXIAL_IN.sub(name, text)
    return text if told and re.match(r"\s*-?\d", text) else _AXIAL_BARE.sub(name, text)


@dataclass(frozen=True)
class CellSaid:
    """A cell as said or typed: « 3h2 », « 1h1 3h1 », « 1 h 1 puis 3 h 1 », « 3 2 », « centre »,
    « 0 »; `BAD` for words shaped like a cell that name none (the handler says why)."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        """Every cell near the board (`heard_context`), free or not, as the companion says it."""
        return [cell_name(q, r, lang) for q, r in ctx.get("cells", ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        marks, glue = vocab("hour"), vocab("then") | vocab("centre")
        j = i
        while j < len(tokens) and (_CELLISH.match(tokens[j]) or tokens[j] in marks or tokens[j] in glue):
            j += 1
            span = tokens[i:j]
            cell = parse_cell(" ".join(rejoin_hours(span)))
            if cell is not None:
                yield j, cell
            elif any(_HOURED.match(w) or w in marks for w in span):
                yield j, BAD


@dataclass(frozen=True)
class Colour:
    """R, W or B for a colour word of any language (« rouge », « bleues », "white")."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        return [str(c) for c in spoken("kaliko", "colour", lang).values()]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        if i < len(tokens) and colour_of_word(tokens[i]):
            yield i + 1, colour_of_word(tokens[i])


@dataclass(frozen=True)
class Shapes:
    """A hand tile described by its lines (« bleu petit arc », "red straight"): the (colour,
    gap) pairs said, either part possibly missing."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        shapes = shape_gaps()
        wanted: list[tuple[str | None, int | None]] = []
        j = i
        while j < len(tokens):
            two = " ".join(tokens[j:j + 2]) if j + 1 < len(tokens) else ""
            colour = colour_of_word(tokens[j])
            gap, used = (shapes[two], 2) if two in shapes else (shapes.get(tokens[j]), 1)
            if colour:
                wanted.append((colour, None))
            elif gap is not None and wanted and wanted[-1][1] is None:
                wanted[-1] = (wanted[-1][0], gap)
            elif gap is not None:
                wanted.append((None, gap))
            else:
                return
            j += 1 if colour else used
            yield j, tuple(wanted)


@dataclass(frozen=True)
class Told:
    """The tiles told, to the end of the line (`read_tiles`); a tuple of numbers, `Ambiguous`
    or `UNREAD`. `bare`: without « tire » before them, only while this seat owes tiles
    (`ctx["told"]`) and only from a word that starts a tile (« tuile 2 » stays a reading)."""

    bare: bool = False

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        rest = list(tokens[i:])
        if self.bare and not (ctx.get("told") and rest and (
                _IDENTITY.match(rest[0]) or colour_of_word(rest[0]) or number_at(rest, 0)[1])):
            return
        read = read_tiles(rest)
        yield len(tokens), tuple(read) if isinstance(read, list) and read else (
            read if isinstance(read, Ambiguous) else UNREAD)


@dataclass(frozen=True)
class Rest:
    """Whatever words follow (a command word with words it cannot read: said why)."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        if i < len(tokens):
            yield len(tokens), tuple(tokens[i:])


#: the kinds the recogniser hears whole: a tile put on a cell (« put 2 at 5h1 »), free or not.
#: Every kind heard whole (cells alone, « red 3 », « tile 4 »...): 12 against 14 of 16 listed
#: phrases heard right, 8 against 6 of 28 trials of real talk answered at once (docs/voice.md)
HEARD_KINDS = ("here",)


def heard_context(match: Match[Any, Any], seat: int) -> dict[str, Any]:
    """The cells the recogniser hears (issue 24 §3): every cell within one ring of the tiles
    laid, free or not, so that a tile put where it cannot go is heard as said and refused with
    its reason instead of heard at the nearest open end."""
    laid = [(q, r) for q, r, _t in match.state.board] or [(0, 0)]
    radius = 1 + max(hex_distance((0, 0), c) for c in laid)
    return {"cells": [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                      if hex_distance((0, 0), (q, r)) <= radius]}


def _readers() -> dict[str, Any]:
    # the tile numbers the recogniser hears: the 85 tiles' (RULES K-4)
    return {"number": Number(said=(1, 85)), "hour": Number(1, 12), "cell": CellSaid(), "colour": Colour(), "shape": Shapes(),
            "drawn": Told(), "told": Told(bare=True), "rest": Rest()}


GRAMMAR = grammar_of("kaliko", _readers)
INNER = frozenset({"filler", "at", "all", "near", "ring", "oclock"})  # word groups inside a line only


class _Words(Mapping[str, tuple[str, ...]]):
    """The command words (`words` of the tables, every language, folded, the groups inside a
    line aside), read live: a language added as data is understood at once."""

    def _all(self) -> dict[str, tuple[str, ...]]:
        return {k: v for k, v in groups("kaliko", "words").items() if k not in INNER}

    def __getitem__(self, key: str) -> tuple[str, ...]:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


WORDS = _Words()


def _identity_number(segs: list[tuple[int, int, str]]) -> int | None:
    edges = sorted(e for a, b, _c in segs for e in (a, b))
    if edges != [0, 1, 2, 3, 4, 5] or any(a == b for a, b, _c in segs):
        return None
    text = " ".join(f"{min(a, b)}{max(a, b)}{c}" for a, b, c in sorted(segs, key=lambda s: min(s[0], s[1])))
    return NUMBER[identity(text)]


def _described(segs: list[list[Any]]) -> int | Ambiguous | None:
    """The tile three spoken segments describe: by their hours (the tile as it lies: one tile),
    else by colour and shape (several when mirror images fit)."""
    if len(segs) != 3:
        return None
    if all(len(s[1]) == 2 for s in segs):
        edges = []
        for colour, hours, _gap in segs:
            a, b = (edge_of_clock(h) for h in hours)
            if a is None or b is None:
                return None
            edges.append((a, b, colour))
        return _identity_number(edges)
    want = []
    for colour, hours, gap in segs:
        if len(hours) == 2:
            a, b = (edge_of_clock(h) for h in hours)
            if a is None or b is None:
                return None
            gap = min((b - a) % 6, (a - b) % 6)
        elif hours:
            return None
        want.append((colour, gap))
    found = []
    for n, text in enumerate(TILES, start=1):
        lines = [(c, min((b - a) % 6, (a - b) % 6)) for a, b, c in parse_segments(text)]
        if _covers(want, lines):
            found.append(n)
    if len(found) == 1:
        return found[0]
    return Ambiguous(tuple(found)) if found else None


def _covers(want: list[tuple[str, int | None]], lines: list[tuple[str, int]]) -> bool:
    """Whether each wanted (colour, gap or None) takes a different line of the tile."""
    if not want:
        return True
    (colour, gap), rest = want[0], want[1:]
    for i, (c, g) in enumerate(lines):
        if c == colour and (gap is None or gap == g) and _covers(rest, lines[:i] + lines[i + 1 :]):
            return True
    return False


def cell_name(q: int, r: int, lang: str) -> str:
    return catalog(lang).text(cell_msg(q, r))


def play_steps(ui: GameUI, match: Match[Any, Any], seat: int, play: Play, lang: str) -> list[str]:
    """The steps that build `play` from an empty draft, as the parser reads them: each tile
    placed (« pose 2 en 1 h 1 puis 3 h 1 »), turned to its orientation by one colour and
    hour when that names it (« bleu 3 »), else by « tourne », then « joue »."""
    t = spoken("kaliko", "templates", lang)
    colours = spoken("kaliko", "colour", lang)
    hand = list(match.state.hands[seat])
    board = dict(packed_board(match.state.board))
    steps: list[str] = []
    for q, r, text in play.placements:
        ot = oriented(text)
        n = OT_NUMBER[ot]
        c = cell_id(q, r)
        fitting = [o for o in ROTATIONS[n] if o in FITS[constraints_key(board, c)]]
        steps.append(fill(t["place"], pos=str(hand.index(n) + 1), cell=cell_name(q, r, lang)))
        if fitting and fitting[0] != ot:
            for e in range(6):
                good = [o for o in ROTATIONS[n] if COLOUR[o][e] == COLOUR[ot][e] and o in fitting]
                if good and good[0] == ot and fitting[0] not in good:
                    steps.append(fill(t["orient"], colour=colours[COLOURS[COLOUR[ot][e] - 1]], hour=str(clock(e))))
                    break
            else:
                steps.extend([t["turn"]] * fitting.index(ot))
        board[c] = ot
    steps.append(t["play"])
    return steps


def actions(ui: GameUI, match: Match[Any, Any], seat: int) -> list[Any]:
    """The legal actions to list: all of them for a hand of up to `FULL_HAND` tiles; for a
    bigger hand (a 7-tile hand has tens of thousands of plays, half a minute to find) a
    sample: the pass, the exchanges and the plays of up to `FULL_HAND` tiles, each checked
    by the rules."""
    hand = tuple(match.state.hands[seat])
    if len(hand) <= FULL_HAND or match.current != seat:
        return list(match.legal(seat))
    found: list[Any] = [Pass()]
    found += [Exchange(tuple(sorted(c))) for k in range(1, len(hand) + 1) for c in combinations(hand, k)]
    game = ui.game
    for f in all_plays(packed_board(match.state.board), list(hand), game.config["crossings_new_tiles_only"],
                       game.config["double_main_only"], max_tiles=FULL_HAND):
        found.append(Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in f.placements))))
    out = []
    for action in found:
        try:
            match.check(seat, action)
        except IllegalAction:
            continue
        out.append(action)
    return out


def sayable(ui: GameUI, b: Builder, match: Match[Any, Any], seat: int) -> None:
    lang = b.lang
    t = spoken("kaliko", "templates", lang)
    sep = str(spoken("kaliko", "separator", lang)[0])
    state = match.state
    for key in QUERIES:
        b.rule(t[key], key)
        b.say(t[key], key)
    hand = list(state.hands[seat])
    positions = [str(i + 1) for i in range(len(hand))]
    board = packed_board(state.board)
    empties = sorted({e for e, _edge, _c in open_ends(board)}, key=cell_qr)
    cells = [cell_name(*cell_qr(c), lang) for c in empties]
    b.slot("pos", positions)
    b.slot("cell", cells)
    b.slot("hour", [str(h) for h in HOURS])
    b.slot("colour", list(spoken("kaliko", "colour", lang).values()))
    b.slot("number", [str(n) for n in range(1, 86)])
    for key, slot, values in (("tile", "pos", positions), ("where", "pos", positions), ("take", "pos", positions),
                              ("go", "cell", cells), ("path", "hour", [str(h) for h in HOURS]),
                              ("number", "number", [str(n) for n in range(1, 86)])):
        b.rule(t[key], key)
        for v in values:
            b.say(fill(t[key], **{slot: v}), key)
    for key, command in (("place", "here"), ("orient", "orient"), ("turn", "turn")):
        b.rule(t[key], command)
    # a play in one line: its steps joined by the separator (« ensuite », "and then") or « ; »
    b.extra["separator"] = sep
    if match.over or match.current != seat:
        return
    if state.phase != PLAY:  # physical table: the tiles drawn are told (« tire 12 »)
        b.rule(t["draw"], "action")
        told = [a for a in match.legal(seat) if isinstance(a, Drew)]
        b.slot("tiles", [str(a.tiles[0]) for a in told])
        for action in b.sample(told, lambda a: 0):
            b.say(fill(t["draw"], tiles=str(action.tiles[0])), action_command(ui.game, action), t["draw"])
        return
    b.rule(t["play"], "action")
    b.rule(t["pass"], "action")
    b.rule(t["exchange"], "action")
    b.rule(t["exchange_all"], "action")
    prefix = [t["clear"]] if draft_of(match, ui.views.get(seat)).placed else []  # the seat's play being built
    legal = b.sample(actions(ui, match, seat), lambda a: (type(a).__name__, isinstance(a, Exchange) and len(a.tiles)))
    for action in legal:
        command = action_command(ui.game, action)
        if isinstance(action, Pass):
            b.say(t["pass"], command, t["pass"])
        elif isinstance(action, Exchange):
            if sorted(action.tiles) == sorted(hand):
                b.say(t["exchange_all"], command, t["exchange_all"])
            else:
                pos = " ".join(str(hand.index(n) + 1) for n in action.tiles)
                b.slot("positions", [pos])
                b.say(fill(t["exchange"], positions=pos), command, t["exchange"])
        elif isinstance(action, Play):
            b.slot("cell", [cell_name(q, r, lang) for q, r, _t in action.placements])
            steps = prefix + play_steps(ui, match, seat, action, lang)
            b.say(f" {sep} ".join(steps), command, t["play"])
