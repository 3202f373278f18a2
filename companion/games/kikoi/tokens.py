"""The 28 tokens of Les 5 KIKOI and their written ids (docs/rules.md §3.1 and §7).

A token is an int: white tokens are `kikoi * 5 + moment` (0-24), the red ones 25-27.
Written ids: `kigliss-sleep` for a white token, `kikonk`, `kitourn`, `kipirat` for the red.
"""

from __future__ import annotations

from collections.abc import Iterable

# RULES §7: KIKOI ids, board rows top to bottom; moments in the order house, eat, bike, forest, sleep.
KIKOI = ("kimouss", "kigratt", "kigliss", "kiboss", "kiboucle")
MOMENTS = ("house", "eat", "bike", "forest", "sleep")
RED = ("kikonk", "kitourn", "kipirat")

N_WHITE = 25
KIKONK, KITOURN, KIPIRAT = 25, 26, 27
ALL_TOKENS = tuple(range(28))
WHITE = tuple(range(N_WHITE))


def kikoi_of(token: int) -> int:
    return token // 5


def moment_of(token: int) -> int:
    return token % 5


def white(kikoi: int, moment: int) -> int:
    return kikoi * 5 + moment


def is_white(token: int) -> bool:
    return 0 <= token < N_WHITE


def token_id(token: int) -> str:
    """The written id of a token (RULES §7): `kigliss-sleep`, `kikonk`."""
    if is_white(token):
        return f"{KIKOI[token // 5]}-{MOMENTS[token % 5]}"
    return RED[token - N_WHITE]


_BY_ID = {token_id(t): t for t in ALL_TOKENS}


def token_from_id(text: str) -> int:
    """The token of a written id; KeyError when it is none."""
    return _BY_ID[text.strip().lower()]


def row_counts(board: Iterable[int]) -> list[int]:
    """How many tokens each KIKOI row of a board holds."""
    counts = [0] * 5
    for t in board:
        if t < N_WHITE:
            counts[t // 5] += 1
    return counts


def completed(board: Iterable[int]) -> list[int]:
    """The KIKOI whose day is complete on this board (all five moments, RULES KI-8)."""
    return [k for k, c in enumerate(row_counts(board)) if c == 5]
