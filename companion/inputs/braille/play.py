"""`companion play/resume ... --braille SEAT[=contracted]`: the braille seats of a running game.

Each seat takes its display (`seat.BrailleSeat`), claims its place in the shared `SeatBook`
(source "braille": a seat held by a display is refused to a phone or a terminal), and
follows that seat's channel. A display that cannot be taken — no BrlAPI module, no brltty,
no display, a display another program holds — is said once at the table in one sentence and
the game goes on without it. Its unplugging and its return are said once each: the seat
posts `SeatReleased`/`SeatClaimed` with the sources "braille:lost"/"braille:back", so the
core stops and resumes sending that seat's secrets there (RULES KIA-10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core import fold
from companion.session.inbox import Device, Inbox, Line, SeatClaimed, SeatReleased

from .seat import BrailleSeat, follow
from .snapshot import Snapshots

CONTRACTED = {"contracted", "contracte", "abrege", "grade2", "g2"}
UNCONTRACTED = {"uncontracted", "integral", "grade1", "g1", ""}


class SpecError(ValueError):
    """A `--braille` value that names no human of this game, or an unknown grade."""


def parse_specs(specs: list[str], names: list[str], humans: list[int]) -> list[tuple[int, bool]]:
    """`Anne`, `Anne=contracted` -> (seat, contracted), for each `--braille`."""
    out: list[tuple[int, bool]] = []
    for spec in specs:
        name, _, grade = spec.partition("=")
        seat = next((i for i in humans if fold(names[i]) == fold(name.strip())), None)
        g = fold(grade.strip()).replace(" ", "")
        if seat is None or g not in CONTRACTED | UNCONTRACTED or any(s == seat for s, _ in out):
            raise SpecError(spec)
        out.append((seat, g in CONTRACTED))
    return out


def start_seats(seats: list[tuple[int, bool]], book: Any, core: Any, inbox: Inbox, langs: list[str],
                tell: Callable[..., None]) -> list[BrailleSeat]:
    """Take each display and its seat; `tell(msg_id, **params)` says a problem at the table."""
    from companion.narration import Raw

    snapshots = Snapshots(core)
    started: list[BrailleSeat] = []
    for seat, contracted in seats:
        name = book.names[seat]

        def post(text: str, seat: int = seat) -> None:
            inbox.post(Line(text, seat, source="braille"))

        bs = BrailleSeat(seat, langs[seat], post, contracted=contracted)
        problem = bs.open()
        if problem is not None:
            tell(problem, player=Raw(name))
            bs.stop()
            continue
        claim = book.claim(seat, "braille")
        if claim is None:
            tell("core.join.taken", player=Raw(name))
            bs.stop()
            continue
        channel = claim.channel
        bs.on_lost = lambda s=seat, ch=channel: inbox.post(Device(SeatReleased(s, ch), "braille:lost"))
        bs.on_back = lambda s=seat, ch=channel: inbox.post(Device(SeatClaimed(s, ch), "braille:back"))
        follow(bs, channel, snapshots)
        bs.start()
        started.append(bs)
    return started


__all__ = ["SpecError", "parse_specs", "start_seats"]
