"""A match: one game being played, its guards in one fixed order, its history and undo.

Guard order (boardgame.io's reducer): 1. the game is over, 2. it is not this seat's
turn, 3. the action is illegal (the game's own reason code). Nothing changes when a guard
refuses. Every accepted action is kept with the events it caused, so the match can be
undone, replayed from its seed, and narrated from its events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .events import Event
from .game import Game, IllegalAction, Outcome
from .rng import Rng

S = TypeVar("S")
A = TypeVar("A")


@dataclass
class Step(Generic[S, A]):
    """One accepted action: who did what, what it caused, and what stood before it."""

    seat: int
    action: A
    events: list[Event]
    before: S
    rng_before: object


@dataclass
class Match(Generic[S, A]):
    game: Game[S, A]
    players: list[str]
    seed: int
    state: S = field(init=False)
    setup_events: list[Event] = field(init=False)
    history: list[Step[S, A]] = field(init=False, default_factory=list)
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.players)
        if not self.game.min_players <= n <= self.game.max_players:
            raise IllegalAction(
                "player_count", count=n, min=self.game.min_players, max=self.game.max_players
            )
        self.rng = Rng(self.seed)
        self.state, self.setup_events = self.game.setup(n, self.rng)
        self.history = []

    # --- reading ---------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        return self.game.current_player(self.state)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def outcome(self) -> Outcome:
        return self.game.outcome(self.state)

    def legal(self, seat: int) -> list[A]:
        if self.over or self.current != seat:
            return []
        return self.game.legal_actions(self.state, seat)

    def events(self) -> list[Event]:
        """Every event since the set-up, in order."""
        out = list(self.setup_events)
        for step in self.history:
            out.extend(step.events)
        return out

    # --- acting ------------------------------------------------------------------------
    def check(self, seat: int, action: A) -> None:
        """Raise IllegalAction when `seat` may not play `action` now; change nothing."""
        if self.over:
            raise IllegalAction("game_over")
        if self.current != seat:
            raise IllegalAction("not_your_turn", current=self.current)
        self.game.check(self.state, seat, action)

    def play(self, seat: int, action: A) -> list[Event]:
        """Apply `action` for `seat` after the guards; return the events it caused."""
        self.check(seat, action)
        rng_before = self.rng.getstate()
        new_state, events = self.game.apply(self.state, seat, action, self.rng)
        self.history.append(Step(seat, action, list(events), self.state, rng_before))
        self.state = new_state
        return list(events)

    def can_undo(self) -> bool:
        return bool(self.history)

    def undo(self) -> Step[S, A]:
        """Take back the last accepted action; the state and the dice go back with it."""
        if not self.history:
            raise IllegalAction("nothing_to_undo")
        step = self.history.pop()
        self.state = step.before
        self.rng.setstate(step.rng_before)
        return step

    # --- serialisation -------------------------------------------------------------------
    def actions_json(self) -> list[dict[str, Any]]:
        return [
            {"seat": s.seat, "action": self.game.action_to_json(s.action)} for s in self.history
        ]

    def replay(self, actions: list[dict[str, Any]]) -> None:
        """Re-apply journaled actions from the set-up (resume); refuses a bad one."""
        for i, rec in enumerate(actions):
            try:
                self.play(int(rec["seat"]), self.game.decode_action(rec["action"]))
            except IllegalAction as exc:
                raise IllegalAction("replay_failed", index=i, reason=exc.code) from exc
