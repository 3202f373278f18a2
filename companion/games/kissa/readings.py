"""2kissa10's readings (Lichess blind mode): a row, a column, a cell, around a cell, where a
digit is, the tokens left, the whole board, the scores, how lines are read (« en nombres » /
« chiffre par chiffre »), and help from the finder (« indice », a little more each time;
« solution »; « coups », how many).

Each reading is a frozen command record read by the one grammar, with its handler
`(command, match, seat, view) -> (intent, view)`: an `Answer` to the seat who asked. What a
seat is in the middle of between lines (how it hears lines read, how far its hints went) is
its view, a `Seen` the session holds: a handler returns the next one and changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core import Match
from companion.games.base import Answer, Intent
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration
from .finder import COLUMNS, EMPTY, SIZE, TIMES, token_value
from .narration import equation_msg
from .rules import ENTRY, OVER, State, tokens_left


@dataclass(frozen=True)
class Seen:
    """A seat's view: lines read as whole numbers or digit by digit, and its hints so far
    (the number of moves played when last asked, and how precise the last one was)."""

    whole: bool = False
    hint_at: int = -1
    hint_level: int = 0


def seen(view: Any) -> Seen:
    return view if isinstance(view, Seen) else Seen()


# --- the reading commands ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    number: int


@dataclass(frozen=True)
class Column:
    column: str


@dataclass(frozen=True)
class CellQuery:
    cell: int


@dataclass(frozen=True)
class Around:
    cell: int | None = None


@dataclass(frozen=True)
class DigitQuery:
    digit: int


@dataclass(frozen=True)
class Style:
    """« en nombres » (whole) or « chiffre par chiffre »: how this seat hears lines read."""

    whole: bool


@dataclass(frozen=True)
class Query:
    """A reading without a slot, named by its kind (tokens, board, status, hint, best, moves)."""

    kind: str


def _answer(utt: Utterance, command: str) -> Answer:
    return Answer([utt], command=command)


def on_row(c: Row, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if not 1 <= c.number <= SIZE:
        return _answer(say("kissa.no_such_row", priority=Priority.TEXT, to=seat), "row"), view
    cells = [(c.number - 1) * SIZE + k for k in range(SIZE)]
    line = read_line(match.state.board, cells, Msg("kissa.row_name", n=c.number), seat, seen(view))
    return _answer(line, "row"), view


def on_column(c: Column, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    k = COLUMNS.index(c.column)
    line = read_line(match.state.board, [r * SIZE + k for r in range(SIZE)], Msg("kissa.col_name", col=c.column), seat,
                     seen(view))
    return _answer(line, "column"), view


def on_cell(c: CellQuery, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    board = match.state.board
    return _answer(say("kissa.cell_is", cell=narration.cell_name(c.cell), what=narration.digit_word(board[c.cell]),
                       priority=Priority.TEXT, to=seat), "cell"), view


def on_around(c: Around, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if c.cell is None:
        return _answer(say("kissa.say_a_cell", priority=Priority.TEXT, to=seat), "around"), view
    board = match.state.board
    r0, c0 = divmod(c.cell, SIZE)
    items = []
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        r, k = r0 + dr, c0 + dc
        if (dr, dc) != (0, 0) and 0 <= r < SIZE and 0 <= k < SIZE:
            x = r * SIZE + k
            items.append(Msg("kissa.cell_short", cell=narration.cell_name(x), what=narration.digit_word(board[x])))
    return _answer(say("kissa.around", cell=narration.cell_name(c.cell), what=narration.digit_word(board[c.cell]),
                       items=items, priority=Priority.TEXT, to=seat), "around"), view


def on_digit(c: DigitQuery, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    where = [narration.cell_name(x) for x in range(SIZE * SIZE) if match.state.board[x] == c.digit]
    if not where:
        return _answer(say("kissa.digit_nowhere", digit=str(c.digit), priority=Priority.TEXT, to=seat), "digit"), view
    return _answer(say("kissa.digit_where", digit=str(c.digit), n=len(where), cells=where, priority=Priority.TEXT,
                       to=seat), "digit"), view


def on_style(c: Style, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    said = say("kissa.style_whole" if c.whole else "kissa.style_digits", priority=Priority.TEXT, to=seat)
    return _answer(said, "numbers" if c.whole else "digits"), replace(seen(view), whole=c.whole)


def on_query(c: Query, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    state: State = match.state
    board = state.board
    if c.kind == "tokens":
        value = sum(token_value(d) for d in board if d != EMPTY)
        return _answer(say("kissa.tokens_left", n=tokens_left(board), value=value, priority=Priority.TEXT, to=seat),
                       "tokens"), view
    if c.kind == "board":
        rows = [read_line(board, [r * SIZE + k for k in range(SIZE)], Msg("kissa.row_name", n=r + 1), seat, seen(view))
                for r in range(SIZE)]
        return Answer(rows, command="board"), view
    if c.kind == "status":
        return Answer(status(match, seat), command="status"), view
    return _finder(c.kind, match, seat, seen(view))


def _finder(kind: str, match: Match[Any, Any], seat: int, view: Seen) -> tuple[Intent | None, Any]:
    """« indice », « solution », « coups »: from the finder, only while playing."""
    state: State = match.state
    if state.phase != "play":
        return _answer(say("kissa.no_hint_now", priority=Priority.TEXT, to=seat), kind), view
    finder = match.game.finder(state.board)  # type: ignore[attr-defined]
    best = finder.best(1)
    if not best:
        return _answer(say("kissa.no_move", priority=Priority.TEXT, to=seat), kind), view
    move = best[0]
    if kind == "moves":
        return _answer(say("kissa.move_count", n=finder.count(), best=move[4], priority=Priority.TEXT, to=seat),
                       kind), view
    if kind == "best":
        return _answer(whole_move(finder, move, seat), kind), view
    # hints grow more precise when asked again before a move: a cell, a result, the move
    level = view.hint_level + 1 if view.hint_at == state.moves else 1
    op, _a, _b, c, _score = move
    nums = finder.numbers
    if level == 1:
        utt = say("kissa.hint_cell", cell=narration.cell_name(nums[c].cells[0]), priority=Priority.TEXT, to=seat)
    elif level == 2:
        utt = say("kissa.hint_result", value=str(nums[c].value), priority=Priority.TEXT, to=seat,
                  op=Msg("kissa.op_times" if op == TIMES else "kissa.op_plus"))
    else:
        utt = whole_move(finder, move, seat)
    return _answer(utt, kind), replace(view, hint_at=state.moves, hint_level=level)


def whole_move(finder: Any, move: Any, seat: int) -> Utterance:
    op, a, b, c, score = move
    nums = finder.numbers
    eq = equation_msg(op, [nums[x].value for x in (a, b, c)], [nums[x].cells for x in (a, b, c)])
    return say("kissa.hint_move", equation=eq, n=score, priority=Priority.TEXT, to=seat)


def _as_numbers(digits: str) -> str:
    """A run of digits as it is read « en nombres »: no number begins with 0 (RULES T-3), so
    leading zeros are said one by one: "04" -> "0, 4", "0045" -> "0, 0, 45"."""
    zeros = len(digits) - len(digits.lstrip("0"))
    if len(digits) <= 1 or not zeros:
        return digits
    rest = digits[zeros:]
    return ", ".join(["0"] * zeros + ([rest] if rest else []))


def read_line(board: Sequence[int], cells: list[int], name: Msg, seat: int, view: Seen) -> Utterance:
    if not view.whole:
        items: list[Any] = [narration.digit_word(board[x]) for x in cells]
        return say("kissa.line_digits", line=name, items=items, priority=Priority.TEXT, to=seat)
    items = []
    for occupied, group in itertools.groupby(cells, key=lambda x: board[x] != EMPTY):
        run = list(group)
        first, last = narration.cell_name(run[0]), narration.cell_name(run[-1])
        if occupied:
            digits = _as_numbers("".join(str(board[x]) for x in run))
            if len(run) == 1:
                items.append(Msg("kissa.run_one", value=digits, cell=first))
            else:
                items.append(Msg("kissa.run_many", value=digits, first=first, last=last))
        elif len(run) == 1:
            items.append(Msg("kissa.gap_one", cell=first))
        else:
            items.append(Msg("kissa.gap_many", first=first, last=last, n=len(run)))
    return say("kissa.line_whole", line=name, items=items, priority=Priority.TEXT, to=seat)


def help(match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """What `seat` can do now: enter the board, move or wait; and the readings."""
    state: State = match.state
    if state.phase == ENTRY:
        return [say("kissa.help_entry", priority=Priority.TEXT, to=seat)]
    out = []
    if state.phase == "play" and seat == state.turn:
        out.append(say("kissa.help_move", priority=Priority.TEXT, to=seat))
        if match.game.config["physical"]:
            out.append(say("kissa.help_declare", priority=Priority.TEXT, to=seat))
    elif state.phase == "play":
        out.append(say("kissa.help_wait", player=Raw(match.players[state.turn]), priority=Priority.TEXT, to=seat))
    out.append(say("kissa.help_read", priority=Priority.TEXT, to=seat))
    return out


def status(match: Match[Any, Any], seat: int | None) -> list[Utterance]:
    """Whose turn, the scores and the tokens left; the rows still to enter at a table."""
    state: State = match.state
    scores = [Msg("kissa.player_score", player=Raw(name), n=state.scores[s]) for s, name in enumerate(match.players)]
    if state.phase == ENTRY:
        missing = [str(r + 1) for r in range(SIZE) if not state.rows[r]]
        return [say("kissa.status_entry", rows=missing, n=len(missing), priority=Priority.TEXT, to=seat)]
    if state.phase == OVER:
        return [say("kissa.status_over", scores=scores, priority=Priority.TEXT, to=seat)]
    return [say("kissa.status", player=Raw(match.players[state.turn]), scores=scores, n=tokens_left(state.board),
                priority=Priority.TEXT, to=seat)]
