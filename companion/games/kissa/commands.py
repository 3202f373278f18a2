"""What 2kissa10 players say or type, understood (every language of the phrase tables at once).

Moves, said naturally: "10 en A1 plus 29 en C4 vers le bas égale 39 en E2",
"10 at A1 plus 29 at C4 down equals 39 at E2", "10 + 29 = 39", "39 égale 10 fois 29".
A complete equation with one reading is played at once; otherwise one question lists the
readings (« peu importe » settles all, « le dernier » / "the last one" picks the last heard).

Readings (Lichess blind mode): "ligne 3"/"row 3", "colonne C"/"column C", "E5", « case B3 »,
« qu'y a-t-il en B3 », "autour de E5"/"around E5", "où sont les 7"/"where are the 7s",
"jetons"/"tokens", "plateau"/"board", "en nombres"/"as numbers" or "chiffre par
chiffre"/"digit by digit" (how lines are read), "coups"/"moves" (how many), "indice"/"hint"
(a little more each time), "solution".
Physical table: "ligne 1 : 5 3 6 5 0 2 3 0 1 8" enters a row; the digit of a token drawn from
the bag (« sept », "jeton 7", or the token on the reader) goes in the next cell (the chance told
by the table: `chance` / `told`); "commencer"/"start" starts, "pas de solution"/"no solution"
declares (TA-7 R3).

The words are data: `companion/language/<lang>/kissa.json` (operators, directions, query and
answer words), and the shared readers of `companion.language` read numbers in words, places in
a list (« le deuxième », « le dernier ») and players' names. Only the notation is code: cells
``A1``…``J10`` (RULES §7) and the signs' shapes.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from companion import language as tables
from companion.core import IllegalAction, Match, fold
from companion.games.base import Act, Answer, Ask, Confirm, GameUI, Intent, Refuse, named
from companion.language import (
    LAST,
    find_players,
    is_ordinal,
    number_at,
    ordinal,
    read_number,
    yes_no,
)
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration
from .finder import COLUMNS, EMPTY, PLUS, SIZE, TIMES, token_value, value_of
from .narration import direction, equation_msg, number_msg
from .rules import (
    ENTRY,
    OVER,
    Declare,
    EnterRow,
    Kissa,
    Move,
    PlaceToken,
    StartPlay,
    State,
    tokens_left,
)

OPS = {"plus": "op_plus", "times": "op_times", "equals": "op_eq"}


# --- the words, from the phrase tables -------------------------------------------------------
def words(key: str) -> tuple[str, ...]:
    """The folded phrases of one of 2kissa10's word groups (row, hint, any...), every language."""
    return tables.groups("kissa", "words").get(key, ())


@tables.cached
def _rewrites() -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for every operator and direction phrase, longest first, and what each
    becomes: a single token (``op_plus``, ``op_times``, ``op_eq``, ``dir_down``...)."""
    to: dict[str, str] = {}
    for way, phrases in tables.groups("kissa", "direction").items():
        for p in phrases:
            to.setdefault(p, "dir_" + way)
    for key, token in OPS.items():
        for p in words(key):
            to.setdefault(p, token)
    alternatives = sorted(to, key=lambda p: (-len(p), p))
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in alternatives) + r")\b") if to else re.compile(r"(?!)")
    return pattern, to


@tables.cached
def _signs() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """The operator signs of the tables ("+", "=", "×", "*"): sign -> token."""
    to: dict[str, str] = {}
    for lang in tables.languages():
        for key, signs in tables.table("kissa", lang).get("signs", {}).items():
            for sign in signs:
                if key in OPS and sign.strip():
                    to.setdefault(sign.strip(), OPS[key])
    if not to:
        return None, to
    return re.compile("|".join(re.escape(s) for s in sorted(to, key=len, reverse=True))), to


@tables.cached
def _zero_words() -> frozenset[str]:
    """Words said for the digit 0 inside a number ("two oh five"), beyond the shared reader's."""
    return frozenset(tables.words("kissa", "zero"))


@tables.cached
def _vocabulary() -> frozenset[str]:
    """Every single word 2kissa10 knows (never taken for a misspelt player name)."""
    out: set[str] = set()
    for section in ("words", "direction"):
        for phrases in tables.groups("kissa", section).values():
            out.update(w for p in phrases for w in p.split())
    return frozenset(out)


def _has(folded: str, phrases: Sequence[str]) -> bool:
    padded = f" {folded} "
    return any(f" {p} " in padded for p in phrases)


def _after(tokens: Sequence[str], phrases: Sequence[str]) -> int | None:
    """The index just past the first phrase of `phrases` said in `tokens`, else None."""
    split = [p.split() for p in phrases]
    for i in range(len(tokens)):
        for p in split:
            if p and list(tokens[i : i + len(p)]) == p:
                return i + len(p)
    return None


def _tokens(text: str) -> list[str]:
    """The folded words of a line, the signs as tokens: "10+29=39" -> 10 op_plus 29 op_eq 39.
    An "x" between two digits is the times sign ("10x29")."""
    text = re.sub(r"(?<=\d)\s*[xX]\s*(?=\d)", " x ", text)
    pattern, to = _signs()
    out: list[str] = []
    pieces = pattern.split(text) if pattern is not None else [text]
    signs = pattern.findall(text) if pattern is not None else []
    for k, piece in enumerate(pieces):
        out.extend(fold(piece).split())
        if k < len(signs):
            out.append(to[signs[k]])
    return out


def _rewritten(tokens: Sequence[str]) -> list[str]:
    """Operator and direction phrases made single tokens (``op_times``, ``dir_down``...)."""
    pattern, to = _rewrites()
    return pattern.sub(lambda m: to[m.group(0)], " ".join(tokens)).split()


def _number(tokens: Sequence[str], i: int) -> tuple[int, int]:
    """The number said at word `i`: (value, words used), (0, 0) when none. Digits said one by one
    are one number of several digits (« deux neuf » is 29, "two oh five" is 205): a number of
    the board is its digits read in order (RULES T-3)."""
    zero = _zero_words()

    def digit_word(k: int) -> int | None:
        if k >= len(tokens) or tokens[k].isdecimal():
            return None
        if tokens[k] in zero:
            return 0
        value, used = number_at(tokens, k)
        return value if used == 1 and value <= 9 else None

    run: list[int] = []
    k = i
    while (d := digit_word(k)) is not None:
        run.append(d)
        k += 1
    if len(run) > 1:
        return int("".join(map(str, run))), len(run)
    if i < len(tokens) and tokens[i] in zero:
        return 0, 1
    return number_at(tokens, i)


def parse_cell_words(words: Sequence[str], i: int) -> tuple[int, int] | None:
    """A cell at words[i] ("e5", or "e" "5", or "e" "cinq"): (cell index, words used)."""
    if i >= len(words):
        return None
    m = _CELL.match(words[i])
    if m:
        return (int(m.group(2)) - 1) * SIZE + COLUMNS.index(m.group(1).upper()), 1
    if len(words[i]) == 1 and words[i] in "abcdefghij" and i + 1 < len(words):
        n, used = (int(words[i + 1]), 1) if words[i + 1].isdecimal() else number_at(words, i + 1)
        if used == 1 and 1 <= n <= SIZE:
            return (n - 1) * SIZE + COLUMNS.index(words[i].upper()), 2
    return None


_CELL = re.compile(r"^([a-j])(10|[1-9])$")


def find_cell(folded: str) -> int | None:
    words = folded.split()
    for i in range(len(words)):
        got = parse_cell_words(words, i)
        if got:
            return got[0]
    return None


def _unreadable_number(text: str) -> bool:
    """A number no board holds (more than 30 digits: int() refuses past 4300) or a digit-like
    sign that is not a digit ("²"): not understood, never a crash (issue #16)."""
    return bool(re.search(r"\d{31,}", text)) or any(c.isdigit() and not c.isdecimal() for c in text)


class Spec:
    """A number as said: its value, and where it starts and which way, when said."""

    def __init__(self, value: int | None, cell: int | None = None, way: str | None = None) -> None:
        self.value, self.cell, self.way = value, cell, way

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Spec({self.value}, {self.cell}, {self.way})"


def parse_equation(text: str) -> tuple[str, list[Spec]] | None:
    """(op, [a, b, c]) from "a op b = c" or "c = a op b"; None when it is not an equation."""
    words = _rewritten(_tokens(text))
    at = set(tables.groups("kissa", "words").get("at", ()))
    items: list[Any] = []  # Spec or "op_plus"/"op_times"/"op_eq"
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("op_plus", "op_times", "op_eq"):
            items.append(w)
            i += 1
            continue
        if w.isdecimal():
            value, used = int(w), 1
        else:
            value, used = _number(words, i)
        if used:
            spec = Spec(value)
            i += used
            if i < len(words) and words[i] in at and parse_cell_words(words, i + 1):
                i += 1
            got = parse_cell_words(words, i)
            if got:
                spec.cell = got[0]
                i += got[1]
            if i < len(words) and words[i].startswith("dir_"):
                spec.way = words[i][4:]
                i += 1
            items.append(spec)
            continue
        got = parse_cell_words(words, i)
        if got and (not items or not isinstance(items[-1], Spec)):  # a number named by its cell alone: "A5 plus B5"
            spec = Spec(None, got[0])
            i += got[1]
            if i < len(words) and words[i].startswith("dir_"):
                spec.way = words[i][4:]
                i += 1
            items.append(spec)
            continue
        i += 1  # filler words ("je joue", "alors"...)
    kinds = ["n" if isinstance(x, Spec) else x for x in items]
    if kinds == ["n", "op_plus", "n", "op_eq", "n"] or kinds == ["n", "op_times", "n", "op_eq", "n"]:
        return (TIMES if kinds[1] == "op_times" else PLUS), [items[0], items[2], items[4]]
    if kinds == ["n", "op_eq", "n", "op_plus", "n"] or kinds == ["n", "op_eq", "n", "op_times", "n"]:
        return (TIMES if kinds[3] == "op_times" else PLUS), [items[2], items[4], items[0]]
    return None


PAGE = 8  # readings listed at once; « la suite » gives the rest


def _as_numbers(digits: str) -> str:
    """A run of digits as it is read « en nombres »: no number begins with 0 (RULES T-3), so
    leading zeros are said one by one: "04" -> "0, 4", "0045" -> "0, 0, 45"."""
    zeros = len(digits) - len(digits.lstrip("0"))
    if len(digits) <= 1 or not zeros:
        return digits
    rest = digits[zeros:]
    return ", ".join(["0"] * zeros + ([rest] if rest else []))


@tables.cached
def _plural_endings() -> tuple[str, ...]:
    """How a plural ends ("s": "the 7s", "nines"), from the tables' `plural_endings`."""
    return tables.words("kissa", "plural_endings")


def _digit_named(word: str) -> int | None:
    """The digit a word names in « où sont les 7 » / "where are the nines" (a plural ending dropped)."""
    bare = [word[: -len(e)] for e in _plural_endings() if word.endswith(e) and len(word) > len(e)]
    for w in (word, *bare):
        if w.isdecimal():
            return int(w) if len(w) == 1 else None
        value = 0 if w in _zero_words() else None if is_ordinal(w) else read_number(w)
        if value is not None and 0 <= value <= 9:
            return value
    return None


class KissaUI(GameUI):
    game: Kissa

    def __init__(self, game: Kissa) -> None:
        super().__init__(game)
        self.whole: dict[int, bool] = {}  # seat -> lines read as whole numbers
        self.hints: dict[int, tuple[int, int]] = {}  # seat -> (moves made, hint level)

    # --- understanding ---------------------------------------------------------------------
    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        state: State = match.state
        folded = " ".join(_tokens(text))
        if not folded or _unreadable_number(text):
            return None
        if state.phase == ENTRY:
            got = self.told(text, match, seat) or self._parse_entry(text, match, seat)
            if got is not None:
                return got
        eq = parse_equation(text)
        if eq is not None:
            return self._move_intent(eq[0], eq[1], match, seat)
        return self._parse_query(folded, match, seat)

    def _parse_entry(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        state: State = match.state
        # a typed '.' is an empty cell (a final '.' ending a sentence is not)
        body = re.sub(r"^\s*\w+\s+\w+\s*:", "", text)  # after "ligne 3 :", if any
        typed = re.sub(r"\.\s*$", "", text.strip()) if len(re.findall(r"[0-9.]", body)) > SIZE else text
        tokens = [t for piece in re.findall(r"\.|[^.]+", typed) for t in (["."] if piece == "." else fold(piece).split())]
        folded = " ".join(t for t in tokens if t != ".")
        row: int | None = None
        rest = tokens
        k = next((len(p) for p in (w.split() for w in words("row")) if tokens[: len(p)] == p), None)
        if k is not None:
            if len(tokens) <= k:
                return None
            value, used = (int(tokens[k]), 1) if tokens[k].isdecimal() else number_at(tokens, k)
            if not used:
                return None
            row, rest = value, tokens[k + used :]
        digits = self._digits(rest)
        if digits is not None:
            if row is None:
                missing = [r for r in range(SIZE) if not state.rows[r]]
                if not missing:
                    return Refuse([say("kissa.say_which_row", priority=Priority.IMPORTANT, earcon="error", to=seat)])
                row = missing[0] + 1
            if not 1 <= row <= SIZE:
                return Refuse([say("kissa.refused.bad_row", row=row, priority=Priority.IMPORTANT, earcon="error", to=seat)])
            if len(digits) != SIZE:
                return Refuse([say("kissa.row_length", n=len(digits), row=row, priority=Priority.IMPORTANT, earcon="error", to=seat)])
            return Act(EnterRow(row - 1, digits))
        if _has(folded, words("start")):
            named_seats = find_players(folded, match.players, _vocabulary())
            return Act(StartPlay(named_seats[0] if named_seats else 0))
        return None

    @staticmethod
    def _digits(tokens: Sequence[str]) -> str | None:
        """Dictated or typed cells: "5 3 6 5 0 2 3 0 1 8", "5365023018", "cinq trois vide..."."""
        out = []
        empty = set(words("empty"))
        for w in tokens:
            if w.isdecimal():
                out.append(w)
            elif w == "." or w in empty:
                out.append(".")
            elif w in _zero_words():
                out.append("0")
            else:
                value, used = number_at([w], 0)
                if not used or value > 9 or is_ordinal(w):
                    return None
                out.append(str(value))
        joined = "".join(out)
        return joined if joined else None

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
        state: State = match.state
        text = outcome.strip()
        if re.fullmatch(rf"[0-9.]{{{SIZE}}}", text):
            return Act(EnterRow(state.rows.index(False), text))
        said = [t for t in fold(text).split() if t not in words("token")]
        digits = self._digits(said) if len(said) == 1 else None
        if digits is None or len(digits) != 1 or digits == ".":
            return None
        return Act(PlaceToken(int(digits)))

    def _parse_query(self, folded: str, match: Match[Any, Any], seat: int) -> Intent | None:
        state: State = match.state
        board = state.board
        tokens = folded.split()
        k = _after(tokens, words("row"))
        if k is not None and k < len(tokens):
            n, used = (int(tokens[k]), 1) if tokens[k].isdecimal() else number_at(tokens, k)
            if not used or not 1 <= n <= SIZE:
                return self._answer(seat, say("kissa.no_such_row", priority=Priority.TEXT, to=seat), "row")
            return self._answer(seat, self.read_line(board, [(n - 1) * SIZE + c for c in range(SIZE)], Msg("kissa.row_name", n=n), seat), "row")
        k = _after(tokens, words("column"))
        if k is not None and k < len(tokens) and len(tokens[k]) == 1 and tokens[k] in "abcdefghij":
            c = COLUMNS.index(tokens[k].upper())
            return self._answer(seat, self.read_line(board, [r * SIZE + c for r in range(SIZE)], Msg("kissa.col_name", col=tokens[k].upper()), seat), "column")
        if _has(folded, words("numbers")):
            self.whole[seat] = True
            return self._answer(seat, say("kissa.style_whole", priority=Priority.TEXT, to=seat), "numbers")
        if _has(folded, words("digits")):
            self.whole[seat] = False
            return self._answer(seat, say("kissa.style_digits", priority=Priority.TEXT, to=seat), "digits")
        if _has(folded, words("declare")):
            return self._declare(match, seat)
        if _has(folded, words("hint")):
            return named(self._hint(match, seat), "hint")
        if _has(folded, words("best")):
            return named(self._best(match, seat), "best")
        if _has(folded, words("moves")):
            return named(self._count(match, seat), "moves")
        if _has(folded, words("around")):
            cell = find_cell(folded)
            if cell is None:
                return self._answer(seat, say("kissa.say_a_cell", priority=Priority.TEXT, to=seat), "around")
            return self._answer(seat, self.read_around(board, cell, seat), "around")
        k = _after(tokens, words("where"))
        asked = len(tokens) == 1 and folded[:1].isdecimal() and folded[1:] in _plural_endings()  # "7s"
        if ((k is not None and k < len(tokens)) or asked) and not find_cell(folded):
            digit = _digit_named(tokens[-1])
            if digit is not None:
                return self._answer(seat, self.read_digit(board, digit, seat), "digit")
        if _has(folded, words("tokens")):
            return self._answer(seat, say("kissa.tokens_left", n=tokens_left(board), value=sum(token_value(d) for d in board if d != EMPTY), priority=Priority.TEXT, to=seat), "tokens")
        if _has(folded, words("board")):
            return Answer(
                [self.read_line(board, [r * SIZE + c for c in range(SIZE)], Msg("kissa.row_name", n=r + 1), seat) for r in range(SIZE)], command="board"
            )
        if _has(folded, words("status")):
            return Answer(self.status(match, seat), command="status")
        cell = find_cell(folded)
        if cell is not None and _has(folded, words("cell")):
            return self._answer(seat, self.read_cell(board, cell, seat), "cell")
        if len(tokens) <= 2 and cell is not None:
            return self._answer(seat, self.read_cell(board, cell, seat), "cell")
        return None

    @staticmethod
    def _answer(seat: int, utt: Utterance, command: str | None = None) -> Answer:
        return Answer([utt], command=command)

    # --- moves -------------------------------------------------------------------------------
    def _move_intent(self, op: str, specs: list[Spec], match: Match[Any, Any], seat: int) -> Intent:
        state: State = match.state
        if state.phase == ENTRY:
            return Refuse([say("kissa.refused.board_not_ready", priority=Priority.IMPORTANT, earcon="error", to=seat)])
        if state.phase == OVER:
            return Refuse([say("kissa.refused.game_over", priority=Priority.IMPORTANT, earcon="error", to=seat)])
        finder = self.game.finder(state.board)
        cands: list[list[tuple[int, ...]]] = []
        values = [spec.value for spec in specs]
        if all(v is not None and spec.cell is None and spec.way is None for v, spec in zip(values, specs, strict=True)):
            x, y, z = (int(v or 0) for v in values)
            if (x * y if op == TIMES else x + y) == z and not self._placed(op, specs, finder, state, seat):
                # values only, true, and nowhere on the board: said as the player said it
                sign = "×" if op == TIMES else "+"
                return Refuse([say("kissa.no_such_equation", equation=Raw(f"{x} {sign} {y} = {z}"),
                                   priority=Priority.IMPORTANT, earcon="error", to=seat)])
        for spec in specs:
            found = [
                n.cells for n in finder.numbers
                if (spec.value is None or n.value == spec.value)
                and (spec.cell is None or n.cells[0] == spec.cell)
                and (spec.way is None or direction(n.cells) == spec.way)
            ]
            if not found and spec.cell is not None and spec.way is None and spec.value is not None:
                # the player may have named the number's last cell, as read backwards
                found = [n.cells for n in finder.numbers if n.value == spec.value and spec.cell in n.cells]
            if not found:
                if spec.value is None:
                    where: Any = narration.cell_name(spec.cell) if spec.cell is not None else "?"
                else:
                    where = number_msg(spec.value, [spec.cell]) if spec.cell is not None else str(spec.value)
                return Refuse([say("kissa.no_such_number", number=where, priority=Priority.IMPORTANT, earcon="error", to=seat)])
            cands.append(found)
        legal: list[Move] = []
        first_error: IllegalAction | None = None
        for a, b, c in itertools.islice(itertools.product(*cands), 20000):
            move = Move(op, a, b, c)
            try:
                self.game.check(state, seat, move)
            except IllegalAction as exc:
                first_error = first_error or exc
                continue
            legal.append(self.game.normalize(state.board, move))
        legal = list(dict.fromkeys(legal))
        if not legal:
            assert first_error is not None
            return Refuse(self.refusal(first_error, match, seat))
        return self._narrow(legal, match, seat)

    def _placed(self, op: str, specs: list[Spec], finder: Any, state: State, seat: int) -> bool:
        """Whether the values of `specs` lie on the board as a legal move (the first one found)."""
        cands = [[n.cells for n in finder.numbers if n.value == spec.value] for spec in specs]
        for a, b, c in itertools.islice(itertools.product(*cands), 20000):
            try:
                self.game.check(state, seat, Move(op, a, b, c))
            except IllegalAction:
                continue
            return True
        return False

    def _narrow(self, legal: list[Move], match: Match[Any, Any], seat: int, offset: int = 0) -> Intent:
        """One reading left: it is played at once (the narration says it, once). Several: one
        question lists them (the numbers that differ), a page at a time; « peu importe »
        settles everything, « la suite » gives the rest, a choice, a cell or « le dernier » picks."""
        board = match.state.board
        if len(legal) == 1:
            return Act(self._best_op(legal[0], board))
        roles = [r for r in ("a", "b", "c") if len({getattr(m, r) for m in legal}) > 1]

        def where(m: Move) -> list[Msg]:
            return [number_msg(value_of(board, getattr(m, r)), getattr(m, r)) for r in roles]

        shown = legal[offset : offset + PAGE]
        more = len(legal) - offset - len(shown)
        places = [Msg("kissa.option", k=offset + k + 1, where=where(m)) for k, m in enumerate(shown)]
        if offset:  # « la suite »: this page, not « les premières » again (#29)
            question = say("kissa.which_reading_next" if more else "kissa.which_reading_last", n=len(legal),
                           first=offset + 1, last=offset + len(shown), more=more, places=places,
                           priority=Priority.MESSAGE, earcon="question", to=seat)
        elif more:
            question = say("kissa.which_reading_cut", n=len(legal), shown=len(shown), more=more, places=places,
                           priority=Priority.MESSAGE, earcon="question", to=seat)
        else:
            question = say("kissa.which_reading", n=len(legal), places=places, priority=Priority.MESSAGE,
                           earcon="question", to=seat)

        def resolve(text: str) -> Intent | None:
            folded = fold(text)
            said_any = _has(folded, words("any"))
            # « peu importe » is a shared "cancel" word; here it means "any of them"
            if _has(folded, words("drop")) or (yes_no(folded) in ("no", "cancel") and not said_any):
                return Answer([say("kissa.move_dropped", priority=Priority.TEXT, to=seat)])
            if said_any:
                return Act(self._best_op(legal[0], board))
            if more and _has(folded, words("more")):
                return self._narrow(legal, match, seat, offset + PAGE)
            picked = self._pick(folded, legal, shown, roles)
            if not picked:
                return None
            return self._narrow(picked, match, seat)

        return Ask(question, resolve)

    @staticmethod
    def _pick(folded: str, legal: Sequence[Move], shown: Sequence[Move], roles: Sequence[str]) -> list[Move]:
        """The readings a reply picks: « choix 2 » / « le deuxième » (numbered over the whole
        list), « le dernier » / "the last one" (of those just heard), a cell, a direction."""
        place = ordinal(folded)
        if place == LAST:
            return [shown[-1]]
        cell = find_cell(folded)
        way = next((w[4:] for w in _rewritten(folded.split()) if w.startswith("dir_")), None)
        if cell is not None or way is not None:
            def fits(m: Move, starts: bool) -> bool:
                for r in roles:
                    cells = getattr(m, r)
                    at = cell is None or (cells[0] == cell if starts else cell in cells)
                    if at and (way is None or direction(cells) == way):
                        return True
                return False

            found = [m for m in legal if fits(m, True)] or [m for m in legal if fits(m, False)]
            return found
        if place is not None and 1 <= place <= len(legal):
            return [legal[place - 1]]
        return []

    @staticmethod
    def _best_op(move: Move, board: Sequence[int]) -> Move:
        """RULES TA-5: a sum that is also a product is played as the product (it scores more)."""
        values = [value_of(board, x) for x in (move.a, move.b, move.c)]
        if move.op == PLUS and values[0] and values[1] and values[0] * values[1] == values[2]:
            return Move(TIMES, move.a, move.b, move.c)
        return move

    def _declare(self, match: Match[Any, Any], seat: int) -> Intent:
        state: State = match.state
        if not self.game.config["physical"]:
            return Refuse([say("kissa.refused.declare_physical_only", priority=Priority.IMPORTANT, earcon="error", to=seat)])
        if state.phase != "play":
            return Refuse([say("kissa.refused.board_not_ready", priority=Priority.IMPORTANT, earcon="error", to=seat)])
        penalty = 2 * sum(token_value(d) for d in state.board if d != EMPTY)
        return Confirm(Declare(), say("kissa.confirm_declare", n=penalty, priority=Priority.MESSAGE, earcon="question", to=seat))

    # --- help from the finder ---------------------------------------------------------------------
    def _top(self, match: Match[Any, Any], seat: int) -> tuple[Any, Any, Intent | None]:
        """The finder and its best move now, or the answer saying why there is none."""
        state: State = match.state
        if state.phase != "play":
            return None, None, self._answer(seat, say("kissa.no_hint_now", priority=Priority.TEXT, to=seat))
        finder = self.game.finder(state.board)
        best = finder.best(1)
        if not best:
            return None, None, self._answer(seat, say("kissa.no_move", priority=Priority.TEXT, to=seat))
        return finder, best[0], None

    @staticmethod
    def _whole_move(finder: Any, move: Any, seat: int) -> Utterance:
        op, a, b, c, score = move
        nums = finder.numbers
        eq = equation_msg(op, [nums[x].value for x in (a, b, c)], [nums[x].cells for x in (a, b, c)])
        return say("kissa.hint_move", equation=eq, n=score, priority=Priority.TEXT, to=seat)

    def _hint(self, match: Match[Any, Any], seat: int) -> Intent:
        """Hints grow more precise when asked again before a move: a cell, a result, the move."""
        finder, move, none = self._top(match, seat)
        if none is not None:
            return none
        state: State = match.state
        moves_made, level = self.hints.get(seat, (-1, 0))
        level = level + 1 if moves_made == state.moves else 1
        self.hints[seat] = (state.moves, level)
        op, _a, _b, c, _score = move
        nums = finder.numbers
        if level == 1:
            utt = say("kissa.hint_cell", cell=narration.cell_name(nums[c].cells[0]), priority=Priority.TEXT, to=seat)
        elif level == 2:
            utt = say("kissa.hint_result", value=str(nums[c].value), op=Msg("kissa.op_times" if op == TIMES else "kissa.op_plus"), priority=Priority.TEXT, to=seat)
        else:
            utt = self._whole_move(finder, move, seat)
        return self._answer(seat, utt)

    def _best(self, match: Match[Any, Any], seat: int) -> Intent:
        finder, move, none = self._top(match, seat)
        if none is not None:
            return none
        return self._answer(seat, self._whole_move(finder, move, seat))

    def _count(self, match: Match[Any, Any], seat: int) -> Intent:
        state: State = match.state
        if state.phase != "play":
            return self._answer(seat, say("kissa.no_hint_now", priority=Priority.TEXT, to=seat))
        finder = self.game.finder(state.board)
        best = finder.best(1)
        n = finder.count()
        if not best:
            return self._answer(seat, say("kissa.no_move", priority=Priority.TEXT, to=seat))
        return self._answer(seat, say("kissa.move_count", n=n, best=best[0][4], priority=Priority.TEXT, to=seat))

    # --- readings ------------------------------------------------------------------------------
    def read_line(self, board: Sequence[int], cells: list[int], name: Msg, seat: int) -> Utterance:
        if not self.whole.get(seat):
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

    def read_cell(self, board: Sequence[int], cell: int, seat: int) -> Utterance:
        return say("kissa.cell_is", cell=narration.cell_name(cell), what=narration.digit_word(board[cell]), priority=Priority.TEXT, to=seat)

    def read_around(self, board: Sequence[int], cell: int, seat: int) -> Utterance:
        r0, c0 = divmod(cell, SIZE)
        items = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = r0 + dr, c0 + dc
                if (dr, dc) == (0, 0) or not (0 <= r < SIZE and 0 <= c < SIZE):
                    continue
                x = r * SIZE + c
                items.append(Msg("kissa.cell_short", cell=narration.cell_name(x), what=narration.digit_word(board[x])))
        return say("kissa.around", cell=narration.cell_name(cell), what=narration.digit_word(board[cell]), items=items, priority=Priority.TEXT, to=seat)

    def read_digit(self, board: Sequence[int], digit: int, seat: int) -> Utterance:
        where = [narration.cell_name(x) for x in range(SIZE * SIZE) if board[x] == digit]
        if not where:
            return say("kissa.digit_nowhere", digit=str(digit), priority=Priority.TEXT, to=seat)
        return say("kissa.digit_where", digit=str(digit), n=len(where), cells=where, priority=Priority.TEXT, to=seat)

    # --- speaking --------------------------------------------------------------------------------
    def narrate(self, event: Any, match: Match[Any, Any]) -> list[Utterance]:
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        state: State = match.state
        to = seat
        if state.phase == ENTRY:
            return [say("kissa.help_entry", priority=Priority.TEXT, to=to)]
        out = []
        if state.phase == "play" and seat == state.turn:
            out.append(say("kissa.help_move", priority=Priority.TEXT, to=to))
            if self.game.config["physical"]:
                out.append(say("kissa.help_declare", priority=Priority.TEXT, to=to))
        elif state.phase == "play":
            out.append(say("kissa.help_wait", player=Raw(match.players[state.turn]), priority=Priority.TEXT, to=to))
        out.append(say("kissa.help_read", priority=Priority.TEXT, to=to))
        return out

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        state: State = match.state
        scores = [Msg("kissa.player_score", player=Raw(name), n=state.scores[s]) for s, name in enumerate(match.players)]
        if state.phase == ENTRY:
            missing = [str(r + 1) for r in range(SIZE) if not state.rows[r]]
            return [say("kissa.status_entry", rows=missing, n=len(missing), priority=Priority.TEXT, to=seat)]
        if state.phase == OVER:
            return [say("kissa.status_over", scores=scores, priority=Priority.TEXT, to=seat)]
        return [
            say(
                "kissa.status",
                player=Raw(match.players[state.turn]),
                scores=scores,
                n=tokens_left(state.board),
                priority=Priority.TEXT,
                to=seat,
            )
        ]

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        d = dict(exc.detail)
        params: dict[str, Any] = {}
        if "role" in d:
            params["role"] = Msg(f"kissa.role.{d['role']}")
        if "cells" in d:
            params["cells"] = " ".join(d["cells"])
        for key in ("cell", "a", "b", "c", "expected", "row", "digits", "first", "n"):
            if key in d:
                params[key] = str(d[key]) if key in ("a", "b", "c", "expected") else d[key]
        if "rows" in d:
            params["rows"] = [str(r) for r in d["rows"]]
        if "op" in d:
            params["op"] = Msg("kissa.op_times" if d["op"] == TIMES else "kissa.op_plus")
        if "current" in d and d["current"] is not None:
            params["player"] = Raw(match.players[d["current"]])
        msg_id = f"kissa.refused.{exc.code}"
        return [Utterance((Msg(msg_id, **params),), Priority.IMPORTANT, "error", seat)]

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        state: State = match.state
        if state.phase == ENTRY:
            return "setup"
        if state.phase == OVER:
            return "scoring"
        return "turn"
