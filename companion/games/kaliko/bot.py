"""Kaliko bots. They read only the board and their own hand.

* `greedy` - the highest-scoring play found by the exhaustive finder among plays of up to
  `max_tiles` tiles (4 by default, to answer in a fraction of a second; 7 is the whole
  search); with no scoring play it exchanges its whole hand (as much as the bag allows:
  a hand that fits nowhere is worth renewing), and passes when the bag is empty or after
  three fruitless exchanges in a row.
* `greedy_full` - the same over the whole search (plays of 1 to 7 tiles).
* Greedy bots are bounded by a work budget (`BUDGET` nodes of the walk, about 0.4 s on the
  reference 2-core machine): past it the best play found so far is played, the same on any
  machine and load, so seeded games stay identical (issue 26).
* `random` - the random-legal baseline: a uniformly random scoring play among those of up
  to 3 tiles, else the same exchange-or-pass rule.
"""

from __future__ import annotations

from typing import Any

from companion.core import Bot, Game, Rng

from .finder import all_plays, search_best
from .rules import Exchange, Kaliko, Pass, Play, State, packed_board
from .tiles import ORIENTED, cell_qr


def _as_play(found: Any) -> Play:
    return Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in found.placements)))


# Nodes of the finder's walk per move: ~0.3 s at 175k nodes/s (bench/kaliko_best.py, 2026-12-02;
# it was 140k before issue 26's faster scoring). Kept at 50,000 although the walk got faster:
# the walk and its node count did not change, so the same budget plays the same moves (goldens).
BUDGET = 50_000
STUCK_LIMIT = 3  # exchanges in a row without a scoring play before the bot passes


def fallback(state: State, seat: int, stuck: int) -> Exchange | Pass:
    """No scoring play: renew the hand (RULES K-7), or pass when the bag is empty (K-7b)
    or after STUCK_LIMIT fruitless exchanges in a row (the pattern may have no place left
    for anything: passing lets the game end by K-21 instead of exchanging for ever)."""
    hand = tuple(sorted(state.hands[seat]))
    if state.bag and hand and stuck < STUCK_LIMIT:
        return Exchange(hand[: len(state.bag)])
    return Pass()


class GreedyBot(Bot):
    name = "greedy"
    max_tiles = 4
    budget: int | None = BUDGET
    stuck = 0  # turns in a row without a scoring play

    def __init__(self, game: Game[Any, Any], seat: int, rng: Rng, max_tiles: int | None = None) -> None:
        super().__init__(game, seat, rng)
        if max_tiles is not None:
            self.max_tiles = max_tiles

    def choose(self, state: State) -> Any:
        assert isinstance(self.game, Kaliko)
        best, _proven = search_best(
            packed_board(state.board),
            list(state.hands[self.seat]),
            self.game.config["crossings_new_tiles_only"],
            self.game.config["double_main_only"],
            max_tiles=self.max_tiles,
            budget=self.budget,
        )
        if best is not None:
            self.stuck = 0
            return _as_play(best)
        self.stuck += 1
        return fallback(state, self.seat, self.stuck - 1)


class RandomPlayBot(Bot):
    name = "random"
    stuck = 0

    def choose(self, state: State) -> Any:
        assert isinstance(self.game, Kaliko)
        found = all_plays(
            packed_board(state.board),
            list(state.hands[self.seat]),
            self.game.config["crossings_new_tiles_only"],
            self.game.config["double_main_only"],
            max_tiles=3,
        )
        if found:
            self.stuck = 0
            return _as_play(self.rng.choice(found))
        self.stuck += 1
        return fallback(state, self.seat, self.stuck - 1)


class FullGreedyBot(GreedyBot):
    """The best play over the whole 1-7 tile search, within the same work budget."""

    name = "greedy_full"
    max_tiles = 7


BOTS = {"greedy": GreedyBot, "greedy_full": FullGreedyBot, "random": RandomPlayBot}
