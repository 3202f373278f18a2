"""The session core's public seam for extensions (issue #23).

An extension is something the table has besides the game — today the token reader
(`companion.inputs.reader.play.ReaderPlay`). It is handed to the core with
`SessionCore.extend(extension)`; the core then calls `extension.attach(seam)` once, and from
then on `extension.device(item)` for each `Device` input the core does not take itself and
`extension.other_line(seat)` for each line of words no extension answered. It runs in the
loop's thread, inside `SessionCore.handle`, and does no I/O.

What it may see and do is the `Seam` alone: read the match and the seats, say utterances
to a listener, play an action for a seat, run a shared word for a seat, register the lines
it answers and say what the line in hand was for the log. It never touches the core's
outputs or private methods, and the core imports no extension: the session depends on
these two protocols only (no `Any` hides a call up into an input).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from companion.core import Match, fold
from companion.games.base import GameUI
from companion.narration import Utterance
from companion.session.inbox import Device

# A registered line's handler: called with the seat speaking; True when it answered the line
# (False: the core reads it as usual).
LineHandler = Callable[[int | None], bool]


class Seam(Protocol):
    """What the core offers an extension (`SessionCore.seam`)."""

    @property
    def game_name(self) -> str: ...

    @property
    def match(self) -> Match[Any, Any]:
        """The match, to read (a change goes through `play`)."""
        ...

    @property
    def ui(self) -> GameUI: ...

    @property
    def humans(self) -> list[int]: ...

    def seat_name(self, seat: int) -> str: ...

    def is_bot(self, seat: int) -> bool: ...

    def hears_privately(self, seat: int) -> bool:
        """Whether a private line for `seat` will be said (its own channel, or the only human)."""
        ...

    def answers(self, phrases: Iterable[str], handler: LineHandler) -> None:
        """Register lines this extension answers (compared folded, without ?!. at the ends),
        tried before any other reading of a line."""
        ...

    def say(self, utts: list[Utterance], *, private: bool = False, advise: bool = False,
            remember: bool = True) -> None:
        """Say each utterance to its listener (`Utterance.to`); `private`: that player's
        secrets, routed as the core routes them; `remember`: « répète » says them again."""
        ...

    def play(self, seat: int, action: Any, *, source: str, text: str) -> None:
        """Play `action` for `seat` as if typed (journal, narration, the next turn, or the
        refusal); the log tells it came from `source` as `text`."""
        ...

    def shared(self, word: str, seat: int | None) -> None:
        """A shared word (`companion.session.commands`: "repeat", "undo"...) for `seat`."""
        ...

    def taken(self, outcome: str, command: str | None) -> None:
        """What the line in hand was, for the log: its outcome ("answer", "refuse",
        "shared"...) and command."""
        ...


class Extension(Protocol):
    """What the core calls on an extension."""

    def attach(self, seam: Seam) -> None:
        """Once, when the core takes it: keep the seam, register the lines answered."""
        ...

    def device(self, item: Device) -> None:
        """A `Device` input the core does not take itself (another device's: ignore it)."""
        ...

    def other_line(self, seat: int | None) -> None:
        """A line of `seat` that no extension answered (it ends a mode of this extension)."""
        ...


def phrase_key(text: str) -> str:
    """How a registered line and a line heard are compared."""
    return fold(text).strip(" ?!.")


__all__ = ["Extension", "LineHandler", "Seam", "phrase_key"]
