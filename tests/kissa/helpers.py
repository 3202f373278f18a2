"""Boards for the 2kissa10 tests, written as docs/rules.md §7 text."""

from __future__ import annotations

import random

from companion.games.kissa.notation import parse_board, parse_cell


def board_with(**cells: int) -> tuple[int, ...]:
    """An otherwise empty board: board_with(A1=1, B1=0)."""
    b = [-1] * 100
    for name, digit in cells.items():
        b[parse_cell(name)] = digit
    return tuple(b)


def cells(*names: str) -> tuple[int, ...]:
    return tuple(parse_cell(n) for n in names)


def random_board(seed: int, empty: int = 0) -> tuple[int, ...]:
    r = random.Random(seed)
    b = [d for d in range(10) for _ in range(10)]
    r.shuffle(b)
    for i in r.sample(range(100), empty):
        b[i] = -1
    return tuple(b)


def text_board(text: str) -> tuple[int, ...]:
    return parse_board(text)
