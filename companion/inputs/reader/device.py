"""The token reader on a serial port: pyserial in its own thread, protocol version 1.

    reader = TokenReader("/dev/ttyACM0", on_event)          # or a URL: "loop://", "rfc2217://..."
    reader.start()
    ...
    reader.close()

`on_event` is called from the reader's thread with each `reader_events.ReaderEvent`; the table
posts them with `TokenReader.to_inbox(port, inbox)`, i.e. `inbox.post(Device(event, source))`.

The reader asks HELLO when the port opens and until one comes, reopens the port after an unplug,
notices a silent board, and reconciles from PRESENCE (`ReaderTracker`): a token is reported
placed or removed only when the next PRESENCE agrees. A PLACED that the following PRESENCE
does not list is dropped; a token that PRESENCE lists without a PLACED is asked for (SLOT_REQ)
and reported once a second PRESENCE lists it too. Lost frames therefore heal within a second
or two, and a frame falsely accepted by the CRC (one in 65,536 damaged frames) cannot invent
a token on its own.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import protocol as p
from companion.inputs.reader.events import (
    ButtonPressed,
    ReaderBack,
    ReaderEvent,
    ReaderHello,
    ReaderLost,
    ReaderStatus,
    ReaderTooNew,
    TokenPlaced,
    TokenRemoved,
    capability_names,
)

LOST_AFTER = 2.0        # no sound frame for this long (four heartbeats): the reader is lost
HELLO_EVERY = 1.0       # HELLO_REQ again until a HELLO comes
REOPEN_EVERY = 0.2      # try to reopen a vanished port this often
SLOT_REQ_EVERY = 0.4    # ask again for an unannounced token's text at most this often
MISSING_SNAPSHOTS = 2   # a token gone from PRESENCE without REMOVED: gone after this many
UNTEXTED_SNAPSHOTS = 3  # a token seen without any text after this many: reported without text


@dataclass
class _Token:
    uid: bytes
    text: str | None


@dataclass
class ReaderTracker:
    """Host-side state of one reader, sans I/O: received messages in, events and requests out."""

    reader: str = ""
    hello: p.Hello | None = None
    known: dict[int, _Token] = field(default_factory=dict)      # reported placed
    counters: dict[str, int] = field(default_factory=lambda: {
        "unconfirmed": 0, "gaps": 0, "ignored": 0, "snapshots": 0})

    def __post_init__(self) -> None:
        self._pending_placed: dict[int, _Token] = {}
        self._pending_removed: dict[int, bytes] = {}
        self._parts: list[tuple[int, bytes]] = []
        self._part_seq: int | None = None
        self._last_seq: int | None = None
        self._unannounced: dict[tuple[int, bytes], int] = {}
        self._missing: dict[int, int] = {}
        self._asked: dict[int, float] = {}
        self.accepting = False  # a HELLO of a version we speak came on this connection

    def connection_opened(self) -> None:
        self.accepting = False
        self._parts.clear()
        self._part_seq = None
        self._last_seq = None
        self._pending_placed.clear()
        self._pending_removed.clear()

    def handle(self, r: p.Received, now: float) -> tuple[list[ReaderEvent], list[p.Message]]:
        events: list[ReaderEvent] = []
        requests: list[p.Message] = []
        msg = r.message
        if self._last_seq is not None and r.seq != (self._last_seq + 1) & 0xFF:
            self.counters["gaps"] += 1
        self._last_seq = r.seq
        if isinstance(msg, p.Hello):
            return self._hello(msg, rebooted=r.seq == 0), requests
        if not self.accepting:
            self.counters["ignored"] += 1
            return events, requests
        if isinstance(msg, p.Placed):
            self._pending_placed[msg.slot] = _Token(msg.uid, msg.text or None)
        elif isinstance(msg, p.Removed):
            self._pending_removed[msg.slot] = msg.uid
        elif isinstance(msg, p.Presence):
            if self._part_seq is not None and r.seq != (self._part_seq + 1) & 0xFF:
                self._parts.clear()  # a part went missing: wait for the next whole snapshot
            self._parts.extend(msg.entries)
            self._part_seq = r.seq
            if not msg.more:
                snapshot = dict(self._parts)
                self._parts.clear()
                self._part_seq = None
                events += self._reconcile(snapshot, now, requests)
        elif isinstance(msg, p.Button):
            events.append(ButtonPressed(self.reader, msg.button, msg.press == p.PRESS_LONG))
        elif isinstance(msg, p.Status):
            events.append(ReaderStatus(self.reader, msg.uptime, msg.crc_errors, msg.frames_dropped,
                                       msg.reader_faults))
        # ACK, unknown and malformed frames: nothing to report (unknown types are ignored)
        return events, requests

    def _hello(self, msg: p.Hello, rebooted: bool) -> list[ReaderEvent]:
        reader = f"{msg.reader_id:08x}"
        if msg.version > p.PROTOCOL_VERSION:
            self.accepting = False
            return [ReaderTooNew(reader, msg.version)]
        first = not self.accepting or self.hello != msg or rebooted
        self.accepting = True
        self.hello = msg
        if reader != self.reader and self.reader:
            self.known.clear()  # another reader on this port: its tokens are its own
        self.reader = reader
        if not first:
            return []
        return [ReaderHello(reader, msg.version, "{}.{}.{}".format(*msg.firmware), msg.slots,
                            capability_names(msg.capabilities))]

    def _reconcile(self, snap: dict[int, bytes], now: float, requests: list[p.Message]) -> list[ReaderEvent]:
        self.counters["snapshots"] += 1
        events: list[ReaderEvent] = []
        for slot, uid in sorted(snap.items()):
            have = self.known.get(slot)
            pending = self._pending_placed.get(slot)
            if have is not None and have.uid == uid:
                self._missing.pop(slot, None)
                if pending is not None and pending.uid == uid and pending.text:
                    have.text = pending.text  # the tag was rewritten
                continue
            if have is not None:  # another token took its place
                events.append(TokenRemoved(self.reader, slot, have.uid.hex(), have.text))
                del self.known[slot]
                self._missing.pop(slot, None)
            if pending is not None and pending.uid == uid:
                self.known[slot] = pending
                self._unannounced.pop((slot, uid), None)
                events.append(TokenPlaced(self.reader, slot, uid.hex(), pending.text))
                continue
            # listed without a PLACED we kept: ask for it, report it once seen again with its text
            seen = self._unannounced.get((slot, uid), 0) + 1
            self._unannounced[(slot, uid)] = seen
            if seen >= UNTEXTED_SNAPSHOTS:
                self.known[slot] = _Token(uid, None)
                del self._unannounced[(slot, uid)]
                events.append(TokenPlaced(self.reader, slot, uid.hex(), None))
            elif now - self._asked.get(slot, -1e9) >= SLOT_REQ_EVERY:
                self._asked[slot] = now
                requests.append(p.SlotReq(slot))
        for slot in sorted(set(self.known) - set(snap)):
            have = self.known[slot]
            confirmed = self._pending_removed.get(slot) == have.uid
            missing = self._missing.get(slot, 0) + 1
            if confirmed or missing >= MISSING_SNAPSHOTS:
                events.append(TokenRemoved(self.reader, slot, have.uid.hex(), have.text))
                del self.known[slot]
                self._missing.pop(slot, None)
            else:
                self._missing[slot] = missing
        for key in [k for k in self._unannounced if snap.get(k[0]) != k[1]]:
            del self._unannounced[key]
        for slot, tok in self._pending_placed.items():
            if snap.get(slot) != tok.uid and not (slot in self.known and self.known[slot].uid == tok.uid):
                self.counters["unconfirmed"] += 1
        self._pending_placed.clear()
        self._pending_removed.clear()
        return events


def _open_serial(url: str) -> Any:
    import serial  # pyserial: imported here, the CLI must start fast

    return serial.serial_for_url(url, baudrate=115200, timeout=0.05, write_timeout=1.0)


class TokenReader:
    """One reader on one port (a device path or a pyserial URL), read in its own thread."""

    def __init__(self, port: str, on_event: Callable[[ReaderEvent], None], *,
                 opener: Callable[[str], Any] = _open_serial, clock: Callable[[], float] = time.monotonic) -> None:
        self.port_name = port
        self.on_event = on_event
        self.tracker = ReaderTracker()
        self.decoder = p.Decoder()
        self._encoder = p.Encoder()
        self._open = opener
        self._clock = clock
        self._port: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lost_since: float | None = None   # None: connected and heard
        self._lost_reported = False
        self._last_frame = 0.0
        self._last_hello_req = -1e9
        self.acks: dict[int, int] = {}          # our seq -> result code of its ACK

    @classmethod
    def to_inbox(cls, port: str, inbox: Any, source: str = "reader") -> TokenReader:
        """A reader that posts `companion.session.inbox.Device(event, source)` for each event."""
        from companion.session.inbox import Device

        return cls(port, lambda event: inbox.post(Device(event, source)))

    # --- the caller's side ----------------------------------------------------------------

    def start(self) -> TokenReader:
        self._thread = threading.Thread(target=self._run, name=f"reader {self.port_name}", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._close_port()

    def send(self, msg: p.Message) -> int | None:
        """Sends a request (PING, LED, BEEP, WRITE_TAG...); its seq, or None when not connected."""
        with self._lock:
            if self._port is None:
                return None
            seq, wire = self._encoder.encode(msg)
            try:
                self._port.write(wire)
            except Exception:  # noqa: BLE001 - pyserial raises SerialException and OSError
                return None
            return seq

    def write_tag(self, slot: int, text: str) -> int | None:
        return self.send(p.WriteTag(slot, text))

    def led(self, red: int, green: int, blue: int) -> int | None:
        return self.send(p.Led(red, green, blue))

    def beep(self, ms: int) -> int | None:
        return self.send(p.Beep(ms))

    @property
    def connected(self) -> bool:
        return self._port is not None and self._lost_since is None

    # --- the thread -------------------------------------------------------------------------

    def _emit(self, events: list[ReaderEvent]) -> None:
        for e in events:
            try:
                self.on_event(e)
            except Exception:  # noqa: BLE001 - a failing listener must not stop the reader
                logging.getLogger(__name__).exception("reader event listener failed on %r", e)

    def _lost(self, why: str) -> None:
        if not self._lost_reported:
            self._lost_reported = True
            self._emit([ReaderLost(self.tracker.reader, why)])
        if self._lost_since is None:
            self._lost_since = self._clock()

    def _close_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            # a port already gone (the reader unplugged) may fail to close: it is closed anyway
            with contextlib.suppress(Exception):
                port.close()

    def _try_open(self) -> bool:
        try:
            port = self._open(self.port_name)
        except Exception:  # noqa: BLE001 - a missing or busy port: try again later
            return False
        with self._lock:
            self._port = port
        self.decoder.reset()
        self.tracker.connection_opened()
        self._last_frame = self._clock()
        self._last_hello_req = -1e9
        # a zero ends whatever partial frame the board was receiving; a port that cannot take
        # it is found lost by the next read, as any other
        with contextlib.suppress(Exception):
            port.write(b"\x00")
        return True

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            if self._port is None:
                if not self._try_open():
                    if first:
                        self._lost("no port")
                    self._stop.wait(REOPEN_EVERY)
                    first = False
                    continue
                first = False
            now = self._clock()
            asking = not self.tracker.accepting or self._lost_since is not None
            if asking and now - self._last_hello_req >= HELLO_EVERY:
                self._last_hello_req = now
                self.send(p.HelloReq())
            try:
                data = self._port.read(1)  # waits at most the port's timeout (50 ms)
                if data:
                    data += self._port.read(self._port.in_waiting)
            except Exception:  # noqa: BLE001 - the port vanished (unplugged, board gone)
                self._close_port()
                self._lost("unplugged")
                continue
            now = self._clock()
            if not data:
                if now - self._last_frame > LOST_AFTER:
                    self._lost("silent")
                continue
            for r in self.decoder.feed(data):
                self._last_frame = now
                if self._lost_reported or self._lost_since is not None:
                    was_reported = self._lost_reported
                    self._lost_since = None
                    self._lost_reported = False
                    if was_reported:
                        self._emit([ReaderBack(self.tracker.reader)])
                if isinstance(r.message, p.Ack):
                    self.acks[r.message.acked] = r.message.code
                events, requests = self.tracker.handle(r, now)
                self._emit(events)
                for req in requests:
                    self.send(req)
