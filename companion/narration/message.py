"""Speech as data: what to say, as message ids with parameters, rendered at the last moment.

An `Utterance` is what one output says at once: message parts (`Msg`), pauses and spelled
parts, with a priority (speech-dispatcher's model), an optional earcon played before it,
and who may hear it (None: the whole table; a seat: that player alone, on their private
channel where they have one).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any


class Priority(IntEnum):
    """speech-dispatcher's priorities. Lower value = more important.

    IMPORTANT: errors, the end of a game; never cut, said before anything queued.
    MESSAGE: the events of the game; never cut by new input, queued in order.
    TEXT: answers to queries, help, readings; cut by new input.
    NOTIFICATION: chatter; dropped when anything else is to be said.
    """

    IMPORTANT = 1
    MESSAGE = 2
    TEXT = 3
    NOTIFICATION = 4


class Verbosity(IntEnum):
    TERSE = 0
    NORMAL = 1
    VERBOSE = 2

    @classmethod
    def parse(cls, word: str) -> Verbosity:
        from companion.core.text import fold

        key = fold(word)
        for v, names in _VERBOSITY_NAMES.items():
            if key in names:
                return v
        raise ValueError(word)


_VERBOSITY_NAMES = {
    Verbosity.TERSE: ("terse", "bref", "breve", "court", "t"),
    Verbosity.NORMAL: ("normal", "normale", "n"),
    Verbosity.VERBOSE: ("verbose", "detaille", "detaillee", "bavard", "v"),
}


@dataclass(frozen=True)
class Msg:
    """One message of a catalog: `id` like "kissa.move_played", with named parameters.

    A parameter may itself be a Msg (a token's name) or a list of Msgs/strings (joined as
    a spoken list). A message with plural forms takes its count from the parameter `n`.
    """

    id: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, id: str, **params: Any) -> None:  # noqa: A002 - the message id
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "params", params)

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


@dataclass(frozen=True)
class Pause:
    ms: int = 300


@dataclass(frozen=True)
class Spell:
    """Text to be said character by character (a cell name, a code)."""

    text: str


@dataclass(frozen=True)
class Raw:
    """Text that is not translated (a player's name, a sentence typed for `say`)."""

    text: str


Part = Msg | Pause | Spell | Raw


@dataclass(frozen=True)
class Utterance:
    parts: tuple[Part, ...]
    priority: Priority = Priority.MESSAGE
    earcon: str | None = None
    to: int | None = None  # None: the table; a seat: that player only
    # The least verbosity that says it (#29): a line the terse profile need not hear because
    # the next line says it too (« Paul. » before « Paul demande … ») is NORMAL; terse plays
    # its earcon only.
    least: Verbosity = Verbosity.TERSE
    # What only `to` may know, said outside the game's private events (a refusal's reason,
    # a help's example drawn from their holdings): the session says it to them alone, or not
    # at all when they have no channel of their own (DESIGN "Secrets stay with their owner").
    secret: bool = False
    # The public stand-in of the secret utterances beside it: said to `to` only when those
    # are withheld (« Tu ne peux pas demander celui-là. » instead of the reason).
    stand_in: bool = False

    @staticmethod
    def of(
        *parts: Part | str,
        priority: Priority = Priority.MESSAGE,
        earcon: str | None = None,
        to: int | None = None,
    ) -> Utterance:
        conv = tuple(Msg(p) if isinstance(p, str) else p for p in parts)
        return Utterance(conv, priority, earcon, to)

    @property
    def private(self) -> bool:
        return self.to is not None


def secret(utt: Utterance) -> Utterance:
    """`utt` as a secret of its listener (see `Utterance.secret`)."""
    return replace(utt, secret=True)


def stand_in(utt: Utterance) -> Utterance:
    """`utt` as the public stand-in of the secrets said with it (see `Utterance.stand_in`)."""
    return replace(utt, stand_in=True)


def say(
    msg_id: str,
    priority: Priority = Priority.MESSAGE,
    earcon: str | None = None,
    to: int | None = None,
    least: Verbosity = Verbosity.TERSE,
    **params: Any,
) -> Utterance:
    """Shorthand: one message as one utterance."""
    return Utterance((Msg(msg_id, **params),), priority, earcon, to, least=least)
