"""The messages of protocol version 1 (PROTOCOL.md §3 and §4): typed values, payload in and out.

Each message class has its frame type `TYPE`, a `payload()` that lays it out, and a
`parse(payload)` that reads it back or raises `BadPayload`. `parse_message` never raises: an
unknown type becomes `Unknown`, a payload that does not fit its type becomes `Malformed`.
Receivers ignore bytes after the fields they know (PROTOCOL.md §6, extending).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.protocol.frame import MAX_PAYLOAD, Frame

PROTOCOL_VERSION = 1
UID_LENGTHS = (4, 7, 10)

# Capability bits of HELLO.
CAP_WRITE_TAGS = 1 << 0
CAP_BUTTONS = 1 << 1
CAP_LED = 1 << 2
CAP_BUZZER = 1 << 3

# Result codes of ACK.
ACK_OK = 0
ACK_UNKNOWN_TYPE = 1
ACK_BAD_PAYLOAD = 2
ACK_WRITE_FAILED = 3
ACK_NO_TAG = 4
ACK_CODES = {ACK_OK: "ok", ACK_UNKNOWN_TYPE: "unknown type", ACK_BAD_PAYLOAD: "bad payload",
             ACK_WRITE_FAILED: "tag write failed", ACK_NO_TAG: "no tag"}

PRESS_SHORT = 1
PRESS_LONG = 2
PRESENCE_MORE = 0x01


class BadPayload(ValueError):
    """A payload that does not fit its message type."""


class _Reader:
    """Reads fields from a payload front to back; raises BadPayload when it runs short."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return int.from_bytes(self.take(2), "big")

    def u32(self) -> int:
        return int.from_bytes(self.take(4), "big")

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise BadPayload(f"payload ends at byte {len(self.data)}, {self.at + n} needed")
        out = self.data[self.at : self.at + n]
        self.at += n
        return out

    def uid(self) -> bytes:
        n = self.u8()
        if n not in UID_LENGTHS:
            raise BadPayload(f"UID length {n}: 4, 7 or 10 expected")
        return self.take(n)

    def text(self) -> str:
        raw = self.take(self.u8())
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadPayload("tag text is not UTF-8") from exc


def _uid_bytes(uid: bytes) -> bytes:
    if len(uid) not in UID_LENGTHS:
        raise ValueError(f"UID of {len(uid)} bytes: 4, 7 or 10 expected")
    return bytes((len(uid),)) + uid


def _text_bytes(text: str, room: int) -> bytes:
    raw = text.encode("utf-8")
    if len(raw) > room:
        raise ValueError(f"text of {len(raw)} bytes: at most {room} fit")
    return bytes((len(raw),)) + raw


class Message:
    TYPE: ClassVar[int]

    def payload(self) -> bytes:
        return b""

    @classmethod
    def parse(cls, payload: bytes) -> Message:
        return cls()

    def frame(self, seq: int) -> Frame:
        return Frame(self.TYPE, seq, self.payload())


# --- device to host -------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello(Message):
    TYPE: ClassVar[int] = 0x01
    version: int
    firmware: tuple[int, int, int]
    reader_id: int
    capabilities: int
    slots: int

    def payload(self) -> bytes:
        return (bytes((self.version, *self.firmware)) + self.reader_id.to_bytes(4, "big")
                + bytes((self.capabilities, self.slots)))

    @classmethod
    def parse(cls, payload: bytes) -> Hello:
        r = _Reader(payload)
        version = r.u8()
        if version > PROTOCOL_VERSION and len(payload) < 10:
            return cls(version, (0, 0, 0), 0, 0, 0)  # only the first byte is promised
        fw = (r.u8(), r.u8(), r.u8())
        return cls(version, fw, r.u32(), r.u8(), r.u8())


@dataclass(frozen=True)
class Placed(Message):
    TYPE: ClassVar[int] = 0x02
    slot: int
    uid: bytes
    text: str = ""

    def payload(self) -> bytes:
        head = bytes((self.slot,)) + _uid_bytes(self.uid)
        return head + _text_bytes(self.text, MAX_PAYLOAD - len(head) - 1)

    @classmethod
    def parse(cls, payload: bytes) -> Placed:
        r = _Reader(payload)
        return cls(r.u8(), r.uid(), r.text())


@dataclass(frozen=True)
class Removed(Message):
    TYPE: ClassVar[int] = 0x03
    slot: int
    uid: bytes

    def payload(self) -> bytes:
        return bytes((self.slot,)) + _uid_bytes(self.uid)

    @classmethod
    def parse(cls, payload: bytes) -> Removed:
        r = _Reader(payload)
        return cls(r.u8(), r.uid())


@dataclass(frozen=True)
class Presence(Message):
    """One part of a snapshot of the tokens present; `more` says the next part follows."""

    TYPE: ClassVar[int] = 0x04
    entries: tuple[tuple[int, bytes], ...] = ()
    more: bool = False

    def payload(self) -> bytes:
        out = bytes((PRESENCE_MORE if self.more else 0, len(self.entries)))
        for slot, uid in self.entries:
            out += bytes((slot,)) + _uid_bytes(uid)
        if len(out) > MAX_PAYLOAD:
            raise ValueError("too many entries for one PRESENCE: use presence_parts()")
        return out

    @classmethod
    def parse(cls, payload: bytes) -> Presence:
        r = _Reader(payload)
        flags = r.u8()
        count = r.u8()
        entries = tuple((r.u8(), r.uid()) for _ in range(count))
        return cls(entries, bool(flags & PRESENCE_MORE))


def presence_parts(entries: list[tuple[int, bytes]]) -> list[Presence]:
    """A snapshot cut into as many PRESENCE messages as needed (all but the last say `more`)."""
    parts: list[list[tuple[int, bytes]]] = [[]]
    size = 2
    for slot, uid in entries:
        need = 2 + len(uid)
        if size + need > MAX_PAYLOAD:
            parts.append([])
            size = 2
        parts[-1].append((slot, uid))
        size += need
    return [Presence(tuple(p), more=i < len(parts) - 1) for i, p in enumerate(parts)]


@dataclass(frozen=True)
class Button(Message):
    TYPE: ClassVar[int] = 0x05
    button: int
    press: int  # PRESS_SHORT or PRESS_LONG

    def payload(self) -> bytes:
        return bytes((self.button, self.press))

    @classmethod
    def parse(cls, payload: bytes) -> Button:
        r = _Reader(payload)
        button, press = r.u8(), r.u8()
        if press not in (PRESS_SHORT, PRESS_LONG):
            raise BadPayload(f"press {press}: 1 (short) or 2 (long) expected")
        return cls(button, press)


@dataclass(frozen=True)
class Status(Message):
    TYPE: ClassVar[int] = 0x06
    uptime: int
    crc_errors: int
    frames_dropped: int
    reader_faults: int

    def payload(self) -> bytes:
        return (self.uptime.to_bytes(4, "big") + self.crc_errors.to_bytes(2, "big")
                + self.frames_dropped.to_bytes(2, "big") + self.reader_faults.to_bytes(2, "big"))

    @classmethod
    def parse(cls, payload: bytes) -> Status:
        r = _Reader(payload)
        return cls(r.u32(), r.u16(), r.u16(), r.u16())


@dataclass(frozen=True)
class Ack(Message):
    TYPE: ClassVar[int] = 0x7F
    acked: int
    code: int = ACK_OK

    def payload(self) -> bytes:
        return bytes((self.acked, self.code))

    @classmethod
    def parse(cls, payload: bytes) -> Ack:
        r = _Reader(payload)
        return cls(r.u8(), r.u8())


# --- host to device -------------------------------------------------------------------------


@dataclass(frozen=True)
class HelloReq(Message):
    TYPE: ClassVar[int] = 0x81


@dataclass(frozen=True)
class Ping(Message):
    TYPE: ClassVar[int] = 0x82


@dataclass(frozen=True)
class WriteTag(Message):
    TYPE: ClassVar[int] = 0x83
    slot: int
    text: str

    def payload(self) -> bytes:
        return bytes((self.slot,)) + _text_bytes(self.text, MAX_PAYLOAD - 2)

    @classmethod
    def parse(cls, payload: bytes) -> WriteTag:
        r = _Reader(payload)
        return cls(r.u8(), r.text())


@dataclass(frozen=True)
class Led(Message):
    TYPE: ClassVar[int] = 0x84
    red: int
    green: int
    blue: int

    def payload(self) -> bytes:
        return bytes((self.red, self.green, self.blue))

    @classmethod
    def parse(cls, payload: bytes) -> Led:
        r = _Reader(payload)
        return cls(r.u8(), r.u8(), r.u8())


@dataclass(frozen=True)
class Beep(Message):
    TYPE: ClassVar[int] = 0x85
    ms: int

    def payload(self) -> bytes:
        return self.ms.to_bytes(2, "big")

    @classmethod
    def parse(cls, payload: bytes) -> Beep:
        return cls(_Reader(payload).u16())


@dataclass(frozen=True)
class StatusReq(Message):
    TYPE: ClassVar[int] = 0x86


@dataclass(frozen=True)
class SlotReq(Message):
    TYPE: ClassVar[int] = 0x87
    slot: int

    def payload(self) -> bytes:
        return bytes((self.slot,))

    @classmethod
    def parse(cls, payload: bytes) -> SlotReq:
        return cls(_Reader(payload).u8())


# --- what a receiver makes of a frame it cannot use -----------------------------------------


@dataclass(frozen=True)
class Unknown(Message):
    """A frame type this version does not know: ignored by hosts, ACKed code 1 by devices."""

    type: int
    raw: bytes

    def frame(self, seq: int) -> Frame:
        return Frame(self.type, seq, self.raw)


@dataclass(frozen=True)
class Malformed(Message):
    """A sound frame of a known type whose payload does not fit it (counted, then ignored)."""

    type: int
    raw: bytes
    reason: str

    def frame(self, seq: int) -> Frame:
        return Frame(self.type, seq, self.raw)


KNOWN: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, Placed, Removed, Presence, Button, Status, Ack,
                HelloReq, Ping, WriteTag, Led, Beep, StatusReq, SlotReq)
}
DEVICE_TO_HOST = frozenset(t for t in KNOWN if t < 0x80)
HOST_TO_DEVICE = frozenset(t for t in KNOWN if t >= 0x80)


def parse_message(frame: Frame) -> Message:
    """The message a frame carries; never raises (Unknown or Malformed instead)."""
    cls = KNOWN.get(frame.type)
    if cls is None:
        return Unknown(frame.type, frame.payload)
    try:
        return cls.parse(frame.payload)
    except BadPayload as exc:
        return Malformed(frame.type, frame.payload, str(exc))
