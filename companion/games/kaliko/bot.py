"""Kaliko bots. They read only the board and their own hand.

* `greedy` - the highest-scoring play found by the exhaustive finder among plays of up to
  `max_tiles` tiles (4 by default, to answer in a fraction of a second; 7 is the whole
  search); with no scoring play it exchanges its whole hand (as much as the bag allows:
  a hand that fits nowhere is worth renewing), and passes when the bag is empty.
* `greedy_full` - the same over the whole search (plays of 1 to 7 tiles).
* `random` - the random-legal baseline: a uniformly random scoring play among those of up
  to 3 tiles, else the same exchange-or-pass rule.
"""

from __future__ import annotations

from typing import Any

from companion.core import Bot, Game, Rng

from .finder import all_plays, best_play
from .rules import Exchange, Kaliko, Pass, Play, State, packed_board
from .tiles import ORIENTED, cell_qr


def _as_play(found: Any) -> Play:
    return Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in found.placements)))


def fallback(state: State, seat: int) -> Exchange | Pass:
    """No scoring play: renew the hand (RULES K-7), or pass when the bag is empty (K-7b)."""
    hand = tuple(sorted(state.hands[seat]))
    if state.bag and hand:
        return Exchange(hand[: len(state.bag)])
    return Pass()


class GreedyBot(Bot):
    name = "greedy"
    max_tiles = 4

    def __init__(self, game: Game[Any, Any], seat: int, rng: Rng, max_tiles: int | None = None) -> None:
        super().__init__(game, seat, rng)
        if max_tiles is not None:
            self.max_tiles = max_tiles

    def choose(self, state: State) -> Any:
        assert isinstance(self.game, Kaliko)
        best = best_play(
            packed_board(state.board),
            list(state.hands[self.seat]),
            self.game.config["crossings_new_tiles_only"],
            self.game.config["double_main_only"],
            max_tiles=self.max_tiles,
        )
        if best is not None:
            return _as_play(best)
        return fallback(state, self.seat)


class RandomPlayBot(Bot):
    name = "random"

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
            return _as_play(self.rng.choice(found))
        return fallback(state, self.seat)


class FullGreedyBot(GreedyBot):
    """The best play over the whole 1-7 tile search (slower: about a second a turn)."""

    name = "greedy_full"
    max_tiles = 7


BOTS = {"greedy": GreedyBot, "greedy_full": FullGreedyBot, "random": RandomPlayBot}
