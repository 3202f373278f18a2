"""Written forms of 2kissa10 (docs/rules.md §7) and the spoken cell names.

* cells ``A1``…``J10``: column letter A–J from left to right, row 1–10 from top to bottom;
* a board as text: 10 lines of 10 characters, a digit or ``.`` for an empty cell;
* a number: the list of its cells in reading order (the order its digits are read: for a
  backward or diagonal number of the expert variant, from its first digit to its last);
* a move as JSON: ``{"op": "+" or "*", "operands": [[cells], [cells]], "result": [cells],
  "values": [a, b, c], "score": n}``.

A typed line may hold written forms the phrase tables cannot (`spelled`): the signs
(``10+29=39``, ``10x29``) and a row typed with dots (``53.65.2301``). They are written out in the
tables' words, and the one grammar reads them as the same commands as the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .finder import COLUMNS, EMPTY, SIZE, cell_name

__all__ = [
    "BoardError",
    "cell_name",
    "parse_cell",
    "parse_board",
    "format_board",
    "board_rows",
    "board_from_rows",
    "move_json",
    "row_text",
    "spelled",
    "unreadable",
]

_CELL = re.compile(r"^\s*([A-Ja-j])\s*(10|[1-9])\s*$")


class BoardError(ValueError):
    """A board text that is not 10 lines of 10 digits or dots; `line` is 1-based."""

    def __init__(self, line: int, reason: str, text: str = "") -> None:
        super().__init__(f"line {line}: {reason}" + (f": {text!r}" if text else ""))
        self.line = line
        self.reason = reason
        self.text = text


def parse_cell(text: str) -> int:
    """``"E5"`` -> 44 (row 5, column E); ValueError when it is no cell of the board."""
    m = _CELL.match(text)
    if not m:
        raise ValueError(f"not a cell: {text!r}")
    return (int(m.group(2)) - 1) * SIZE + COLUMNS.index(m.group(1).upper())


def row_text(board: Sequence[int], row: int) -> str:
    return "".join("." if d == EMPTY else str(d) for d in board[row * SIZE : (row + 1) * SIZE])


def board_rows(board: Sequence[int]) -> list[str]:
    return [row_text(board, r) for r in range(SIZE)]


def format_board(board: Sequence[int]) -> str:
    return "\n".join(board_rows(board)) + "\n"


def parse_row(text: str) -> list[int]:
    """Ten digits or dots (spaces ignored); ValueError with the reason otherwise."""
    chars = [ch for ch in text if not ch.isspace()]
    bad = [ch for ch in chars if ch != "." and not ch.isdigit()]
    if bad:
        raise ValueError(f"unexpected character {bad[0]!r} (only digits 0-9 and '.' for an empty cell)")
    if len(chars) != SIZE:
        raise ValueError(f"{len(chars)} cells instead of {SIZE}")
    return [EMPTY if ch == "." else int(ch) for ch in chars]


def board_from_rows(rows: Iterable[str]) -> tuple[int, ...]:
    cells: list[int] = []
    for row in rows:
        cells.extend(parse_row(row))
    if len(cells) != SIZE * SIZE:
        raise ValueError(f"{len(cells) // SIZE} rows instead of {SIZE}")
    return tuple(cells)


def parse_board(text: str) -> tuple[int, ...]:
    """A board file: 10 lines of 10 cells. Blank lines at the end and lines starting with
    ``#`` are ignored; a bad line raises BoardError naming it (1-based, as in an editor)."""
    rows: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if not stripped:
            if rows and len(rows) < SIZE:
                raise BoardError(number, "blank line inside the board")
            continue
        if len(rows) == SIZE:
            raise BoardError(number, f"more than {SIZE} rows", stripped)
        rows.append((number, stripped))
    cells: list[int] = []
    for number, line in rows:
        try:
            cells.extend(parse_row(line))
        except ValueError as exc:
            raise BoardError(number, str(exc), line) from exc
    if len(rows) < SIZE:
        last = rows[-1][0] + 1 if rows else 1
        raise BoardError(last, f"only {len(rows)} rows, {SIZE} needed")
    return tuple(cells)


def move_json(op: str, a: Sequence[int], b: Sequence[int], c: Sequence[int], values: Sequence[int], score: int) -> dict[str, Any]:
    return {
        "op": op,
        "operands": [[cell_name(x) for x in a], [cell_name(x) for x in b]],
        "result": [cell_name(x) for x in c],
        "values": [int(v) for v in values],
        "score": int(score),
    }


_ROW_RUN = re.compile(r"(?<![^\s:])[0-9.][0-9.\s]*")  # digits and dots, after a space or « : »
_TIMES_X = re.compile(r"(?<=\d)\s*[xX]\s*(?=\d)")


def spelled(text: str, signs: Mapping[str, str], empty: str | None = None) -> str:
    """The written forms of a line in words: each sign of `signs` (sign -> a word the tables
    give it: "10+29=39" -> "10 plus 29 egale 39"), an "x" between two digits ("10x29"), and,
    while a board is entered (`empty`: the word for an empty cell), a typed '.' in a run of
    digits and dots ("53.65.2301", « ligne 5 : .......... »); a final '.' ending a sentence
    after ten cells is no cell."""
    text = _TIMES_X.sub(" x ", text)
    for sign in sorted(signs, key=len, reverse=True):
        text = text.replace(sign, f" {signs[sign]} ")
    if empty is None or "." not in text:
        return text
    body = re.sub(r"^\s*\w+\s+\w+\s*:", "", text)  # after « ligne 3 : », if any
    if len(re.findall(r"[0-9.]", body)) > SIZE:
        text = re.sub(r"\.\s*$", "", text.strip())
    return _ROW_RUN.sub(lambda m: m.group(0).replace(".", f" {empty} "), text)


def unreadable(text: str) -> bool:
    """A number no board holds (more than 30 digits: int() refuses past 4300) or a digit-like
    sign that is not a digit ("²", which folding would make a 2): not understood, never a
    crash (issue #16)."""
    return bool(re.search(r"\d{31,}", text)) or any(c.isdigit() and not c.isdecimal() for c in text)
