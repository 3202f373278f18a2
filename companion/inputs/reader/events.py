"""What a token reader reports, as values the table loop receives in `inbox.Device(event, source)`.

Every event names its reader (the 8-hex-digit id from its HELLO, "" before one came) and turns
into the JSON line of `companion reader listen --json` with `to_json()`:
`{"event": ..., "reader": ..., "slot": n|null, "uid": "hex"|null, "text": ...|null, ...}`.
`TokenPlaced` and `TokenRemoved` are only sent once the reader's next PRESENCE confirmed them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class ReaderEvent:
    EVENT: ClassVar[str] = ""
    reader: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.EVENT, "reader": self.reader,
                               "slot": None, "uid": None, "text": None}
        for key, value in self.__dict__.items():
            if key != "reader":
                out[key] = value
        return out


@dataclass(frozen=True)
class ReaderHello(ReaderEvent):
    """A reader introduced itself (at boot, on request, after the port opened)."""

    EVENT: ClassVar[str] = "hello"
    version: int
    firmware: str
    slots: int
    capabilities: tuple[str, ...]


@dataclass(frozen=True)
class ReaderTooNew(ReaderEvent):
    """A reader speaks a newer protocol than this program: it is ignored until one that fits."""

    EVENT: ClassVar[str] = "too_new"
    version: int


@dataclass(frozen=True)
class TokenPlaced(ReaderEvent):
    """A token is on `slot`: its tag's UID in hex and the text it carries (None: no text)."""

    EVENT: ClassVar[str] = "placed"
    slot: int
    uid: str
    text: str | None


@dataclass(frozen=True)
class TokenRemoved(ReaderEvent):
    EVENT: ClassVar[str] = "removed"
    slot: int
    uid: str
    text: str | None


@dataclass(frozen=True)
class ButtonPressed(ReaderEvent):
    EVENT: ClassVar[str] = "button"
    button: int
    long: bool


@dataclass(frozen=True)
class ReaderStatus(ReaderEvent):
    EVENT: ClassVar[str] = "status"
    uptime: int
    crc_errors: int
    frames_dropped: int
    reader_faults: int


@dataclass(frozen=True)
class ReaderLost(ReaderEvent):
    """The reader went away (`why`: "unplugged", "silent", "no port"); tokens are kept."""

    EVENT: ClassVar[str] = "lost"
    why: str


@dataclass(frozen=True)
class ReaderBack(ReaderEvent):
    """The reader speaks again after a `ReaderLost`; what changed meanwhile follows."""

    EVENT: ClassVar[str] = "back"


CAPABILITIES = ("writes tags", "buttons", "led", "buzzer")


def capability_names(bits: int) -> tuple[str, ...]:
    return tuple(name for i, name in enumerate(CAPABILITIES) if bits & (1 << i))
