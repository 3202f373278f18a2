"""2kissa10 bots. Pure: their only chance is the Rng they are given.

* ``greedy``: the move that scores most now (ties broken at random);
* ``prudent``: among the best few moves, the one that leaves the least to the next player:
  its score minus the next player's best reply (a reply that does not exist means the next
  player is stuck and pays the penalty of T-9, which counts for us).
"""

from __future__ import annotations

from typing import Any

from companion.core import Bot

from .finder import EMPTY, MoveFinder, move_score, token_value
from .rules import Kissa, Move, State


def _top(finder: MoveFinder, n: int) -> list[tuple[str, int, int, int, int]]:
    return finder.best(n)


class GreedyBot(Bot):
    name = "greedy"
    game: Kissa

    def choose(self, state: State) -> Any:
        if state.phase != "play":
            return self.rng.choice(self.game.legal_actions(state, self.seat))
        finder = self.game.finder(state.board)
        top = _top(finder, 8)
        best = top[0][4]
        op, a, b, c, _ = self.rng.choice([m for m in top if m[4] == best])
        nums = finder.numbers
        return Move(op, nums[a].cells, nums[b].cells, nums[c].cells)


class PrudentBot(Bot):
    """One move of lookahead: my score now minus what the next player can take after it."""

    name = "prudent"
    game: Kissa
    width = 6

    def choose(self, state: State) -> Any:
        if state.phase != "play":
            return self.rng.choice(self.game.legal_actions(state, self.seat))
        finder = self.game.finder(state.board)
        nums = finder.numbers
        best_value: int | None = None
        choices: list[Move] = []
        for op, a, b, c, score in _top(finder, self.width):
            board = list(state.board)
            for i in (a, b, c):
                for x in nums[i].cells:
                    board[x] = EMPTY
            value = score - self._reply(board)
            move = Move(op, nums[a].cells, nums[b].cells, nums[c].cells)
            if best_value is None or value > best_value:
                best_value, choices = value, [move]
            elif value == best_value:
                choices.append(move)
        return self.rng.choice(choices)

    def _reply(self, board: list[int]) -> int:
        """What the next player gains from this board (negative when stuck: T-9)."""
        left = [d for d in board if d != EMPTY]
        if not left:
            return 0
        nxt = self.game.finder(board)
        best = nxt.best(1)
        if not best:
            return -2 * sum(token_value(d) for d in left)
        return best[0][4]


BOTS = {"greedy": GreedyBot, "prudent": PrudentBot}

__all__ = ["BOTS", "GreedyBot", "PrudentBot", "move_score"]
