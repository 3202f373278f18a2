"""A tiny game used to test the core, the session and the journal without a real game.

Nim: a pile of stones, each turn take 1 to 3, whoever takes the last stone wins. Each
player also holds a secret lucky number dealt at set-up (to test hidden information).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.core import Event, Game, IllegalAction, Option, Outcome, Rng


@dataclass(frozen=True)
class SecretDealt(Event):
    type: ClassVar[str] = "secret_dealt"
    seat: int
    secret: int


@dataclass(frozen=True)
class StonesTaken(Event):
    type: ClassVar[str] = "stones_taken"
    seat: int
    n: int
    left: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    scores: list[int]
    winners: list[int]


@dataclass(frozen=True)
class Take:
    n: int


@dataclass(frozen=True)
class State:
    pile: int
    turn: int
    secrets: tuple[int, ...]
    winner: int | None = None


class Nim(Game[State, Take]):
    name = "nim"
    min_players = 2
    max_players = 4
    options = {"pile": Option(7)}

    def setup(self, n_players: int, rng: Rng) -> tuple[State, list[Event]]:
        secrets = tuple(1000 + rng.randrange(9000) for _ in range(n_players))
        events = [SecretDealt(seat=i, secret=s, to=(i,)) for i, s in enumerate(secrets)]
        return State(self.config["pile"], 0, secrets), events

    def current_player(self, state: State) -> int | None:
        return None if state.winner is not None else state.turn

    def legal_actions(self, state: State, player: int) -> list[Take]:
        if state.winner is not None or player != state.turn:
            return []
        return [Take(n) for n in (1, 2, 3) if n <= state.pile]

    def check(self, state: State, player: int, action: Take) -> None:
        if not 1 <= action.n <= 3:
            raise IllegalAction("bad_count", n=action.n)
        if action.n > state.pile:
            raise IllegalAction("too_many", n=action.n, pile=state.pile)

    def apply(self, state: State, player: int, action: Take, rng: Rng) -> tuple[State, list[Event]]:
        pile = state.pile - action.n
        events = [StonesTaken(seat=player, n=action.n, left=pile)]
        if pile == 0:
            events.append(GameEnded(scores=[int(i == player) for i in range(len(state.secrets))], winners=[player]))
            return State(0, player, state.secrets, player), events
        return State(pile, (player + 1) % len(state.secrets), state.secrets), events

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def outcome(self, state: State) -> Outcome:
        n = len(state.secrets)
        if state.winner is None:
            return Outcome(tuple(0 for _ in range(n)), ())
        return Outcome(tuple(int(i == state.winner) for i in range(n)), (state.winner,))

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"pile": state.pile, "turn": state.turn}
        if player is not None:
            v["my_secret"] = state.secrets[player]
        return v

    def hidden_holdings(self, state: State, player: int) -> list[str]:
        return [str(state.secrets[player])]

    def state_to_json(self, state: State) -> Any:
        return {"pile": state.pile, "turn": state.turn, "secrets": list(state.secrets), "winner": state.winner}

    def state_from_json(self, data: Any) -> State:
        return State(data["pile"], data["turn"], tuple(data["secrets"]), data["winner"])

    def action_to_json(self, action: Take) -> Any:
        return {"take": action.n}

    def action_from_json(self, data: Any) -> Take:
        return Take(int(data["take"]))
