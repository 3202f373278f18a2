"""Kaliko's commands, read by the one grammar, and their handlers.

The words and patterns are data: `companion/language/<lang>/kaliko.json` (``"read"``,
``"words"``, ``"colours"``, ``"shapes"``), every language at once; the slots are read in
`phrases`, the readings in `readings`. A play is built step by step: « prends 2 » / "take 2",
« ici » or « en 3h1 » / "put it at 3h1", « tourne » (the next rotation that fits), « rouge 3 »
(a red line toward 3 o'clock), « retire », « brouillon », « efface », then « joue ». After each
step the companion says whether the play is legal so far and what it would score. Also
« échange 1 3 », « échange tout », « passe ». The play being built is the seat's view (a
`readings.Draft`), held by the session: reading a line changes nothing.

At a physical table (option `physical`) the tiles drawn from the real bag are told: « tire 12
40 », « 12 », « rouge 3 5 blanc 7 9 bleu 11 1 », « 01B 23R 45W ».
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.core import IllegalAction, Match, fold
from companion.games.base import Act, Ambiguous, Answer, GameUI, Handler, Intent, Refuse, Seq, named
from companion.language.grammar import Grammar
from companion.narration import Msg, Priority, Raw, Utterance, say, secret

from . import narration, readings
from .finder import constraints_key
from .notation import cell_msg, colour_msg, edge_of_clock
from .phrases import GRAMMAR, WORDS, axial_as_names, read_tiles, split_steps
from .phrases import Ambiguous as Mirrors
from .reader import KalikoTokens
from .readings import (
    Board,
    CellRead,
    Draft,
    Go,
    answer,
    draft_of,
    hand,
    hand_tile,
    no_tile,
    position,
)
from .rules import DEAL, DRAW, PLAY, START, Drew, Exchange, Kaliko, Pass, Play, State
from .tiles import (
    COLOUR,
    COLOURS,
    FITS,
    ORIENTED,
    OT_NUMBER,
    ROTATIONS,
    TILES,
    cell_id,
    parse_segments,
)

# refusals of a told draw (physical table), each followed by what to tell now
TOLD_CODES = frozenset({"not_in_bag", "told_on_board", "too_many_told", "no_such_tile", "nothing_told", "draw_first",
                        "nothing_to_draw", "told_twice"})
# Refusals of a play that tell nothing of the hand: the table may hear them.
PUBLIC_REFUSALS = frozenset({"bag_too_small", "bag_empty", "nothing_to_exchange", "game_over", "not_your_turn"})
__all__ = ["TOLD_CODES", "PUBLIC_REFUSALS", "WORDS", "KalikoUI", "UI"]


# --- the commands that build or make a move --------------------------------------------------------
@dataclass(frozen=True)
class Take:
    number: int | None = None
    shape: tuple[tuple[str | None, int | None], ...] = ()
    NAME: ClassVar[str] = "take"


@dataclass(frozen=True)
class Here:
    """« ici », « en 3h1 », « pose 2 en 3h1 »: the tile taken (or the one named) put down."""

    cell: Any = None
    number: int | None = None
    NAME: ClassVar[str] = "here"


@dataclass(frozen=True)
class Orient:
    colour: str
    hour: int
    NAME: ClassVar[str] = "orient"


@dataclass(frozen=True)
class Step:
    """A step without a slot; `NAME` says which (turn, remove, clear, play, pass)."""

    NAME: ClassVar[str] = ""


class Turn(Step):
    NAME = "turn"


class Remove(Step):
    NAME = "remove"


class Clear(Step):
    NAME = "clear"


class PlayIt(Step):
    NAME = "play"


class PassIt(Step):
    NAME = "pass"


@dataclass(frozen=True)
class Swap:
    number: tuple[int, ...] = ()
    everything: bool = False
    NAME: ClassVar[str] = "exchange"


@dataclass(frozen=True)
class Told:
    """Tiles told drawn (« tire 12 40 »; « 12 40 » while this seat owes tiles)."""

    tiles: Any = None
    NAME: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Steps:
    """A play said in one line: each step's words and its command (None: not understood)."""

    steps: tuple[tuple[str, Any], ...]


COMMANDS: dict[str, Callable[..., Any]] = {
    "draw": lambda drawn=None: Told(drawn), "told": lambda told: Told(told), "hand": readings.Hand, "tile": readings.Tile,
    "number": readings.Numbered, "cell": CellRead, "go": Go, "ends": readings.Ends, "path": readings.Path,
    "where": readings.Where, "board_all": lambda: Board(everything=True), "board": Board, "score": readings.Score,
    "bag": readings.Bag, "hint": readings.Hint, "best": readings.Best, "moves": readings.Moves,
    "draft": readings.DraftRead, "clear": Clear, "take": Take, "here": Here, "turn": Turn, "orient": Orient,
    "remove": Remove, "play": PlayIt, "exchange_all": lambda: Swap(everything=True), "exchange": Swap,
    "pass": PassIt, "take_unread": lambda rest: Take()}
BUILDING = (Take, Here, Turn, Orient, Remove, PlayIt, Swap, PassIt)  # refused while drawn tiles are to be told


# --- their handlers ----------------------------------------------------------------------------------
def _fitting(board: dict[int, int], q: int, r: int, n: int) -> list[int]:
    return [o for o in ROTATIONS[n] if o in FITS[constraints_key(board, cell_id(q, r))]]


def on_take(c: Take, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    pos = position(match, seat, c.number) if c.number is not None else _described(match, seat, d, c.shape)
    n = hand_tile(match, seat, pos)
    if n is None:
        return no_tile(match, seat), d
    if any(OT_NUMBER[o] == n for _, _, o in d.placed):
        return Refuse([answer("kaliko.already_placed", seat, pos=pos)]), d
    return Answer([answer("kaliko.taken", seat, pos=pos, tile=tile_msg(n))]), replace(d, selected=n)


def tile_msg(n: int) -> Msg:
    return narration.tile_msg(TILES[n - 1])


def _described(match: Match[Any, Any], seat: int, d: Draft, wanted: tuple[tuple[str | None, int | None], ...]) -> int | None:
    """The first free hand tile (1-based) having every (colour, shape) line described."""
    placed = {OT_NUMBER[o] for _, _, o in d.placed}
    for i, n in enumerate(hand(match, seat)):
        if n in placed or not wanted:
            continue
        lines = [(col, min((b - a) % 6, (a - b) % 6)) for a, b, col in parse_segments(TILES[n - 1])]
        if all(any((wc is None or wc == col) and (ws is None or ws == g) for col, g in lines) for wc, ws in wanted):
            return i + 1
    return None


def on_here(c: Here, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    selected = d.selected if c.number is None else hand_tile(match, seat, position(match, seat, c.number))
    cell = d.cursor if c.cell is None else c.cell
    if c.number is not None and selected is None:
        return no_tile(match, seat), d
    if not isinstance(cell, tuple):  # refused: nothing changes, not even the tile in hand
        return Refuse([answer("kaliko.bad_cell", seat)]), d
    if selected is None:
        return Refuse([answer("kaliko.take_first", seat)]), d
    board = readings.board_of(match, d)
    if cell_id(*cell) in board:
        return Refuse([answer("kaliko.cell_taken", seat, cell=cell_msg(*cell))]), d
    if len(d.placed) >= 7:
        return Refuse([Utterance((Msg("kaliko.refused.too_many_tiles"),), Priority.IMPORTANT, "error", seat)]), d
    if any(OT_NUMBER[o] == selected for _, _, o in d.placed):
        return Refuse([answer("kaliko.already_placed", seat, pos=hand(match, seat).index(selected) + 1)]), d
    fitting = _fitting(board, *cell, selected)
    if not fitting:
        return Refuse([answer("kaliko.no_rotation_fits", seat, cell=cell_msg(*cell))]), d
    d = Draft(d.board_size, (*d.placed, (cell[0], cell[1], fitting[0])), None, cell)
    return Answer(readings.draft_report(match, seat, d)), d


def _last_apart(match: Match[Any, Any], d: Draft) -> tuple[int, int, int, dict[int, int]]:
    q, r, ot = d.placed[-1]
    board = readings.board_of(match, d)
    del board[cell_id(q, r)]
    return q, r, ot, board


def on_turn(c: Turn, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if not d.placed:
        return Refuse([answer("kaliko.nothing_placed", seat)]), d
    q, r, ot, board = _last_apart(match, d)
    fitting = _fitting(board, q, r, OT_NUMBER[ot])
    nxt = fitting[(fitting.index(ot) + 1) % len(fitting)] if ot in fitting else fitting[0]
    d = replace(d, placed=(*d.placed[:-1], (q, r, nxt)))
    return Answer(readings.draft_report(match, seat, d)), d


def on_orient(c: Orient, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    e = edge_of_clock(c.hour)
    if e is None:
        return None, d
    if not d.placed:
        return Refuse([answer("kaliko.nothing_placed", seat)]), d
    q, r, ot, board = _last_apart(match, d)
    code = COLOURS.index(c.colour) + 1
    fits = FITS[constraints_key(board, cell_id(q, r))]
    good = [o for o in ROTATIONS[OT_NUMBER[ot]] if COLOUR[o][e] == code and o in fits]
    if not good:
        return Refuse([answer("kaliko.orient_impossible", seat, colour=colour_msg(c.colour), clock=c.hour)]), d
    if ot not in good:  # already pointing that way: keep it (« tourne » cycles)
        d = replace(d, placed=(*d.placed[:-1], (q, r, good[0])))
    return Answer(readings.draft_report(match, seat, d)), d


def on_step(c: Step, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    d = draft_of(match, view)
    if isinstance(c, PassIt):
        return Act(Pass()), d
    if isinstance(c, Clear):
        return Answer([answer("kaliko.cleared", seat)]), Draft(d.board_size, cursor=d.cursor)
    if not d.placed:
        return Refuse([answer("kaliko.draft_empty" if isinstance(c, PlayIt) else "kaliko.nothing_placed", seat)]), d
    if isinstance(c, PlayIt):
        return Act(Play.of([(q, r, ORIENTED[ot]) for q, r, ot in d.placed])), d
    q, r, ot = d.placed[-1]  # Remove
    d = replace(d, placed=d.placed[:-1])
    out = [answer("kaliko.removed", seat, pos=hand(match, seat).index(OT_NUMBER[ot]) + 1, cell=cell_msg(q, r))]
    return Answer(out + (readings.verdict_report(match, seat, d) if d.placed else [])), d


def on_swap(c: Swap, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    h = hand(match, seat)
    if c.everything:
        return Act(Exchange(tuple(sorted(h)))), view
    if any(not 1 <= n <= len(h) for n in c.number):
        return no_tile(match, seat), view
    if not c.number:
        return Refuse([answer("kaliko.exchange_usage", seat)]), view
    return Act(Exchange(tuple(sorted({h[n - 1] for n in c.number})))), view


def on_told(c: Told, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if isinstance(c.tiles, tuple):  # the whole line is one action: nothing is half-applied
        return Act(Drew(c.tiles)), view
    owed = match.state.phase != PLAY and match.current == seat
    usage = [answer("kaliko.told_usage", seat, n=match.state.owed)] if owed else []
    if isinstance(c.tiles, Mirrors) and owed:
        numbers = list(c.tiles.numbers)
        return Refuse([answer("kaliko.told_ambiguous", seat, n=len(numbers), numbers=numbers), *usage]), view
    return Refuse([answer("kaliko.told_unread", seat), *usage]), view


def on_steps(c: Steps, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    """Each step in turn, the view carried from one to the next; the last step's intent (a
    play: the Act). A step not understood or refused stops there and says so."""
    intent: Intent | None = None
    for text, command in c.steps:
        intent, view = (None, view) if command is None or isinstance(command, Ambiguous) else \
            dispatch(command, match, seat, view)
        if intent is None:
            return Refuse([say("core.not_understood", Priority.IMPORTANT, "error", seat, text=Raw(text))]), view
        if not isinstance(intent, (Answer, Act)):
            return intent, view
    return intent, view


HANDLERS: dict[type, Handler] = {**readings.HANDLERS, Take: on_take, Here: on_here, Turn: on_turn, Orient: on_orient,
                                 Remove: on_step, Clear: on_step, PlayIt: on_step, PassIt: on_step, Swap: on_swap,
                                 Told: on_told, Steps: on_steps}


def dispatch(command: Any, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if isinstance(command, BUILDING) and match.state.phase != PLAY and match.current == seat:
        # physical table: the tiles drawn come first (RULES K-5, K-7, K-19)
        owed = match.state.owed
        intent: Intent | None = Refuse([
            Utterance((Msg("kaliko.refused.draw_first", n=owed),), Priority.IMPORTANT, "error", seat),
            answer("kaliko.told_usage", seat, n=owed)])
    else:
        intent, view = HANDLERS[type(command)](command, match, seat, view)
    intent = named(intent, command.NAME) if getattr(command, "NAME", "") else intent
    if match.state.phase == PLAY:
        _keep_secret(intent, seat)
    return intent, view


def _keep_secret(intent: Intent | None, seat: int) -> None:
    """A play is built from the hand: whether a tile fits, turns or is placed, and what the
    draft holds, tells what the tiles are. Every refusal said to `seat` while building or
    reading it is theirs alone (the table hears why it cannot be said, as for an answer)."""
    if isinstance(intent, Refuse):
        intent.utterances = [secret(u) if u.to == seat else u for u in intent.utterances]
    elif isinstance(intent, Seq):
        for item in intent.items:
            _keep_secret(item, seat)


class KalikoUI(GameUI):
    game: Kaliko
    tokens = KalikoTokens()  # laid on the token reader (issue #23)
    COMMANDS = COMMANDS
    HANDLERS = HANDLERS

    def grammar(self) -> Grammar:
        return GRAMMAR()

    def context(self, match: Match[Any, Any], seat: int) -> dict[str, Any]:
        return {**super().context(match, seat), "told": match.state.phase != PLAY and match.current == seat}

    def command(self, text: str, match: Match[Any, Any], seat: int) -> Any:
        """A play said in one line (steps joined by « ; » or « ensuite ») is each step's
        command; an axial cell is read as its name (`phrases.axial_as_names`)."""
        steps = split_steps(text)
        if len(steps) > 1:
            return Steps(tuple((step, self.command(step, match, seat)) for step in steps))
        told = match.state.phase != PLAY and match.current == seat
        return super().command(axial_as_names(text, told), match, seat)

    def handle(self, command: Any, match: Match[Any, Any], seat: int, view: Any = None) -> tuple[Intent | None, Any]:
        if isinstance(command, Ambiguous):
            return super().handle(command, match, seat, view)
        return dispatch(command, match, seat, view)

    # --- a physical table: the tiles drawn, told ---------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """The tiles `seat` may say they drew now (physical table), by number (RULES §7)."""
        return [str(a.tiles[0]) for a in match.legal(seat) if isinstance(a, Drew)]

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """A tile told (its number, its identity `01B 23R 45W`, or its colours said), or
        several; None when nothing is to be drawn now or the words name no tile."""
        if match.state.phase == PLAY or not any(isinstance(a, Drew) for a in match.legal(seat)):
            return None
        read = read_tiles(fold(outcome).split())
        return Act(Drew(tuple(read))) if isinstance(read, list) and read else None

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        s: State = match.state
        if s.phase == START:  # RULES K-4: the start tile, at a real table
            return [say("kaliko.prompt_start", player=Raw(match.players[seat]), earcon="turn")]
        if s.phase in (DEAL, DRAW):  # RULES K-5, K-7, K-19: the tiles drawn from the real bag
            return [say("kaliko.prompt_draw", player=Raw(match.players[seat]), n=s.owed, earcon="draw")]
        return super().turn_prompt(match, seat)

    def bots_refused(self) -> str | None:
        """At a physical table a bot has no hands: someone would draw its real tiles, tell
        them (learning its whole hand) and lay its plays for it. Play without -o physical=true
        (the companion then holds the bag) to play against bots."""
        return "kaliko.error.physical_bots" if self.game.config["physical"] else None

    # --- the session's hooks ----------------------------------------------------------------------------
    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        if exc.code in TOLD_CODES:
            # A told tile refused: said without naming a tile that might be in a hand (the
            # refusal is heard by the table), then what may be told now.
            d = exc.detail
            several = d.get("told", 1) > 1 and exc.code in ("not_in_bag", "told_on_board")
            params = {k: cell_msg(*v) if k == "cell" else v for k, v in d.items() if k in ("index", "cell", "n", "told")}
            if exc.code == "no_such_tile":
                params["number"] = d["number"]  # no tile has it: it reveals nothing
            out = [Utterance((Msg(f"kaliko.refused.{exc.code}{'_of' if several else ''}", **params),),
                             Priority.IMPORTANT, "error", seat)]
            if match.state.owed and exc.code != "draw_first":
                out.append(answer("kaliko.told_usage", seat, n=match.state.owed))
            return out
        out = [Utterance((readings.reason_msg(exc.code, exc.detail),), Priority.IMPORTANT, "error", seat)]
        if exc.code in ("no_scoring_path", "no_main_path", "colour_mismatch"):
            out.append(answer("kaliko.refused_hint", seat))
        return out if exc.code in PUBLIC_REFUSALS else [secret(u) for u in out]  # her tiles: hers alone

    def narrate(self, event: Any, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        if match.over:
            return [answer("kaliko.help_over", seat)]
        if seat is None or match.current != seat:
            return [answer("kaliko.help_waiting", seat)]
        if match.state.phase != PLAY:
            return [answer("kaliko.told_usage", seat, n=match.state.owed), answer("kaliko.help_told", seat)]
        d = draft_of(match, self.views.get(seat))
        if d.placed or d.selected is not None:
            return [answer("kaliko.help_building", seat)]
        return [answer("kaliko.help_turn", seat), answer("kaliko.help_readings", seat)]

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        s: State = match.state
        out = readings.scores(match)
        if match.over:
            return out
        out.append(answer("kaliko.status", seat, player=Raw(match.players[s.turn]), n=len(s.board), bag=len(s.bag)))
        if s.phase != PLAY:  # physical table: what is awaited now
            out += [Utterance(u.parts, Priority.TEXT, None, seat) for u in self.turn_prompt(match, s.turn)]
        return out

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        if match.state.phase != PLAY:  # telling the tiles drawn: chapter 8 says how
            return "companion"
        return "scoring" if match.history else "turn"


UI = KalikoUI
