"""Written forms of 2kissa10 (docs/rules.md §7) and the spoken cell names.

* cells ``A1``…``J10``: column letter A–J from left to right, row 1–10 from top to bottom;
* a board as text: 10 lines of 10 characters, a digit or ``.`` for an empty cell;
* a number: the list of its cells in reading order (the order its digits are read: for a
  backward or diagonal number of the expert variant, from its first digit to its last);
* a move as JSON: ``{"op": "+" or "*", "operands": [[cells], [cells]], "result": [cells],
  "values": [a, b, c], "score": n}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
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
