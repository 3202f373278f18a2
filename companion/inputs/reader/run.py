"""Readers of a game: one `TokenReader` per `--reader PORT[=SEAT]`, each posting its events to
the inbox as `Device(event, "reader:PORT")`. The game starts whether or not the port exists: the
reader adapter keeps trying, and the core says when a reader arrives, leaves or comes back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core import fold

if TYPE_CHECKING:
    from companion.session.core import SessionCore
    from companion.session.extension import Extension
    from companion.session.inbox import Inbox


class ReaderSpecError(ValueError):
    """A `--reader PORT=SEAT` whose seat names no player of the game."""


def source_of(port: str) -> str:
    return f"reader:{port}"


def parse_specs(specs: list[str], names: list[str]) -> list[tuple[str, int | None]]:
    """`PORT` (a reader for the whole table) or `PORT=SEAT` (a player's name or number, from 1)."""
    out: list[tuple[str, int | None]] = []
    for spec in specs:
        port, sep, who = spec.rpartition("=")
        if not sep:
            out.append((spec, None))
            continue
        who = who.strip()
        seat = next((i for i, n in enumerate(names) if fold(n) == fold(who)), None)
        if seat is None and who.isdigit() and 1 <= int(who) <= len(names):
            seat = int(who) - 1
        if seat is None or not port:
            raise ReaderSpecError(spec)
        out.append((port, seat))
    return out


def start_readers(specs: list[str], core: SessionCore, inbox: Inbox, names: list[str], say: Any = None) -> list[Any]:
    """Starts the readers and extends the core with their `ReaderPlay`; the readers, to close at the end.
    A damaged pairs file is said through `say(utterance)` and left alone: tokens with their
    name written on them are still read."""
    from companion.inputs.reader.device import TokenReader
    from companion.narration import Priority, Raw
    from companion.narration import say as message

    from .pairs import PairsError, load_pairs
    from .play import ReaderPlay

    bound = parse_specs(specs, names)
    try:
        pairs = load_pairs()
    except PairsError as exc:
        pairs = {}
        if say is not None:
            say(message(exc.msg_id, Priority.IMPORTANT, "error", None, path=Raw(str(exc.path))))
    extension: Extension = ReaderPlay.bound([(source_of(port), seat) for port, seat in bound], pairs)
    core.extend(extension)
    return [TokenReader.to_inbox(port, inbox, source_of(port)).start() for port, _seat in bound]
