"""Kaliko's commands, read by the one grammar, and their handlers.

The words and patterns are data: `companion/language/<lang>/kaliko.json` (``"read"``,
``"words"``, ``"colours"``, ``"shapes"``), every language at once; the slots are read in
`phrases`, the readings in `readings`, the steps that build a play in `draft` (« prends 2 »,
« en 3h1 » / "put it at 3h1", « tourne », « rouge 3 », « retire », « efface », « joue »). The
play being built is the seat's view (a `draft.Draft`), held by the session: reading a line
changes nothing. Here: the moves (« échange 1 3 », « échange tout », « passe »), a play said in
one line, and the game's hooks.

At a physical table (option `physical`) the tiles drawn from the real bag are told: « tire 12
40 », « 12 », « rouge 3 5 blanc 7 9 bleu 11 1 », « 01B 23R 45W ».
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import IllegalAction, Match, fold
from companion.games.base import Act, Ambiguous, Answer, GameUI, Handler, Intent, Refuse, Seq, named
from companion.language.grammar import Grammar
from companion.narration import Msg, Priority, Raw, Utterance, say, secret

from . import narration, readings
from .draft import (
    BUILDS,
    Clear,
    Here,
    Orient,
    PlayIt,
    Remove,
    Step,
    Take,
    Turn,
    answer,
    draft_of,
    hand,
    no_tile,
    reason_msg,
)
from .notation import cell_msg
from .phrases import BAD, GRAMMAR, WORDS, axial_as_names, read_tiles, split_steps
from .phrases import Ambiguous as Mirrors
from .reader import KalikoTokens
from .readings import Board, CellRead, Go
from .rules import DEAL, DRAW, PLAY, START, Drew, Exchange, Kaliko, Pass, State

# refusals of a told draw (physical table), each followed by what to tell now
TOLD_CODES = frozenset({"not_in_bag", "told_on_board", "too_many_told", "no_such_tile", "nothing_told", "draw_first",
                        "nothing_to_draw", "told_twice"})
# Refusals of a play that tell nothing of the hand: the table may hear them.
PUBLIC_REFUSALS = frozenset({"bag_too_small", "bag_empty", "nothing_to_exchange", "game_over", "not_your_turn"})
__all__ = ["TOLD_CODES", "PUBLIC_REFUSALS", "WORDS", "KalikoUI", "UI"]


# --- the commands that build or make a move --------------------------------------------------------
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
    "pass": PassIt, "take_unread": lambda rest=(): Take(),
    "cell_unread": lambda rest: CellRead(BAD)}
BUILDING = (Take, Here, Turn, Orient, Remove, PlayIt, Swap, PassIt)  # refused while drawn tiles are to be told


# --- their handlers ----------------------------------------------------------------------------------
def on_pass(c: PassIt, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    return Act(Pass()), view


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


HANDLERS: dict[type, Handler] = {**readings.HANDLERS, **BUILDS, PassIt: on_pass, Swap: on_swap, Told: on_told,
                                 Steps: on_steps}


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
        out = [Utterance((reason_msg(exc.code, exc.detail),), Priority.IMPORTANT, "error", seat)]
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
