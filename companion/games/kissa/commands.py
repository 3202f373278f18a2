"""2kissa10's commands, read by the one grammar, and their handlers.

Moves, said naturally: "10 en A1 plus 29 en C4 vers le bas égale 39 en E2", "10 at A1 plus 29
at C4 down equals 39 at E2", "39 égale 10 fois 29", the values only (« trois plus quatre égale
sept », "3 and 4 makes 7") or the cells only (« A1 plus C4 égale E2 »); typed with signs,
"10 + 29 = 39" (`notation.spelled`). The companion finds where the numbers lie: one reading is
played at once, none is refused with the reason (« Je ne trouve pas 3 + 4 = 7 sur le
plateau. »), several are one question, a page at a time (« peu importe » settles all, « la
suite », « le deuxième », « le dernier », a cell or a direction picks). Physical table: rows
entered (« ligne 1 : 5 3 6 5 0 2 3 0 1 8 »), tokens told (« sept », « jeton 7 »), « commencer »,
« pas de solution » (TA-7 R3). Readings: `readings`. The patterns and words are data:
`companion/language/<lang>/kissa.json` (``"read"``, ``"words"``); the slots are read in `phrases`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion import language as tables
from companion.core import IllegalAction, Match
from companion.games.base import Act, Confirm, GameUI, Handler, Intent, Refuse
from companion.language.grammar import Grammar
from companion.narration import Priority, Utterance, say

from . import narration, readings
from .finder import EMPTY, SIZE, token_value
from .moves import Equation, Reply, on_equation, refusal
from .notation import spelled, unreadable
from .phrases import GRAMMAR, vocabulary, words
from .readings import Around, CellQuery, Column, DigitQuery, Query, Row, Style
from .rules import ENTRY, OVER, Declare, EnterRow, Kissa, PlaceToken, StartPlay, State


# --- the commands ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RowDigits:
    """A row's cells at a physical table; `number` None: the first row not entered yet."""

    digits: str
    number: int | None = None


@dataclass(frozen=True)
class Token:
    """A token drawn from the bag, told (RULES T-1)."""

    digit: int


@dataclass(frozen=True)
class Start:
    """« commencer » (the board is right), and who plays first."""

    player: int | None = None


@dataclass(frozen=True)
class NoSolution:
    """« pas de solution » (TA-7 R3, at a physical table)."""


def _query(kind: str) -> Callable[[], Query]:
    return lambda: Query(kind)


def _reply(kind: str) -> Callable[..., Reply]:
    return lambda **kw: Reply(kind, **kw)


COMMANDS: dict[str, Callable[..., Any]] = {
    "token": lambda digit1: Token(digit1), "enter_row": RowDigits, "start": Start, "equation": Equation,
    "declare": NoSolution, "row": Row, "column": Column, "numbers": lambda: Style(True),
    "digits": lambda: Style(False), "around": Around, "digit": DigitQuery, "cell": CellQuery,
    **{k: _query(k) for k in ("hint", "best", "moves", "tokens", "board", "status")},
    **{k: _reply(k) for k in ("any", "more", "drop", "place", "pick")}}


# --- the handlers ----------------------------------------------------------------------------------
def _refuse(msg_id: str, seat: int, **params: Any) -> Refuse:
    return Refuse([say(msg_id, priority=Priority.IMPORTANT, earcon="error", to=seat, **params)])


def on_token(c: Token, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if any(isinstance(a, PlaceToken) for a in match.legal(seat)):
        return Act(PlaceToken(c.digit)), view
    return on_row_digits(RowDigits(str(c.digit)), match, seat, view)  # no token expected: a row of one


def on_row_digits(c: RowDigits, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    if state.phase != ENTRY:
        return None, view
    row = c.number
    if row is None:
        missing = [r for r in range(SIZE) if not state.rows[r]]
        if not missing:
            return _refuse("kissa.say_which_row", seat), view
        row = missing[0] + 1
    if not 1 <= row <= SIZE:
        return _refuse("kissa.refused.bad_row", seat, row=row), view
    if len(c.digits) != SIZE:
        return _refuse("kissa.row_length", seat, n=len(c.digits), row=row), view
    return Act(EnterRow(row - 1, c.digits)), view


def on_start(c: Start, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    # after the board is set, the rules refuse it with why (« board_already_set », T-1)
    return Act(StartPlay(c.player or 0)), view


def on_declare(c: NoSolution, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    if not match.game.config["physical"]:
        return _refuse("kissa.refused.declare_physical_only", seat), view
    if state.phase != "play":
        return _refuse("kissa.refused.board_not_ready", seat), view
    penalty = 2 * sum(token_value(d) for d in state.board if d != EMPTY)
    return Confirm(Declare(), say("kissa.confirm_declare", n=penalty, priority=Priority.MESSAGE, earcon="question",
                                  to=seat)), view


def on_reply(c: Reply, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    # « la suite », « le deuxième »: only while « which reading? » waits (the question reads them).
    # A bare « non » / "cancel" (`drop`) is then the shared word (« nothing to confirm »), and
    # stays listed for the voice (GameUI.phrases, FALL_THROUGH)
    if c.kind == "drop":
        return None, view
    return Refuse([say("kissa.no_reading_asked", Priority.IMPORTANT, "error", seat)]), view


HANDLERS: dict[type, Handler] = {
    Token: on_token, RowDigits: on_row_digits, Start: on_start, NoSolution: on_declare, Reply: on_reply,
    Equation: on_equation, Row: readings.on_row, Column: readings.on_column, CellQuery: readings.on_cell,
    Around: readings.on_around, DigitQuery: readings.on_digit, Style: readings.on_style, Query: readings.on_query}


@tables.cached
def _signs() -> dict[str, str]:
    """The operator signs of the tables ("+", "=", "×", "*") -> a word of theirs."""
    out: dict[str, str] = {}
    for lang in tables.languages():
        for key, signs in tables.table("kissa", lang).get("signs", {}).items():
            for sign in signs:
                if sign.strip() and words(key):
                    out.setdefault(sign.strip(), words(key)[0])
    return out


class KissaUI(GameUI):
    game: Kissa
    COMMANDS = COMMANDS
    HANDLERS = HANDLERS

    def grammar(self) -> Grammar:
        return GRAMMAR()

    def context(self, match: Match[Any, Any], seat: int) -> dict[str, Any]:
        return {**super().context(match, seat), "known": vocabulary()}

    def command(self, text: str, match: Match[Any, Any], seat: int) -> Any:
        """The grammar's command, the written forms first spelt in words (`notation.spelled`)."""
        if unreadable(text):
            return None
        entry = match.state.phase == ENTRY
        return super().command(spelled(text, _signs(), words("empty")[0] if entry else None), match, seat)

    # --- chance told by the table ---------------------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """While a physical board is entered: the digit of the next token drawn from the bag,
        `0`…`9` (RULES T-1: the tokens fill the cells in draw order, row by row); [] otherwise."""
        return [str(a.digit) for a in match.legal(seat) if isinstance(a, PlaceToken)]

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """A token told: its digit (`7`, « sept », « jeton 7 ») goes in the next cell; the
        next row whole, as RULES §7 writes it (`5365023018`, `.` for an empty cell)."""
        if not self.chance(match, seat):
            return None
        text = outcome.strip()
        if re.fullmatch(rf"[0-9.]{{{SIZE}}}", text):
            return Act(EnterRow(match.state.rows.index(False), text))
        command = self.command(text, match, seat)
        return Act(PlaceToken(command.digit)) if isinstance(command, Token) else None

    # --- speaking --------------------------------------------------------------------------------
    def narrate(self, event: Any, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.help(match, seat)

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.status(match, seat)

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        return refusal(exc, match, seat)

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        state: State = match.state
        if state.phase == ENTRY:
            return "setup"
        return "scoring" if state.phase == OVER else "turn"
