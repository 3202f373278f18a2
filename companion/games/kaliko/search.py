"""The Kaliko searches a player waits for (a hint, the best play, `coups`): anytime, with a
deadline on the wall clock (issue 26: the first word within half a second).

Bots never come here: they are bounded by a work budget (`bot.BUDGET`), so that a seeded
game gives the same moves on any machine, loaded or not.
"""

from __future__ import annotations

import time

from .finder import Found, count_plays, search_best, search_plays

DEADLINE = 0.4  # seconds; `companion play --deadline SECONDS` sets it


def best_within(board: dict[int, int], hand: list[int], crossings_new_tiles_only: bool,
                double_main_only: bool) -> tuple[Found | None, bool]:
    """The best play found within DEADLINE, and whether it is proven best."""
    return search_best(board, hand, crossings_new_tiles_only, double_main_only,
                       deadline=time.monotonic() + DEADLINE, clock=time.monotonic)


def plays_within(board: dict[int, int], hand: list[int], crossings_new_tiles_only: bool, double_main_only: bool,
                 max_tiles: int = 7) -> tuple[list[Found], bool]:
    """The legal plays found within DEADLINE (best first), and whether that is every one."""
    return search_plays(board, hand, crossings_new_tiles_only, double_main_only, max_tiles=max_tiles,
                        deadline=time.monotonic() + DEADLINE, clock=time.monotonic)


def count_within(board: dict[int, int], hand: list[int], crossings_new_tiles_only: bool,
                 double_main_only: bool) -> tuple[int, int, bool]:
    """How many legal plays were found within DEADLINE, the best score, whether that is all."""
    return count_plays(board, hand, crossings_new_tiles_only, double_main_only,
                       deadline=time.monotonic() + DEADLINE, clock=time.monotonic)
