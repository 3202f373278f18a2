"""The shared game interface: state, actions, events, outcome, per-player views.

Pure: nothing here does I/O, reads a clock, draws its own randomness or translates text.
A game is a set of functions over plain, JSON-serialisable states (OpenSpiel's State,
boardgame.io's reducer). Randomness comes in through the `Rng` the match passes to
`setup` and `apply`, so a game replays exactly from its seed and its actions.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .events import Event
from .rng import Rng

S = TypeVar("S")  # a game's state type
A = TypeVar("A")  # a game's action type

@dataclass(frozen=True)
class Outcome:
    """The end of a game: each seat's score and the winning seats (ties shared)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class ActionDecodeError(ValueError):
    """A saved move that is not an action of this game (unknown, from a newer version, edited
    by hand): the one error a game's action codec raises, which resume catches."""


class IllegalAction(Exception):
    """A refused action, with a machine-readable reason code and the facts behind it.

    Codes common to every game: `game_over`, `not_your_turn`, `not_legal`.
    A game adds its own (`colour_mismatch`, `no_such_token`, ...).
    """

    def __init__(self, code: str, **detail: Any) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"IllegalAction({self.code!r}, {self.detail!r})"


@dataclass(frozen=True)
class Option:
    """One variant flag of a game (docs/rules.md names them), with its default and a help id."""

    default: Any
    choices: tuple[Any, ...] | None = None
    help: str = ""

    def coerce(self, raw: Any) -> Any:
        """Turn a command-line string into the option's type; ValueError when it does not fit."""
        value = raw
        if isinstance(raw, str):
            if isinstance(self.default, bool):
                low = raw.strip().lower()
                if low in ("1", "true", "yes", "on"):  # notation; words of a language: the CLI (tables)
                    value = True
                elif low in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise ValueError(raw)
            elif isinstance(self.default, int) and not isinstance(self.default, bool):
                value = int(raw)
            elif self.default is None and raw.strip().lstrip("-").isdigit():
                value = int(raw)
        if self.choices is not None and value not in self.choices:
            raise ValueError(raw)
        return value


class Game(ABC, Generic[S, A]):
    """What every game provides. `legal_actions` is the single source of legality.

    States and actions must survive `state_to_json`/`state_from_json` and
    `action_to_json`/`action_from_json` round trips. `apply` never mutates its input.
    """

    name: str = ""
    min_players: int = 2
    max_players: int = 4
    options: dict[str, Option] = {}

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        self.config: dict[str, Any] = {k: o.default for k, o in self.options.items()}
        for key, raw in options.items():
            self.config[key] = self.options[key].coerce(raw)

    # --- set-up and turn order -------------------------------------------------------
    @abstractmethod
    def setup(self, n_players: int, rng: Rng) -> tuple[S, list[Event]]:
        """The state at the start of a game, and the events of the set-up (deals...)."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat to act, or None when the game is over."""

    # --- legality and moves -----------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: S, player: int) -> list[A]:
        """Every action `player` may take now (empty when it is not their turn)."""

    def check(self, state: S, player: int, action: A) -> None:
        """Raise IllegalAction with a precise reason when `action` is not legal.

        The default asks `legal_actions`; games override it to give precise reasons, but
        must agree with `legal_actions` (the conformance suite checks this).
        """
        if action not in self.legal_actions(state, player):
            raise IllegalAction("not_legal")

    @abstractmethod
    def apply(self, state: S, player: int, action: A, rng: Rng) -> tuple[S, list[Event]]:
        """The new state and the events of `action`; `action` has passed `check`."""

    # --- end ----------------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Scores and winners; meaningful when the game is over (partial scores before)."""

    def scores(self, state: S) -> tuple[int, ...]:
        return self.outcome(state).scores

    # --- information ----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, Any]:
        """What `player` may know (None: a spectator who sees only public things), as JSON."""

    def hidden_holdings(self, state: S, player: int) -> list[str]:
        """Strings naming what only `player` may know (for the no-leak conformance check).

        Each string must be specific enough not to occur by chance in other views
        (e.g. a token id). Games with perfect information return [].
        """
        return []

    # --- serialisation -----------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: S) -> Any: ...

    @abstractmethod
    def state_from_json(self, data: Any) -> S: ...

    @abstractmethod
    def action_to_json(self, action: A) -> Any: ...

    @abstractmethod
    def action_from_json(self, data: Any) -> A:
        """The action of a saved move; ActionDecodeError (or any error: `decode_action` turns it
        into one) when `data` is not one."""

    # --- the action codec: the one place a saved move is read -----------------------------------
    def encode_action(self, action: A) -> Any:
        """An action's saved JSON form (the journal, `--json`, the reader's records)."""
        return self.action_to_json(action)

    def decode_action(self, data: Any) -> A:
        """The action for a saved move, or ActionDecodeError — never another error, never a
        different move: the action must encode back to exactly `data` (issue #23)."""
        try:
            action = self.action_from_json(data)
            again = self.action_to_json(action)
        except ActionDecodeError:
            raise
        except (ValueError, LookupError, TypeError, AttributeError, ArithmeticError, RecursionError) as exc:
            raise ActionDecodeError(f"{type(exc).__name__}: {exc}"[:80]) from None
        if _canonical(again) != _canonical(data):
            raise ActionDecodeError("not canonical")
        return action


def _canonical(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise ActionDecodeError(f"not JSON: {type(exc).__name__}") from None
