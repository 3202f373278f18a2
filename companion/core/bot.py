"""Bots: players the companion seats itself. Pure: their only chance is the Rng they are given."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from .events import Event
from .game import Game
from .rng import Rng


class Bot(ABC):
    """A seat played by the program.

    A bot of a game with hidden information reads only `game.view(state, seat)` and the
    events it is shown through `observe` (which the session filters with
    `Event.visible_to(seat)`); it must never read another seat's holdings from `state`.
    """

    name: str = "bot"

    def __init__(self, game: Game[Any, Any], seat: int, rng: Rng) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng

    def observe(self, events: list[Event]) -> None:  # noqa: B027 - optional hook, most bots forget
        """Events this seat may know of, in order (for bots that remember)."""

    @abstractmethod
    def choose(self, state: Any) -> Any:
        """The action to play now; called only when it is this seat's turn."""


class RandomBot(Bot):
    """Plays a uniformly random legal action: the baseline every benchmark compares to."""

    name = "random"

    def choose(self, state: Any) -> Any:
        return self.rng.choice(self.game.legal_actions(state, self.seat))
