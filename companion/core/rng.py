"""Seeded randomness: the only source of chance a game may use, passed in by the match."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """A seeded generator with the few draws games need. Same seed, same game."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._r = random.Random(seed)

    def randrange(self, n: int) -> int:
        return self._r.randrange(n)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._r.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._r.shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._r.sample(list(items), k)

    def random(self) -> float:
        return self._r.random()

    def fork(self, salt: int) -> Rng:
        """An independent stream (a bot's own randomness) derived from this seed."""
        return Rng((self.seed * 1_000_003 + salt) & 0xFFFFFFFF)

    def getstate(self) -> object:
        return self._r.getstate()

    def setstate(self, state: object) -> None:
        self._r.setstate(state)  # type: ignore[arg-type]
